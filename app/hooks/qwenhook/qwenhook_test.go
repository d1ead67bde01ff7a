package qwenhook

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/hooks/hooktest"
)

// TestLoadReportsEverything: every problem of a settings file at once,
// with Qwen Code's own consequence: another agent's event, a timeout read
// as milliseconds, plain stdout the model never reads, PreToolUse context
// Qwen Code drops, a missing script, a handler this simulator does not run.
func TestLoadReportsEverything(t *testing.T) {
	root := hooktest.Project(t, map[string]string{SettingsFile: `{"general": {"x": 1}, "hooks": {
  "enabled": true,
  "BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": ".qwen/hooks/ctx.sh", "timeout": 5000},
    {"type": "http", "url": "http://127.0.0.1:9/"},
    {"type": "command", "command": "\"$QWEN_PROJECT_DIR\"/.qwen/hooks/gone.sh"}]}],
  "PostToolUse": [{"hooks": [{"type": "command", "command": "echo Remember the tests"}]}],
  "TodoCreated": [{"hooks": [{"type": "command", "command": "true"}]}]
}}`,
		".qwen/hooks/ctx.sh": "#!/bin/sh\necho '{\"hookSpecificOutput\":{\"additionalContext\":\"x\"}}'\n"})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range cfg.Diagnostics {
		if d.Line == 0 {
			t.Errorf("%s has no position", d.Code)
		}
		got = append(got, d.Code)
	}
	slices.Sort(got)
	want := []string{CodeContextDropped, "qwen-missing-script", "qwen-not-run", "qwen-not-simulated", CodePlainStdout, CodeTimeoutMS, "qwen-unknown-event"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("codes\n%q\nwant\n%q", got, want)
	}
}

// TestRun: a run's hooks merged as Qwen Code merges them and placed by the
// bundled profile: SessionStart's block on the system prompt, the prompt's
// context (< and > escaped) after the prompt and again after the tool
// results, a denial's reason as the result, PostToolUse context appended,
// a Stop reason as the next user message with UserPromptSubmit on it.
func TestRun(t *testing.T) {
	root := hooktest.Project(t, map[string]string{SettingsFile: `{"hooks": {
 "SessionStart": [{"hooks": [{"type": "command", "command": "cat >/dev/null; echo SS-CTX"}]}],
 "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat > ups.json; echo 'U <b>'"}, {"type": "command", "command": "cat >/dev/null; echo U2"}]}],
 "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "input=$(cat); case \"$input\" in *rm?-rf*) echo 'no deletes' >&2; exit 2;; esac"}]}],
 "PostToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"additionalContext\":\"NOTE\"}}'"}]}],
 "Stop": [{"hooks": [{"type": "command", "command": "input=$(cat); case \"$input\" in *'\"stop_hook_active\":true'*) exit 0;; esac; echo STOP-R >&2; exit 2"}]}]
}}`})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sc := hooktest.Scenario(t, `name: t
system_prompt: SYS
tools:
  - {name: run_shell_command, description: Run., parameters: {type: object, properties: {command: {type: string}}}}
requests:
  - user: go
    rounds:
      - tool_calls: [{name: run_shell_command, arguments: {command: "rm -rf x"}, result: "gone"}]
      - tool_calls: [{name: run_shell_command, arguments: {command: "ls"}, result: "a b"}]
      - content: first
      - content: done
`)
	tr := hooktest.RunWith(t, Options{Config: cfg, Scenario: sc}, New)
	got := hooktest.Said(tr)
	ctx := "user: <qwen:user-prompt-submit-context>\nU &lt;b&gt;\nU2\n</qwen:user-prompt-submit-context>"
	want := []string{"system: SYS\n\n<qwen:session-start-context hidden=\"true\">\nSessionStart additional context:\nSS-CTX\n</qwen:session-start-context>",
		"user: go", ctx, "tool: no deletes", ctx, "tool: a b\n\nNOTE", ctx, "user: STOP-R", ctx}
	if !slices.Equal(got, want) {
		t.Errorf("messages\n%q\nwant\n%q", got, want)
	}
	data, err := os.ReadFile(filepath.Join(root, "ups.json"))
	if err != nil || !strings.Contains(string(data), `"prompt":"STOP-R","submitted_prompt":"STOP-R"`) {
		t.Errorf("UserPromptSubmit's last stdin (on the Stop reason): %s %v", data, err)
	}
}

