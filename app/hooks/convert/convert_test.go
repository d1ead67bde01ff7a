package convert

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

// project writes files (path → content; a path ending in .sh is made
// executable) into a fresh folder.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		file := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(file, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// settings is a .claude/settings.json of the given hooks object.
func settings(hooks string) map[string]string {
	return map[string]string{".claude/settings.json": `{"hooks": ` + hooks + `}`}
}

func read(t *testing.T, root string) *Set {
	t.Helper()
	set, _, err := Read(context.Background(), ClaudeCode, root, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// written is the hooks file of res decoded: for the Claude Code shape the
// events object, for Copilot CLI the file's "hooks".
func written(t *testing.T, res *Result) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(res.Files[0].Data, &v); err != nil {
		t.Fatal(err)
	}
	if res.To == CopilotCLI {
		v, _ = v["hooks"].(map[string]any)
	}
	return v
}

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

// firstHandler is the first handler of event in a written hooks object,
// with its group's matcher.
func firstHandler(t *testing.T, hooks map[string]any, event string, copilot bool) (map[string]any, string) {
	t.Helper()
	list, ok := hooks[event].([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("no %s in %v", event, hooks)
	}
	g := list[0].(map[string]any)
	if copilot {
		m, _ := g["matcher"].(string)
		return g, m
	}
	m, _ := g["matcher"].(string)
	return g["hooks"].([]any)[0].(map[string]any), m
}

// TestEventTable: every moment has a row, each agent's names are its own
// and unique, and every agent of the tables has a dialect and a source.
func TestEventTable(t *testing.T) {
	for c, agent := range agents {
		if dialectOf(agent) == nil || eventSources[agent] == "" || toolSources[agent] == "" {
			t.Errorf("%s: no dialect or source", agent)
		}
		seen := map[string]bool{}
		for _, r := range eventTable {
			if n := r.Names[c]; n != "" {
				if seen[n] {
					t.Errorf("%s names two moments %s", agent, n)
				}
				seen[n] = true
				if eventOf(agent, n) != r.Event || eventName(agent, r.Event) != n {
					t.Errorf("%s %s does not map back", agent, n)
				}
			}
		}
	}
	for _, n := range eventNotes {
		if eventName(n.Agent, n.Event) == "" || n.Source == "" {
			t.Errorf("note for %s %s: no such event or no source", n.Agent, n.Event)
		}
	}
}

// adaptedHandler is the handler want as it is written for res's target:
// where the target has an adapter, its command runs through it (the
// source's event, the line as one word) and the hook is named for it.
func adaptedHandler(t *testing.T, res *Result, hooks string, want map[string]any) map[string]any {
	t.Helper()
	if adapterFor(res.From, res.To) == nil || want["type"] != TypeCommand {
		return want
	}
	var src map[string]any
	if err := json.Unmarshal([]byte(hooks), &src); err != nil || len(src) != 1 {
		t.Fatalf("one event: %v %s", err, hooks)
	}
	event := slices.Collect(maps.Keys(src))[0]
	i := slices.IndexFunc(res.Files, func(f File) bool { return f.Role == "adapter" })
	if i < 0 {
		t.Fatalf("no adapter written for %s: %v", res.To, res.Files)
	}
	ref := layoutOf(res.To, res.Layout, "").Ref(res.Files[i].Path)
	out := maps.Clone(want)
	key := "command"
	if res.To == CopilotCLI {
		key = "bash"
	}
	out[key] = "sh " + ref + " " + event + " " + quoteArg(want[key].(string))
	if dialectOf(res.To).reads(fieldName) {
		out["name"] = want[key]
	}
	return out
}

func TestMapping(t *testing.T) {
	tests := []struct {
		name  string
		hooks string
		to    string
		event string // the target's event
		want  map[string]any
		// matcher is the group's (or Copilot CLI's handler's) matcher
		matcher string
		codes   []string
	}{
		{"bash to codex", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}`,
			Codex, "PreToolUse", map[string]any{"type": "command", "command": "true"}, "Bash", nil},
		{"bash to gemini", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}`,
			GeminiCLI, "BeforeTool", map[string]any{"type": "command", "command": "true", "timeout": 600000.0}, "^run_shell_command$", nil},
		{"bash to copilot", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 30}]}]}`,
			CopilotCLI, "PreToolUse", map[string]any{"type": "command", "matcher": "bash", "bash": "true", "timeoutSec": 30.0}, "bash", nil},
		{"edit or write to qwen", `{"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "true", "timeout": 60}]}]}`,
			QwenCode, "PostToolUse", map[string]any{"type": "command", "command": "true", "timeout": 60.0}, "edit|write_file", nil},
		{"edit to codex is apply_patch", `{"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "true"}]}]}`,
			Codex, "PostToolUse", map[string]any{"type": "command", "command": "true"}, "apply_patch", []string{CodeEventDiffers, CodeMatcher}},
		{"prompt submit to gemini", `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true", "timeout": 60}]}]}`,
			GeminiCLI, "BeforeAgent", map[string]any{"type": "command", "command": "true", "timeout": 60000.0}, "", nil},
		{"claude's default timeout kept for gemini", `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]}`,
			GeminiCLI, "BeforeAgent", map[string]any{"type": "command", "command": "true", "timeout": 600000.0}, "", nil},
		{"stop to copilot", `{"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 30}]}]}`,
			CopilotCLI, "Stop", map[string]any{"type": "command", "bash": "true", "timeoutSec": 30.0}, "", nil},
		{"prompt handler to qwen", `{"Stop": [{"hooks": [{"type": "prompt", "prompt": "Done?", "model": "m"}]}]}`,
			QwenCode, "Stop", map[string]any{"type": "prompt", "prompt": "Done?", "model": "m", "timeout": 30.0}, "", nil},
		{"http handler to qwen", `{"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/x", "timeout": 60}]}]}`,
			QwenCode, "Stop", map[string]any{"type": "http", "url": "http://127.0.0.1:9/x", "timeout": 60.0}, "", nil},
		{"if rule left out", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]}]}`,
			Codex, "PreToolUse", map[string]any{"type": "command", "command": "true"}, "Bash", []string{CodeIf}},
		{"if rule kept for claude", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]}]}`,
			ClaudeCode, "PreToolUse", map[string]any{"type": "command", "command": "true", "if": "Bash(git *)"}, "Bash", nil},
		{"a tool codex lacks is left of the matcher", `{"PreToolUse": [{"matcher": "Read|Bash", "hooks": [{"type": "command", "command": "true"}]}]}`,
			Codex, "PreToolUse", map[string]any{"type": "command", "command": "true"}, "Bash", []string{CodeMatcher}},
		{"a regex is the tools it matches", `{"PreToolUse": [{"matcher": "^(Ba|Wri)", "hooks": [{"type": "command", "command": "true", "timeout": 30}]}]}`,
			CopilotCLI, "PreToolUse", map[string]any{"type": "command", "matcher": "bash|create", "bash": "true", "timeoutSec": 30.0}, "bash|create", []string{CodeMatcher}},
		{"an unknown tool is kept as written", `{"PreToolUse": [{"matcher": "mcp__github__.*", "hooks": [{"type": "command", "command": "true"}]}]}`,
			Codex, "PreToolUse", map[string]any{"type": "command", "command": "true"}, "mcp__github__.*", []string{CodeMatcher}},
		{"session sources to codex", `{"SessionStart": [{"matcher": "startup|resume", "hooks": [{"type": "command", "command": "true"}]}]}`,
			Codex, "SessionStart", map[string]any{"type": "command", "command": "true"}, "startup|resume", nil},
		{"copilot reads no session source", `{"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "true", "timeout": 30}]}]}`,
			CopilotCLI, "SessionStart", map[string]any{"type": "command", "bash": "true", "timeoutSec": 30.0}, "", []string{CodeMatcher}},
		{"timeout in milliseconds for gemini", `{"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 2}]}]}`,
			GeminiCLI, "AfterAgent", map[string]any{"type": "command", "command": "true", "timeout": 2000.0}, "", nil},
		{"qwen reads 1000 or more as milliseconds", `{"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 1200}]}]}`,
			QwenCode, "Stop", map[string]any{"type": "command", "command": "true", "timeout": 1200000.0}, "", nil},
		{"args quoted into the line", `{"Stop": [{"hooks": [{"type": "command", "command": "/usr/bin/printf", "args": ["a b", "c"]}]}]}`,
			Codex, "Stop", map[string]any{"type": "command", "command": "/usr/bin/printf 'a b' c"}, "", nil},
		{"post tool use to gemini fires on failures too", `{"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 60}]}]}`,
			GeminiCLI, "AfterTool", map[string]any{"type": "command", "command": "true", "timeout": 60000.0}, "^run_shell_command$", []string{CodeEventDiffers}},
		{"qwen fires its prompt event more often", `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true", "timeout": 60}]}]}`,
			QwenCode, "UserPromptSubmit", map[string]any{"type": "command", "command": "true", "timeout": 60.0}, "", []string{CodeEventDiffers}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Convert(read(t, project(t, settings(tc.hooks))), tc.to, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Written != 1 || res.Left != 0 {
				t.Fatalf("written %d, left %d: %v", res.Written, res.Left, res.Diagnostics)
			}
			h, m := firstHandler(t, written(t, res), tc.event, tc.to == CopilotCLI)
			want := adaptedHandler(t, res, tc.hooks, tc.want)
			for k, v := range want {
				if h[k] != v {
					t.Errorf("%s = %v, want %v (handler %v)", k, h[k], v, h)
				}
			}
			if len(h) != len(want) {
				t.Errorf("handler %v, want exactly %v", h, want)
			}
			if m != tc.matcher {
				t.Errorf("matcher %q, want %q", m, tc.matcher)
			}
			if got := codes(res.Diagnostics); !slices.Equal(got, tc.codes) {
				t.Errorf("codes %v, want %v: %v", got, tc.codes, res.Diagnostics)
			}
		})
	}
}

