package copilothook

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooktest"
)

func run(t *testing.T, files map[string]string, scenarioText string, check bool) *engine.Trace {
	t.Helper()
	root := hooktest.Project(t, files)
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if check && diag.HasErrors(cfg.Diagnostics) {
		t.Fatalf("diagnostics: %+v", cfg.Diagnostics)
	}
	sc := hooktest.Scenario(t, scenarioText)
	p, err := profile.NewCatalog("").NewestBundled(System)
	if err != nil {
		t.Fatal(err)
	}
	return hooktest.RunWith(t, Options{Config: cfg, Scenario: sc, Profile: p}, New)
}

func messages(tr *engine.Trace) []string { return hooktest.Messages(tr, System) }

func file(hooks ...string) string {
	return `{"version": 1, "hooks": {` + strings.Join(hooks, ", ") + `}}`
}

func cmd(event, bash string) string {
	b, _ := json.Marshal(bash)
	return `"` + event + `": [{"type": "command", "bash": ` + string(b) + `}]`
}

const tools = `tools:
  - {name: bash, description: Run a command., parameters: {type: object, properties: {command: {type: string}}}}
  - {name: view, description: Read a file., parameters: {type: object, properties: {path: {type: string}}}}
enable_tools: true
requests:
  - user: clean up
    rounds:
      - tool_calls: [{name: bash, arguments: {command: "rm -rf build"}, result: removed}]
      - tool_calls: [{name: view, arguments: {path: x}, error: "Path does not exist"}]
      - content: done
`

// TestWhereTheModelReadsIt: each answer reaches the model where Copilot
// CLI 1.0.102 was seen putting it (the bundled profile, and this
// package's own seen renderings; docs/copilot-cli-hooks.md).
func TestWhereTheModelReadsIt(t *testing.T) {
	ctx := func(c string) string { return `echo '{"additionalContext": "` + c + `"}'` }
	cases := []struct {
		name  string
		hooks []string
		files map[string]string
		want  []string
	}{
		{"sessionStart: a message before the prompt, contexts joined", []string{`"sessionStart": [{"type": "command", "bash": "echo '{\"additionalContext\": \"one\"}'"}, {"type": "command", "bash": "echo '{\"additionalContext\": \"<b>two</b>\"}'"}]`}, nil,
			[]string{"hook user: one\n\n<b>two</b>", "user: clean up"}},
		{"userPromptSubmitted: a system_reminder after the prompt", []string{cmd("userPromptSubmitted", ctx("ups"))}, nil,
			[]string{"user: clean up", "hook user: <system_reminder>\nups\n</system_reminder>"}},
		{"preToolUse deny", []string{cmd("preToolUse", `echo '{"permissionDecision": "deny", "permissionDecisionReason": "no"}'`)}, nil,
			[]string{"tool: Denied by preToolUse hook: no"}},
		{"preToolUse exit 2", []string{cmd("preToolUse", "echo no >&2; exit 2")}, nil,
			[]string{"tool: Denied by preToolUse hook: hook exited with code 2"}},
		{"preToolUse exit 1 denies too (hook errored)", []string{cmd("preToolUse", "exit 1")}, nil,
			[]string{`tool: Denied by preToolUse hook from ".github/hooks/a.json" (hook errored)`}},
		{"a missing script denies every tool call", []string{cmd("preToolUse", "./missing.sh")}, nil,
			[]string{`tool: Denied by preToolUse hook from ".github/hooks/a.json" (hook errored)`}},
		{"preToolUse ask: nobody to ask in -p", []string{cmd("preToolUse", `echo '{"permissionDecision": "ask", "permissionDecisionReason": "sure?"}'`)}, nil,
			[]string{"tool: Denied by preToolUse hook (unable to ask user for confirmation): sure?"}},
		{"preToolUse context: a message after the result", []string{cmd("preToolUse", ctx("pre"))}, nil,
			[]string{"tool: removed", "hook user: Additional context from preToolUse hook:\npre"}},
		{"postToolUse context: appended to the result", []string{cmd("postToolUse", ctx("post"))}, nil,
			[]string{"tool: removed\n\nTool \"bash\" succeeded. Additional guidance from postToolUse hooks:\npost"}},
		{"postToolUseFailure: guidance after the result; exit 2's stderr too", []string{cmd("postToolUseFailure", "echo fix the path >&2; exit 2")}, nil,
			[]string{"tool: error: Path does not exist", "hook user: Tool \"view\" failed. Additional guidance from postToolUseFailure hooks:\nfix the path"}},
		{"Claude Code's nested answer is ignored for camelCase events", []string{cmd("userPromptSubmitted", `echo '{"hookSpecificOutput": {"additionalContext": "nested"}}'`)}, nil,
			[]string{"user: clean up", "assistant: "}},
		{"the VS Code name reads hookSpecificOutput", []string{cmd("PreToolUse", `echo '{"hookSpecificOutput": {"additionalContext": "vs"}}'`)}, nil,
			[]string{"hook user: Additional context from preToolUse hook:\nvs"}},
		{"plain stdout is ignored", []string{cmd("userPromptSubmitted", "echo plain")}, nil,
			[]string{"user: clean up", "assistant: "}},
		{"a matcher is anchored to the whole tool name", []string{`"preToolUse": [{"type": "command", "matcher": "bas", "bash": "exit 2"}]`}, nil,
			[]string{"tool: removed"}},
		// Copilot CLI's Claude-compatible mode (seen, 1.0.102): a PascalCase
		// event's matcher meets the tool's VS Code name and its own name,
		// "*" every tool; a camelCase one meets the tool's own name only
		{"PascalCase matcher Bash fires on bash", []string{`"PreToolUse": [{"type": "command", "matcher": "Bash", "bash": "echo '{\"additionalContext\": \"pc\"}'"}]`}, nil,
			[]string{"tool: removed", "hook user: Additional context from preToolUse hook:\npc"}},
		{"PascalCase matcher bash fires on bash too", []string{`"PreToolUse": [{"type": "command", "matcher": "bash", "bash": "echo '{\"additionalContext\": \"pc\"}'"}]`}, nil,
			[]string{"tool: removed", "hook user: Additional context from preToolUse hook:\npc"}},
		{"PascalCase matcher * fires on every tool", []string{`"PreToolUse": [{"type": "command", "matcher": "*", "bash": "echo '{\"additionalContext\": \"pc\"}'"}]`}, nil,
			[]string{"tool: removed", "hook user: Additional context from preToolUse hook:\npc"}},
		{"camelCase matcher Bash never fires", []string{`"preToolUse": [{"type": "command", "matcher": "Bash", "bash": "exit 2"}]`}, nil,
			[]string{"tool: removed"}},
		{"PascalCase PostToolUse reads the top level only", []string{`"PostToolUse": [{"type": "command", "bash": "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolUse\", \"additionalContext\": \"nested\"}}'"}, {"type": "command", "bash": "echo '{\"additionalContext\": \"top\"}'"}]`}, nil,
			[]string{"tool: removed\n\nTool \"bash\" succeeded. Additional guidance from postToolUse hooks:\ntop\n¶"}},
		{"userPromptSubmitted: the last hook's context", []string{`"userPromptSubmitted": [{"type": "command", "bash": "echo '{\"additionalContext\": \"one\"}'"}, {"type": "command", "bash": "echo '{\"additionalContext\": \"two\"}'"}, {"type": "command", "bash": "echo '{}'"}]`}, nil,
			[]string{"user: clean up", "hook user: <system_reminder>\ntwo\n</system_reminder>\n¶"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{".github/hooks/a.json": file(c.hooks...)}
			maps.Copy(files, c.files)
			hooktest.InOrder(t, messages(run(t, files, tools, !strings.Contains(c.name, "missing"))), c.want...)
		})
	}
}

