package codexhook

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/ccshape"
	"hookstudio/app/hooks/hooktest"
)

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if d.Line == 0 {
			out = append(out, "NOPOS:"+d.Code)
			continue
		}
		out = append(out, d.File+":"+d.Code)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestLoadReportsEverything: each file's every problem at once, at its
// position, with Codex's own consequence: an event of another agent
// (ignored without a word), a handler type Codex does not run, a script
// that is missing or cannot run, a guard that blocks with exit 1, a path
// through $CLAUDE_PROJECT_DIR (unset in Codex), a TOML timeout that is no
// whole number (the file dropped), hooks in both files.
func TestLoadReportsEverything(t *testing.T) {
	root := hooktest.Project(t, map[string]string{
		HooksFile: `{"hooks": {
  "BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": ".codex/hooks/guard.sh"},
    {"type": "prompt"},
    {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/x.sh"},
    {"type": "command", "command": ".codex/hooks/gone.sh"}]}],
  "Stop": [{"matcher": "x", "hooks": [{"type": "command", "command": ".codex/hooks/noexec.sh"}]}],
  "SubagentStop": [{"hooks": [{"type": "command", "command": "true"}]}]
}}`,
		".codex/hooks/guard.sh":  "#!/bin/sh\necho no >&2\nexit 1\n",
		".codex/hooks/noexec.sh": "",
		ConfigFile:               "[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = \"command\"\ncommand = \"true\"\ntimeout = 1.5\n",
	})
	if err := os.Chmod(filepath.Join(root, ".codex/hooks/noexec.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".codex/config.toml:codex-both-files", ".codex/config.toml:codex-shape", ".codex/config.toml:codex-untrusted",
		".codex/hooks.json:codex-exit1-guard", ".codex/hooks.json:codex-missing-script", ".codex/hooks.json:codex-matcher-ignored",
		".codex/hooks.json:codex-no-project-dir", ".codex/hooks.json:codex-not-executable", ".codex/hooks.json:codex-not-run",
		".codex/hooks.json:codex-not-simulated", ".codex/hooks.json:codex-unknown-event", ".codex/hooks.json:codex-untrusted",
	}
	slices.Sort(want)
	if got := codes(cfg.Diagnostics); !slices.Equal(got, want) {
		t.Errorf("codes\n%q\nwant\n%q", got, want)
	}
	for _, h := range cfg.Hooks {
		if h.File == ConfigFile && h.Runs {
			t.Error("a hook of a file Codex cannot parse runs")
		}
		if h.Type == "prompt" && h.Runs {
			t.Error("Codex runs a prompt hook")
		}
	}
}

// TestTrustHash: a hook's key and hash as Codex 0.171 computes them. The
// hashes were put in a user config.toml's [hooks.state] and the real
// codex exec (without --dangerously-bypass-hook-trust) ran exactly those
// hooks and skipped an untrusted one (RealAgentCodexTrust does it again).
func TestTrustHash(t *testing.T) {
	root := hooktest.Project(t, map[string]string{HooksFile: `{"hooks": {
 "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo UPS-TRUSTED-RAN"}]}],
 "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"PRE-TRUSTED <&>\"}}'", "timeout": 30}]}]
}}`})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		PreToolUse:       "sha256:0165b51215ae6e9f838854b99ecd97d56f066f5e5bb2abab93ad97a52d60833b",
		UserPromptSubmit: "sha256:9fb80bfcb90da086ee502a6bb9eaa45a0f422b87c7f0b69f85d1c8839068f803",
	}
	for _, h := range cfg.Hooks {
		if h.Hash != want[h.Event] {
			t.Errorf("%s hash %s, want %s", h.Event, h.Hash, want[h.Event])
		}
		if k := filepath.Join(root, HooksFile) + ":" + label(h.Event) + ":0:0"; h.Key != k {
			t.Errorf("key %s, want %s", h.Key, k)
		}
	}
}