func TestSchemaMatchesValidator(t *testing.T) {
	data, err := os.ReadFile("../../../schema/qwen-settings.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }
	sorted := func(s ...[]string) []string { return slices.Sorted(slices.Values(slices.Concat(s...))) }
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"events", keys(s.Defs["hooks"].Properties), sorted(dialect.Events(), configFields)},
		{"group", keys(s.Defs["group"].Properties), sorted(dialect.GroupFields)},
		{"handler", keys(s.Defs["handler"].Properties), sorted(dialect.HandlerFields)},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: schema %q, validator %q", c.what, c.got, c.want)
		}
	}
	var typ struct {
		Enum []string `json:"enum"`
	}
	_ = json.Unmarshal(s.Defs["handler"].Properties["type"], &typ)
	if !slices.Equal(typ.Enum, dialect.Types) {
		t.Errorf("types: schema %q, validator %q", typ.Enum, dialect.Types)
	}
}

// TestPostToolUsePlainStdout: Qwen Code gives the model nothing of a
// PostToolUse hook's plain stdout (seen on 0.24.4): validate says so
// before any run, reading the script the command runs — shell, Python or
// Node — and the trace's step says so after one.
func TestPostToolUsePlainStdout(t *testing.T) {
	cases := []struct {
		name, command, file, script string
		plain                       bool
	}{
		{"echo", "echo Remember the tests", "", "", true},
		{"python print", "python3 .qwen/hooks/note.py", ".qwen/hooks/note.py", "import sys\nsys.stdin.read()\nprint('Remember the tests')\n", true},
		{"node console.log", "node \"$QWEN_PROJECT_DIR/.qwen/hooks/note.js\"", ".qwen/hooks/note.js", "console.log(`Remember the tests`);\n", true},
		{"python json", "python3 .qwen/hooks/note.py", ".qwen/hooks/note.py", "import json\nprint(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'additionalContext': 'Remember'}}))\n", false},
		{"python to stderr", "python3 .qwen/hooks/note.py", ".qwen/hooks/note.py", "import sys\nprint('blocked', file=sys.stderr)\nsys.exit(2)\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd, _ := json.Marshal(c.command)
			files := map[string]string{SettingsFile: `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": ` + string(cmd) + `}]}]}}`}
			if c.file != "" {
				files[c.file] = c.script
			}
			root := hooktest.Project(t, files)
			cfg, err := Load(root, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			warned := false
			for _, d := range cfg.Diagnostics {
				warned = warned || d.Code == CodePlainStdout
			}
			if warned != c.plain {
				t.Errorf("validate warns %v, want %v: %+v", warned, c.plain, cfg.Diagnostics)
			}
			if !c.plain {
				return
			}
			sc := hooktest.Scenario(t, `name: t
tools:
  - {name: run_shell_command, description: Run., parameters: {type: object, properties: {command: {type: string}}}}
requests:
  - user: go
    rounds:
      - tool_calls: [{name: run_shell_command, arguments: {command: "ls"}, result: "a b"}]
      - content: done
`)
			tr := hooktest.RunWith(t, Options{Config: cfg, Scenario: sc}, New)
			stepSays := false
			for _, hc := range tr.HookCalls {
				for _, w := range hc.Warnings {
					stepSays = stepSays || strings.Contains(w, "model never reads it")
				}
			}
			if !stepSays {
				t.Error("the trace's step does not say the model never reads the plain stdout")
			}
			for _, m := range tr.CallMessages(len(tr.Calls) - 1) {
				if strings.Contains(m.Content, "Remember") {
					t.Errorf("the plain stdout reached the model: %q", m.Content)
				}
			}
		})
	}
}