// TestAgentStop: a block sends its reason as the next prompt, and
// userPromptSubmitted fires on it.
func TestAgentStop(t *testing.T) {
	stop := "#!/bin/sh\ncase \"$(cat)\" in *'\"stop_hook_active\":false'*) echo '{\"decision\": \"block\", \"reason\": \"run the tests\"}';; esac\n"
	files := map[string]string{".github/hooks/a.json": file(cmd("agentStop", "./stop.sh"), cmd("userPromptSubmitted", `echo '{"additionalContext": "ctx"}'`)),
		"stop.sh": stop}
	sc := `tools: [{name: bash, description: run}]
enable_tools: true
requests:
  - user: hi
    rounds:
      - content: first
      - content: second
`
	tr := run(t, files, sc, true)
	got := messages(tr)
	if tr.Requests[0].Reply != "second" || !slices.Contains(got, "hook user: run the tests") ||
		strings.Count(strings.Join(got, "\n"), "<system_reminder>\nctx\n</system_reminder>") != 2 {
		t.Errorf("reply %q, list %q", tr.Requests[0].Reply, got)
	}
}

// TestDiagnostics: each problem of a hook file at once, with its position
// and Copilot CLI's own consequence.
func TestDiagnostics(t *testing.T) {
	root := hooktest.Project(t, map[string]string{
		".github/hooks/a.json": `{"version": 2, "hooks": {
  "BeforeTool": [{"type": "command", "bash": "true"}],
  "preToolUze": [],
  "preToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "x"}]}, {"type": "command", "command": "true"},
                 {"type": "http"}, {"type": "command", "powershell": "Write-Host hi"}, {"type": "command", "bash": "./missing.sh", "timeoutSec": 0},
                 {"type": "command", "bash": "true", "matcher": "Bash|Read"}, {"type": "command", "bash": "true", "matcher": ""},
                 {"type": "command", "bash": "true", "matcher": "bash|view"}, {"type": "command", "bash": "true", "matcher": "github-mcp-server-.*"}],
  "PreToolUse": [{"type": "command", "bash": "true", "matcher": "Bash"}],
  "sessionStart": [{"type": "prompt", "prompt": "hello"}, {"type": "command", "bash": "echo hello", "matcher": "x"}],
  "userPromptSubmitted": [{"type": "command", "bash": "./nested.sh"}],
  "errorOccurred": [{"type": "command", "bash": "true"}]
}, "extra": true}`,
		".github/hooks/b.json": `{"hooks": {`,
		"nested.sh":            "#!/bin/sh\necho '{\"hookSpecificOutput\": {\"additionalContext\": \"x\"}}'\n",
	})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range cfg.Diagnostics {
		got = append(got, d.Code)
		if d.Line == 0 || d.Column == 0 {
			t.Errorf("no position: %+v", d)
		}
	}
	want := []string{CodeVersion, CodeOtherAgent, CodeUnknownEvent, CodeClaudeShape, CodeClaudeShape, CodeUnknownType, CodeNoBash, CodeMatcherNever, CodeMatcherNever,
		CodeMissingScript, CodeShape, CodePromptHook, CodeMatcherIgnored, CodePlainStdout, CodeNestedOutput, CodeNotSimulated,
		CodeUnknownField, CodeSyntax, CodeNeedsTrust}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("codes\n got %q\nwant %q\n%+v", got, want, cfg.Diagnostics)
	}
}