// TestTrustState: what the user's config.toml says Codex trusts, hook by
// hook and for the project.
func TestTrustState(t *testing.T) {
	root := hooktest.Project(t, map[string]string{HooksFile: `{"hooks": {
 "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo a"}, {"type": "command", "command": "echo b"}, {"type": "command", "command": "echo c"}, {"type": "command", "command": "echo d"}]}]
}}`})
	cfg, _ := Load(root, LoadOptions{})
	key := func(i int) string { return cfg.Hooks[i].Key }
	user := filepath.Join(t.TempDir(), "config.toml")
	text := "[hooks.state.\"" + key(0) + "\"]\ntrusted_hash = \"" + cfg.Hooks[0].Hash + "\"\n" +
		"[hooks.state.\"" + key(1) + "\"]\ntrusted_hash = \"sha256:old\"\n" +
		"[hooks.state.\"" + key(2) + "\"]\nenabled = false\ntrusted_hash = \"" + cfg.Hooks[2].Hash + "\"\n"
	if err := os.WriteFile(user, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(root, LoadOptions{User: user})
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[string]int{}
	for _, d := range cfg.Diagnostics {
		byLine[d.Code]++
	}
	want := map[string]int{CodeModified: 1, CodeDisabled: 1, CodeUntrusted: 1, CodeProjectUntrusted: 1}
	for code, n := range want {
		if byLine[code] != n {
			t.Errorf("%s: %d, want %d (%+v)", code, byLine[code], n, cfg.Diagnostics)
		}
	}
	if err := os.WriteFile(user, []byte(text+"[projects.\""+root+"\"]\ntrust_level = \"trusted\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ = Load(root, LoadOptions{User: user})
	for _, d := range cfg.Diagnostics {
		if d.Code == CodeProjectUntrusted {
			t.Error("a trusted project is said untrusted")
		}
	}
}

// TestRun: the hooks at their events with Codex's stdin, what the model
// reads placed by the bundled profile: context before the prompt and
// between a call and its output, a denial in Codex's words, several
// PostToolUse blocks one output, what Codex rejects as a failed hook.
func TestRun(t *testing.T) {
	root := hooktest.Project(t, map[string]string{HooksFile: `{"hooks": {
 "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "cat > ss.json; echo SESSION-CTX"}]}],
 "PreToolUse": [{"matcher": "Bash", "hooks": [
   {"type": "command", "command": "cat > pre.json; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"PRE-A\"}}'"},
   {"type": "command", "command": "input=$(cat); case \"$input\" in *rm?-rf*) echo 'no deletes' >&2; exit 2;; esac; echo plain"},
   {"type": "command", "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\"}}'"}]}],
 "PostToolUse": [{"hooks": [
   {"type": "command", "command": "cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"R1\"}'"},
   {"type": "command", "command": "cat >/dev/null; echo R2 >&2; exit 2"}]}]
}}`})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sc := hooktest.Scenario(t, `name: t
tools:
  - {name: exec_command, description: Run., parameters: {type: object, properties: {cmd: {type: string}}}}
requests:
  - user: go
    rounds:
      - tool_calls: [{name: exec_command, arguments: {cmd: "rm -rf x"}, result: "gone"}]
      - tool_calls: [{name: exec_command, arguments: {cmd: "ls"}, result: "a b"}]
      - content: done
`)
	tr := hooktest.RunWith(t, Options{Config: cfg, Scenario: sc}, New)
	got := hooktest.Said(tr)
	want := []string{"system: SESSION-CTX", "user: go",
		"system: PRE-A", "tool: Command blocked by PreToolUse hook: no deletes. Command: rm -rf x",
		"system: PRE-A", "tool: R1\n\nR2"}
	if !slices.Equal(got, want) {
		t.Errorf("messages\n%q\nwant\n%q", got, want)
	}
	var ask, plain bool
	for _, hc := range tr.HookCalls {
		ask = ask || hc.Outcome == engine.OutcomeError && strings.Contains(hc.Error, "permissionDecision:ask")
		plain = plain || len(hc.Warnings) > 0 && strings.Contains(hc.Warnings[0], "plain stdout")
	}
	if !ask || !plain {
		t.Errorf("ask is a failed hook in Codex (%v); plain PreToolUse stdout is said ignored (%v)", ask, plain)
	}
	data, err := os.ReadFile(filepath.Join(root, "pre.json"))
	if err != nil || !strings.Contains(string(data), `"tool_name":"Bash","tool_input":{"command":"ls"}`) {
		t.Errorf("PreToolUse stdin: %s %v", data, err)
	}
}

// The schema ships to editors; the validator runs in the app and CLI:
// this fails as soon as one knows an event, field or type the other does not.
func TestSchemaMatchesValidator(t *testing.T) {
	checkSchema(t, "../../../schema/codex-hooks.schema.json", &dialect)
}

func checkSchema(t *testing.T, file string, d *ccshape.Dialect) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type object struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	var s struct {
		Defs map[string]object `json:"$defs"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema %q, validator %q", what, got, want)
		}
	}
	check("events", keys(s.Defs["hooks"].Properties), sorted(d.Events()))
	check("group", keys(s.Defs["group"].Properties), sorted(d.GroupFields))
	check("handler", keys(s.Defs["handler"].Properties), sorted(d.HandlerFields))
	var typ struct {
		Enum []string `json:"enum"`
	}
	_ = json.Unmarshal(s.Defs["handler"].Properties["type"], &typ)
	check("types", typ.Enum, d.Types)
}

// TestAnswersCodexRefuses: Codex reads an answer through a schema that
// refuses it whole — a decision other than "block" where only "block" is
// one, a field it does not know, hookSpecificOutput without its
// hookEventName — and then records a failed hook ("Stop Failed" in codex
// exec) and shows none of it, its systemMessage neither (each seen in
// codex exec 0.171 against capture). What it reads stays read.
func TestAnswersCodexRefuses(t *testing.T) {
	cases := []struct {
		name, event, answer string
		outcome             engine.Outcome
		notice              string
	}{
		{"stop approve", Stop, `{"decision":"approve","systemMessage":"X"}`, engine.OutcomeError, ""},
		{"stop unknown field", Stop, `{"systemMessage":"X","foo":1}`, engine.OutcomeError, ""},
		{"stop hookSpecificOutput", Stop, `{"systemMessage":"X","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}`, engine.OutcomeError, ""},
		{"stop message", Stop, `{"systemMessage":"X"}`, engine.OutcomeOK, "X"},
		{"stop null message", Stop, `{"systemMessage":null,"reason":null}`, engine.OutcomeOK, ""},
		{"prompt approve", UserPromptSubmit, `{"decision":"approve","systemMessage":"X"}`, engine.OutcomeError, ""},
		{"prompt no event name", UserPromptSubmit, `{"systemMessage":"X","hookSpecificOutput":{"additionalContext":"c"}}`, engine.OutcomeError, ""},
		{"prompt other event name", UserPromptSubmit, `{"systemMessage":"X","hookSpecificOutput":{"hookEventName":"PostCompact","additionalContext":"c"}}`, engine.OutcomeModified, "X"},
		{"prompt unknown event name", UserPromptSubmit, `{"hookSpecificOutput":{"hookEventName":"Foo","additionalContext":"c"}}`, engine.OutcomeError, ""},
		{"prompt continue not bool", UserPromptSubmit, `{"continue":"yes"}`, engine.OutcomeError, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := hooktest.Project(t, map[string]string{HooksFile: `{"hooks": {"` + c.event + `": [{"hooks": [{"type": "command", "command": "cat >/dev/null; echo '` + strings.ReplaceAll(c.answer, `"`, `\"`) + `'"}]}]}}`})
			cfg, err := Load(root, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sc := hooktest.Scenario(t, "name: t\nrequests:\n  - user: go\n")
			tr := hooktest.RunWith(t, Options{Config: cfg, Scenario: sc}, New)
			var calls []engine.HookCall
			for _, hc := range tr.HookCalls {
				if hc.System == System {
					calls = append(calls, hc)
				}
			}
			if len(calls) != 1 {
				t.Fatalf("%d calls of the hook", len(calls))
			}
			if calls[0].Outcome != c.outcome {
				t.Errorf("outcome %s (%s), want %s", calls[0].Outcome, calls[0].Error, c.outcome)
			}
			if got := calls[0].Notice; got != c.notice {
				t.Errorf("notice %q, want %q", got, c.notice)
			}
		})
	}
}

// TestValidateAnswers: validate reads what a hook prints (its line, the
// script it runs) and says before any run what Codex refuses whole: a
// decision other than "block", a Stop hook's plain stdout.
func TestValidateAnswers(t *testing.T) {
	cases := []struct {
		name, event, command string
		script               string
		want                 []string
	}{
		{"stop approve", Stop, `echo '{"decision":"approve","systemMessage":"X"}'`, "", []string{CodeDecision}},
		{"stop approve in a python script", Stop, "python3 .codex/hooks/stop.py", "import json\nprint(json.dumps({'decision': 'approve', 'systemMessage': 'X'}))\n", []string{CodeDecision}},
		{"stop block", Stop, `echo '{"decision":"block","reason":"run the tests"}'`, "", nil},
		{"stop plain", Stop, ".codex/hooks/stop.sh", "#!/bin/sh\necho Remember to run the tests\n", []string{CodeStopNotJSON}},
		{"stop plain in node", Stop, "node .codex/hooks/stop.js", "console.log('All done');\n", []string{CodeStopNotJSON}},
		{"stop to stderr", Stop, `echo "tests first" >&2; exit 2`, "", nil},
		{"prompt allow", UserPromptSubmit, `echo '{"decision":"allow"}'`, "", []string{CodeDecision}},
		{"pre approve", PreToolUse, `echo '{"decision":"approve"}'`, "", []string{CodeDecision}},
		{"compact decision", PreCompact, `echo '{"decision":"block"}'`, "", []string{CodeDecision}},
		{"prompt plain", UserPromptSubmit, `echo Remember the tests`, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd, _ := json.Marshal(c.command)
			files := map[string]string{HooksFile: `{"hooks": {"` + c.event + `": [{"hooks": [{"type": "command", "command": ` + string(cmd) + `}]}]}}`}
			if c.script != "" {
				files[strings.Fields(c.command)[len(strings.Fields(c.command))-1]] = c.script
			}
			cfg, err := Load(hooktest.Project(t, files), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range cfg.Diagnostics {
				if d.Code == CodeDecision || d.Code == CodeStopNotJSON {
					got = append(got, d.Code)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("codes %q, want %q (%+v)", got, c.want, cfg.Diagnostics)
			}
		})
	}
}