// TestLeftOut: each thing that cannot carry over is named at the source's
// position, and its hook is not written.
func TestLeftOut(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		to    string
		code  string
		line  int
	}{
		{"an event the target lacks", settings(`{
  "PostToolBatch": [{"hooks": [{"type": "command", "command": "true"}]}]}`), Codex, CodeNoEvent, 2},
		{"a prompt handler codex does not run", settings(`{
  "Stop": [{"hooks": [
    {"type": "prompt", "prompt": "Done?"}]}]}`), Codex, CodeType, 3},
		{"an agent handler", settings(`{"Stop": [{"hooks": [{"type": "agent", "prompt": "check"}]}]}`), QwenCode, CodeType, 1},
		{"an http handler gemini does not run", settings(`{"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9"}]}]}`), GeminiCLI, CodeType, 1},
		{"if on an event claude never evaluates it on", settings(`{"Stop": [{"hooks": [{"type": "command", "command": "true", "if": "Bash(x)"}]}]}`),
			Codex, CodeIf, 1},
		{"a tool the target lacks", settings(`{"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "true"}]}]}`),
			Codex, CodeNoTool, 1},
		{"a skill's hook", map[string]string{".claude/skills/rel/SKILL.md": "---\nname: rel\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: \"true\"\n---\n"},
			GeminiCLI, CodeSkillScoped, 6},
		{"post tool batch is qwen's only", settings(`{"PostToolBatch": [{"hooks": [{"type": "command", "command": "true"}]}]}`), CopilotCLI, CodeNoEvent, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Convert(read(t, project(t, tc.files)), tc.to, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Written != 0 || res.Left != 1 {
				t.Fatalf("written %d, left %d", res.Written, res.Left)
			}
			if len(written(t, res)) != 0 {
				t.Errorf("hooks written: %s", res.Files[0].Data)
			}
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != tc.code || res.Diagnostics[0].Line != tc.line ||
				res.Diagnostics[0].Severity != diag.Warning {
				t.Errorf("diagnostics %v, want one %s warning on line %d", res.Diagnostics, tc.code, tc.line)
			}
		})
	}
}

