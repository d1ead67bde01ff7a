package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hookstudio/app/format/jsondoc"
)

const settingsText = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "sh guard.sh", "x-note": "kept"}]
      }
    ]
  },
  "permissions": {"allow": ["Bash(ls:*)"]}
}
`

func TestInspectClaudeHooks(t *testing.T) {
	got, err := InspectClaudeHooks(".claude/settings.json", []byte(settingsText))
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Hooks) != `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sh guard.sh","x-note":"kept"}]}]}` {
		t.Errorf("hooks %s", got.Hooks)
	}
	if got.Lines["PreToolUse"] != 4 || got.Lines["PreToolUse/0"] != 5 || got.Lines["PreToolUse/0/0"] != 7 {
		t.Errorf("lines %v", got.Lines)
	}
	for _, bad := range []string{`{"hooks": [`, `[1]`, `{"hooks": []}`} {
		if _, err := InspectClaudeHooks(".claude/settings.json", []byte(bad)); !errors.Is(err, ErrClaudeNotEditable) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// Hooks of the wrong shape inside are read as they are (the form names them), never a panic.
	odd := `{"hooks": {"Stop": [null, {"hooks": 7}, {"x": 1}, {"hooks": [3]}], "PreToolUse": {"a": 1}}}`
	if got, err := InspectClaudeHooks(".claude/settings.json", []byte(odd)); err != nil || got.Lines["Stop/3/0"] != 1 || got.Lines["PreToolUse"] != 1 {
		t.Errorf("odd shapes: %+v %v", got, err)
	}
	if _, err := InspectClaudeHooks(".claude/skills/x/SKILL.md", []byte("---\nhooks:\n  Stop: 3\n  Pre:\n    - 7\n---\n")); err != nil {
		t.Errorf("odd frontmatter shapes: %v", err)
	}
	if got, err := InspectClaudeHooks(".claude/settings.json", nil); err != nil || string(got.Hooks) != "{}" {
		t.Errorf("empty: %s %v", got.Hooks, err)
	}
}

func TestEditClaudeHooks(t *testing.T) {
	added := `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sh guard.sh","x-note":"kept"}]}],"Stop":[{"hooks":[{"type":"command","command":"echo done","timeout":30}]}]}`
	cases := []struct {
		name, file, text, hooks string
		want                    string
	}{
		{"replace, other keys as written", ".claude/settings.json", settingsText, added, `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "sh guard.sh", "x-note": "kept"}
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {"type": "command", "command": "echo done", "timeout": 30}
        ]
      }
    ]
  },
  "permissions": {"allow": ["Bash(ls:*)"]}
}
`},
		{"added to a file without hooks", ".claude/settings.json", "{\n  \"model\": \"opus\"\n}\n", `{"Stop":[{"hooks":[{"type":"command","command":"echo"}]}]}`, `{
  "model": "opus",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {"type": "command", "command": "echo"}
        ]
      }
    ]
  }
}
`},
		{"a new file", "plug/hooks/hooks.json", "", `{"Stop":[{"hooks":[{"type":"command","command":"echo"}]}]}`, `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {"type": "command", "command": "echo"}
        ]
      }
    ]
  }
}
`},
		{"all removed", ".claude/settings.json", settingsText, `{}`, `{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"]}
}
`},
		{"frontmatter added, body kept", ".claude/skills/x/SKILL.md", "---\nname: x\ndescription: Does x.\n---\n# X\n\nBody.\n",
			`{"Stop":[{"hooks":[{"type":"command","command":"echo once","once":true}]}]}`,
			"---\nname: x\ndescription: Does x.\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo once\n          once: true\n---\n# X\n\nBody.\n"},
		{"frontmatter made", ".claude/skills/x/SKILL.md", "# X\n", `{"Stop":[{"hooks":[{"type":"command","command":"echo","timeout":5}]}]}`,
			"---\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo\n          timeout: 5\n---\n# X\n"},
		{"frontmatter hooks removed", ".claude/skills/x/SKILL.md", "---\nname: x\nhooks:\n  Stop: []\n---\nBody.\n", `{}`, "---\nname: x\n---\nBody.\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := EditClaudeHooks(c.file, []byte(c.text), json.RawMessage(c.hooks))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Fatalf("got\n%s\nwant\n%s", out, c.want)
			}
			// What the form reads back is what it wrote.
			back, err := InspectClaudeHooks(c.file, out)
			if err != nil || string(back.Hooks) != c.hooks {
				t.Errorf("read back %s %v", back.Hooks, err)
			}
		})
	}
	if _, err := EditClaudeHooks(".claude/settings.json", []byte(settingsText), json.RawMessage(`[1]`)); err == nil {
		t.Error("hooks that are not an object were written")
	}
	if _, err := EditClaudeHooks(".claude/settings.json", []byte(`{"hooks": `), json.RawMessage(`{}`)); !errors.Is(err, ErrClaudeNotEditable) {
		t.Errorf("a broken file was edited: %v", err)
	}
}

// The frontmatter's lines point at the file's lines, where claudehook
// puts the handlers.
func TestInspectSkillHookLines(t *testing.T) {
	text := "---\nname: x\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo\n---\nBody.\n"
	got, err := InspectClaudeHooks(".claude/skills/x/SKILL.md", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Hooks) != `{"Stop":[{"hooks":[{"type":"command","command":"echo"}]}]}` {
		t.Errorf("hooks %s", got.Hooks)
	}
	if !strings.HasPrefix(text, "---") || got.Lines["Stop"] != 4 || got.Lines["Stop/0/0"] != 6 {
		t.Errorf("lines %v", got.Lines)
	}
}

// Any text: reading never panics, and writing back what was read keeps the
// hooks and every other top-level key as they were.
func FuzzClaudeHooksRoundTrip(f *testing.F) {
	f.Add(settingsText)
	f.Add(`{"hooks": {"Stop": [null, {"hooks": 7}]}, "x": [1, {"y": "z"}]}`)
	f.Add("{\r\n\t\"hooks\": {}\r\n}")
	f.Add(`{}`)
	f.Add(`{"a":1,"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","args":["a","b"]}]}]},"b":2}`)
	f.Fuzz(func(t *testing.T, text string) {
		got, err := InspectClaudeHooks(".claude/settings.json", []byte(text))
		if err != nil {
			return
		}
		out, err := EditClaudeHooks(".claude/settings.json", []byte(text), got.Hooks)
		if err != nil {
			t.Fatalf("write back: %v", err)
		}
		back, err := InspectClaudeHooks(".claude/settings.json", out)
		if err != nil || string(back.Hooks) != string(got.Hooks) {
			t.Fatalf("hooks changed: %s → %s (%v)\n%s", got.Hooks, back.Hooks, err, out)
		}
		before, _ := jsondoc.Parse([]byte(text))
		after, _ := jsondoc.Parse(out)
		if before == nil || after == nil {
			if len(bytes.TrimSpace([]byte(text))) > 0 {
				t.Fatalf("unparsable: %q → %q", text, out)
			}
			return
		}
		for _, m := range before.Root.Children {
			if m.Key == "hooks" {
				continue
			}
			if n := after.Root.Get(m.Key); n == nil || !bytes.Equal(n.Raw, before.Root.Get(m.Key).Raw) {
				t.Fatalf("key %q changed:\n%s\n%s", m.Key, text, out)
			}
		}
	})
}