// TestPlugin: a skill folder holding plugin.json is a Copilot CLI plugin;
// its hooks.json runs while the skill is enabled, needs no
// --trust-folder, and the user's folder comes first.
func TestPlugin(t *testing.T) {
	root := hooktest.Project(t, map[string]string{
		"guard/plugin.json":    `{"name": "guard"}`,
		"guard/hooks.json":     file(cmd("preToolUse", "true")),
		"user/hooks/u.json":    file(cmd("preToolUse", "echo user")),
		".github/hooks/a.json": file(cmd("preToolUse", "echo repo")),
	})
	cfg, err := Load(root, LoadOptions{User: filepath.Join(root, "user", "hooks")})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, h := range cfg.Running(nil) {
		order = append(order, h.Bash)
	}
	if !slices.Equal(order, []string{"echo user", "echo repo", "true"}) {
		t.Errorf("order %q", order)
	}
	if len(cfg.Running([]string{"other"})) != 2 || !plugin.File(root, "guard/hooks.json") || plugin.File(root, "other/hooks.json") {
		t.Error("a plugin's hooks run while its skill is enabled")
	}
	// a plugin's commands run in its folder, and Copilot CLI names it by its name (seen)
	if h := cfg.Running(nil)[2]; h.dir(cfg.Root) != filepath.Join(cfg.Root, "guard") || h.origin() != "guard" {
		t.Errorf("plugin hook runs in %s, named %q", h.dir(cfg.Root), h.origin())
	}
}

// TestNotExecutable: Copilot CLI 1.0.102 adds the executable bits to the
// file a hook line's first word names before it runs the line (seen: 644
// became 755, 600 711) — a warning, not an error, and the simulator does
// the same and runs it; a script later in the line is not touched, and
// bash exits 126 on it (an error).
func TestNotExecutable(t *testing.T) {
	script := "#!/bin/sh\necho '{\"additionalContext\": \"from the script\"}'\n"
	cases := []struct {
		name, bash string
		mode       os.FileMode
		code       string
		wantMode   os.FileMode
	}{
		{"first word", "./scripts/ctx.sh", 0o644, CodeMadeExecutable, 0o755},
		{"first word quoted, with arguments", `"./scripts/ctx.sh" --quiet`, 0o600, CodeMadeExecutable, 0o711},
		{"after another program", "true && ./scripts/ctx.sh", 0o644, CodeNotExecutable, 0o644},
		{"after an assignment", "MODE=x ./scripts/ctx.sh", 0o644, CodeNotExecutable, 0o644},
		{"executable", "./scripts/ctx.sh", 0o755, "", 0o755},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := hooktest.Project(t, map[string]string{".github/hooks/a.json": file(cmd("userPromptSubmitted", c.bash)), "scripts/ctx.sh": script})
			p := filepath.Join(root, "scripts", "ctx.sh")
			if err := os.Chmod(p, c.mode); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(root, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, d := range cfg.Diagnostics {
				if d.Code == CodeMadeExecutable || d.Code == CodeNotExecutable {
					codes = append(codes, d.Code)
				}
			}
			if want := []string{c.code}; c.code == "" && len(codes) > 0 || c.code != "" && !slices.Equal(codes, want) {
				t.Errorf("codes %q, want %q", codes, c.code)
			}
			if c.code == CodeNotExecutable {
				return
			}
			sc := hooktest.Scenario(t, "name: t\nrequests:\n  - user: hi\n")
			prof, err := profile.NewCatalog("").NewestBundled(System)
			if err != nil {
				t.Fatal(err)
			}
			tr := hooktest.RunWith(t, Options{Config: cfg, Scenario: sc, Profile: prof}, New)
			if got := strings.Join(messages(tr), "\n"); !strings.Contains(got, "from the script") {
				t.Errorf("the script's context does not reach the model:\n%s", got)
			}
			fi, err := os.Stat(p)
			if err != nil || fi.Mode().Perm() != c.wantMode {
				t.Errorf("mode after the run %v, want %v", fi.Mode().Perm(), c.wantMode)
			}
		})
	}
}