// TestScripts: what a script does that the target reads otherwise is named
// at the script's line and column; the scripts are copied with their modes
// and the command names them where they go.
func TestScripts(t *testing.T) {
	scripts := map[string]string{
		"hooks/nested.sh":   "#!/bin/sh\n# hookSpecificOutput in a comment is no answer\nprintf '%s\\n' '{\"hookSpecificOutput\": {\"additionalContext\": \"x\"}}'\n",
		"hooks/top.sh":      "#!/bin/sh\necho '{\"additionalContext\": \"x\"}'\n",
		"hooks/deny.sh":     "#!/bin/sh\necho '{\"hookSpecificOutput\": {\"permissionDecision\": \"deny\"}}'\n",
		"hooks/exit2.sh":    "#!/bin/sh\necho no >&2\nexit 2\n",
		"hooks/reads.sh":    "#!/bin/sh\ngrep -q '\"transcript_path\"' && test \"$T\" = \"Bash\"\n",
		"hooks/env.sh":      "#!/bin/sh\ncd \"$CLAUDE_PLUGIN_ROOT\" && true\n",
		"hooks/plain.sh":    "#!/bin/sh\necho 'The build uses make.'\n",
		"hooks/modified.sh": "#!/bin/sh\necho '{\"modifiedArgs\": {}}'\n",
		"hooks/edits.sh":    "#!/bin/sh\ngrep -q '\"tool_name\":\"Edit\"' && echo '{\"decision\": \"block\", \"reason\": \"x\"}'\n",
	}
	hooks := `{"hooks": {
  "PostToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/nested.sh"},
    {"type": "command", "command": "sh ${CLAUDE_PLUGIN_ROOT}/hooks/top.sh"},
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/reads.sh"},
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/env.sh"},
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/modified.sh"},
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/edits.sh"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh\""},
    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/exit2.sh"}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/plain.sh"}]}]
}}`
	files := map[string]string{".claude-plugin/plugin.json": `{"name": "p"}`, "hooks/hooks.json": hooks}
	for p, s := range scripts {
		files[p] = s
	}
	set := read(t, project(t, files))
	type at struct {
		file string
		line int
		code string
	}
	tests := []struct {
		to   string
		want []at
	}{
		// through the adapter the hooks read Claude Code's input and their
		// answers reach the agent as it reads them: what is left is what
		// the agent never sends, and a variable of a plugin
		{CopilotCLI, []at{
			{"hooks/env.sh", 2, CodeEnv},
			{"hooks/reads.sh", 2, CodeStdinKey},
		}},
		{GeminiCLI, []at{
			{"hooks/env.sh", 2, CodeEnv},
			{"hooks/hooks.json", 0, CodeEventDiffers},
			{"hooks/reads.sh", 2, CodeStdinKey},
		}},
		// no adapter: a comparison with a tool Codex names otherwise is an
		// error (the hook would not do what it does)
		{Codex, []at{
			{"hooks/edits.sh", 2, CodeToolName},
			{"hooks/env.sh", 2, CodeEnv},
			{"hooks/hooks.json", 0, CodeEventDiffers},
			{"hooks/modified.sh", 2, CodeOutputField},
			{"hooks/reads.sh", 2, CodeStdinKey},
			{"hooks/top.sh", 2, CodeOutputField},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.to, func(t *testing.T) {
			res, err := Convert(set, tc.to, Options{Layout: LayoutProject})
			if err != nil {
				t.Fatal(err)
			}
			var got []at
			for _, d := range res.Diagnostics {
				if d.File == "hooks/hooks.json" {
					d.Line = 0 // one per PostToolUse handler
				}
				got = append(got, at{d.File, d.Line, d.Code})
			}
			for _, d := range res.Diagnostics {
				if (d.Severity == diag.Error) != (d.Code == CodeToolName) {
					t.Errorf("%s: %s, want an error only for a tool name the target never sends: %v", d.Code, d.Severity, d)
				}
			}
			slices.SortFunc(got, func(a, b at) int { return strings.Compare(a.file+a.code, b.file+b.code) })
			got = slices.Compact(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v\nwant %v\n%v", got, tc.want, res.Diagnostics)
			}
			lay := layoutOf(tc.to, LayoutProject, set.Name)
			scriptsWritten := 0
			for _, f := range res.Files {
				if f.Role != "script" {
					continue
				}
				scriptsWritten++
				if f.Mode&0o111 == 0 || !strings.HasPrefix(f.Path, lay.Scripts+"/") || string(f.Data) != scripts[f.From] {
					t.Errorf("script %s (%o) from %s", f.Path, f.Mode, f.From)
				}
				named := lay.Ref(f.Path)
				if adapterFor(ClaudeCode, tc.to) != nil {
					named = claudeRef(false, f.Path)
				}
				ref, _ := json.Marshal(named)
				if !strings.Contains(string(res.Files[0].Data), strings.Trim(string(ref), `"`)) {
					t.Errorf("no command names %s", named)
				}
			}
			if scriptsWritten != len(scripts) {
				t.Errorf("%d scripts written, want %d", scriptsWritten, len(scripts))
			}
		})
	}
}

func TestSourceWithErrors(t *testing.T) {
	root := project(t, map[string]string{".claude/settings.json": `{"hooks": {"Stop": [`})
	_, ds, err := Read(context.Background(), ClaudeCode, root, ReadOptions{})
	var se *SourceError
	if !errors.Is(err, ErrInvalidSource) || !errors.As(err, &se) || !diag.HasErrors(ds) || se.Diagnostics[0].File != ".claude/settings.json" {
		t.Fatalf("err %v, diagnostics %v", err, ds)
	}
	if _, _, err := Read(context.Background(), "droid", root, ReadOptions{}); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("unknown source: %v", err)
	}
	if _, err := Convert(&Set{}, "droid", Options{}); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("unknown target: %v", err)
	}
}

func TestDetect(t *testing.T) {
	if got := Detect(project(t, settings(`{}`))); got != ClaudeCode {
		t.Errorf("a Claude Code project: %q", got)
	}
	if got := Detect(project(t, map[string]string{"README.md": "x"})); got != "" {
		t.Errorf("a folder without hooks: %q", got)
	}
}
