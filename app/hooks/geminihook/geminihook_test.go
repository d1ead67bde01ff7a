package geminihook

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

func write(t testing.TB, root, rel, text string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

func bundled(t *testing.T) *profile.Profile {
	t.Helper()
	p, err := profile.NewCatalog("").NewestBundled(System)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// run plays scenario text in a project with the Gemini CLI hooks it
// declares, rendered with the bundled profile.
func run(t *testing.T, files map[string]string, scenarioText string) *engine.Trace {
	t.Helper()
	return runChecked(t, files, scenarioText, true)
}

// runChecked is run; without check, the configuration may have errors
// (what Gemini CLI does with a broken hook is the point).
func runChecked(t *testing.T, files map[string]string, scenarioText string, check bool) *engine.Trace {
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
	return hooktest.RunWith(t, Options{Config: cfg, Scenario: sc, Profile: bundled(t)}, New)
}

const shellTool = `tools:
  - {name: run_shell_command, description: Run a command., parameters: {type: object, properties: {command: {type: string}}}}
  - {name: read_file, description: Read a file., parameters: {type: object, properties: {path: {type: string}}}}
`

// messages are the last LLM call's list, role: content, with the origin of
// hook messages marked.
func messages(tr *engine.Trace) []string { return hooktest.Messages(tr, System) }

func settings(hooks string) string { return `{"hooks": ` + hooks + `}` }

func cmd(event, command string) string {
	b, _ := json.Marshal(command)
	return `"` + event + `": [{"hooks": [{"type": "command", "command": ` + string(b) + `}]}]`
}

// TestWhereTheModelReadsIt: each answer reaches the model where Gemini CLI
// 0.61 puts it (its code, the bundled profile; docs/gemini-cli-hooks.md).
func TestWhereTheModelReadsIt(t *testing.T) {
	ctx := func(c string) string {
		return `echo '{"hookSpecificOutput": {"additionalContext": "` + c + `"}}'`
	}
	guard := "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo 'rm is blocked' >&2; exit 2;; esac\n"
	deny := "#!/bin/sh\ncase \"$(cat)\" in *'rm -rf'*) echo '{\"decision\": \"deny\", \"reason\": \"not here\"}';; esac\n"
	rounds := shellTool + `enable_tools: true
requests:
  - user: clean up
    rounds:
      - tool_calls: [{name: run_shell_command, arguments: {command: "rm -rf build"}, result: removed}]
      - tool_calls: [{name: run_shell_command, arguments: {command: ls}, result: "a b"}]
      - content: done
`
	cases := []struct {
		name  string
		hooks string
		files map[string]string
		want  []string // substrings of the last call's list, in order
	}{
		{"SessionStart context prefixes the prompt (split off before it), angles escaped",
			cmd("SessionStart", ctx("<b>ss</b>")), nil,
			[]string{"hook user: <hook_context>&lt;b&gt;ss&lt;/b&gt;</hook_context>", "user: clean up"}},
		{"BeforeAgent contexts are one part after the prompt",
			`"BeforeAgent": [{"hooks": [{"type": "command", "command": "` + strings.ReplaceAll(ctx("one"), `"`, `\"`) + `"}, {"type": "command", "command": "` + strings.ReplaceAll(ctx("two"), `"`, `\"`) + `"}]}]`, nil,
			[]string{"user: clean up", "hook user: <hook_context>one\ntwo</hook_context>"}},
		{"BeforeTool exit 2 blocks with stderr", cmd("BeforeTool", "./.gemini/hooks/guard.sh"),
			map[string]string{".gemini/hooks/guard.sh": guard},
			[]string{"tool: Tool execution blocked: rm is blocked", "tool: a b"}},
		{"BeforeTool decision deny", cmd("BeforeTool", "./.gemini/hooks/deny.sh"),
			map[string]string{".gemini/hooks/deny.sh": deny},
			[]string{"tool: Tool execution blocked: not here"}},
		{"AfterTool context is appended to the result", cmd("AfterTool", ctx("after")), nil,
			[]string{"tool: a b\n\n<hook_context>after</hook_context>"}},
		{"plain stdout never reaches the model", cmd("BeforeAgent", "echo plain words"), nil,
			[]string{"user: clean up", "assistant: "}},
		{"exit 1 is a warning, not a block", cmd("BeforeTool", "echo no >&2; exit 1"), nil,
			[]string{"tool: removed", "tool: a b"}},
		{"a missing script blocks every tool call (bash exits 127)", cmd("BeforeTool", "./.gemini/hooks/missing.sh"), nil,
			[]string{"tool: Tool execution blocked: bash: line 1: ./.gemini/hooks/missing.sh: No such file or directory"}},
		{"BeforeTool rewrites the input: Gemini CLI says so in the result",
			cmd("BeforeTool", `echo '{"hookSpecificOutput": {"tool_input": {"command": "ls -a"}}}'`), nil,
			[]string{"tool: removed\n\n[System] Tool input parameters were modified by a hook before execution."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{".gemini/settings.json": settings("{" + c.hooks + "}")}
			maps.Copy(files, c.files)
			tr := runChecked(t, files, rounds, !strings.Contains(c.name, "missing"))
			hooktest.InOrder(t, messages(tr), c.want...)
		})
	}
}

// TestModelHooks: BeforeModel rewrites the request or answers in the
// model's place, BeforeToolSelection restricts the tools offered,
// AfterModel edits the answer — on the LLM call the simulator makes.
func TestModelHooks(t *testing.T) {
	sc := shellTool + `enable_tools: true
requests:
  - user: hello
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a}, result: text}]
      - content: the model's answer
`
	t.Run("BeforeModel answers with decision deny and llm_response", func(t *testing.T) {
		hook := `echo '{"decision": "deny", "reason": "cached", "hookSpecificOutput": {"llm_response": {"candidates": [{"content": {"role": "model", "parts": ["from the hook"]}}]}}}'`
		tr := run(t, map[string]string{".gemini/settings.json": settings("{" + cmd("BeforeModel", hook) + "}")}, sc)
		if tr.Requests[0].Reply != "from the hook" || tr.Calls[0].AnsweredBy == "" {
			t.Errorf("reply %q, answered by %q", tr.Requests[0].Reply, tr.Calls[0].AnsweredBy)
		}
	})
	t.Run("llm_response without deny is ignored", func(t *testing.T) {
		hook := `echo '{"hookSpecificOutput": {"llm_response": {"candidates": [{"content": {"role": "model", "parts": ["x"]}}]}}}'`
		tr := run(t, map[string]string{".gemini/settings.json": settings("{" + cmd("BeforeModel", hook) + "}")}, sc)
		if tr.Requests[0].Reply != "the model's answer" {
			t.Errorf("reply %q", tr.Requests[0].Reply)
		}
	})
	t.Run("BeforeModel rewrites the model and the text turns", func(t *testing.T) {
		hook := `echo '{"hookSpecificOutput": {"llm_request": {"model": "gemini-tiny", "messages": [{"role": "user", "content": "rewritten prompt"}]}}}'`
		tr := run(t, map[string]string{".gemini/settings.json": settings("{" + cmd("BeforeModel", hook) + "}")}, sc)
		last := tr.Calls[len(tr.Calls)-1]
		if last.Model != "gemini-tiny" || !slices.Contains(messages(tr), "hook user: rewritten prompt") {
			t.Errorf("model %q, list %q", last.Model, messages(tr))
		}
	})
	t.Run("BeforeToolSelection restricts the offer", func(t *testing.T) {
		hook := `echo '{"hookSpecificOutput": {"toolConfig": {"mode": "AUTO", "allowedFunctionNames": ["read_file"]}}}'`
		tr := run(t, map[string]string{".gemini/settings.json": settings("{" + cmd("BeforeToolSelection", hook) + "}")}, sc)
		if !slices.Equal(tr.Calls[1].WithheldTools, []string{"run_shell_command"}) {
			t.Errorf("withheld %q", tr.Calls[1].WithheldTools)
		}
	})
	t.Run("AfterModel edits the answer", func(t *testing.T) {
		hook := `#!/bin/sh
case "$(cat)" in *"the model's answer"*) echo '{"hookSpecificOutput": {"llm_response": {"candidates": [{"content": {"role": "model", "parts": ["[redacted]"]}}]}}}';; esac`
		tr := run(t, map[string]string{".gemini/settings.json": settings("{" + cmd("AfterModel", "./.gemini/hooks/r.sh") + "}"),
			".gemini/hooks/r.sh": hook}, sc)
		if tr.Requests[0].Reply != "[redacted]" {
			t.Errorf("reply %q", tr.Requests[0].Reply)
		}
	})
	t.Run("AfterAgent deny sends the reason as a new prompt; BeforeAgent fires on it", func(t *testing.T) {
		stop := `#!/bin/sh
case "$(cat)" in *'"stop_hook_active":false'*) echo '{"decision": "deny", "reason": "run the tests too"}';; esac`
		hooks := "{" + cmd("AfterAgent", "./.gemini/hooks/stop.sh") + ", " + cmd("BeforeAgent", `echo '{"hookSpecificOutput": {"additionalContext": "ctx"}}'`) + "}"
		sc2 := shellTool + `enable_tools: true
requests:
  - user: hello
    rounds:
      - content: first
      - content: second
`
		tr := run(t, map[string]string{".gemini/settings.json": settings(hooks), ".gemini/hooks/stop.sh": stop}, sc2)
		got := messages(tr)
		if tr.Requests[0].Reply != "second" || !slices.Contains(got, "hook user: run the tests too") ||
			strings.Count(strings.Join(got, "\n"), "<hook_context>ctx</hook_context>") != 2 {
			t.Errorf("reply %q, list %q", tr.Requests[0].Reply, got)
		}
	})
}

// TestDiagnostics: each problem of a settings file at once, with its
// position and Gemini CLI's own consequence.
func TestDiagnostics(t *testing.T) {
	root := hooktest.Project(t, map[string]string{
		".gemini/settings.json": `{
  // Gemini CLI strips comments
  "hooksConfig": {"disabled": ["nobody"], "enable": true},
  "hooks": {
    "PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}],
    "BeforeToll": [],
    "enabled": true,
    "BeforeAgent": [{"matcher": "x", "hooks": [{"type": "prompt", "prompt": "p"}, {"type": "command"}, {"type": "command", "command": "echo hi", "timeout": 30}]}],
    "BeforeTool": [{"matcher": "(", "hooks": [{"type": "command", "command": "./missing.sh"}, {"type": "command", "command": "./plain.sh", "extra": 1}]}],
    "AfterTool": "no",
    "Notification": [{"hooks": [{"type": "command", "command": "true"}]}]
  }
}`,
		"plain.sh": "#!/bin/sh\necho blocked >&2\nexit 1\n",
	})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range cfg.Diagnostics {
		got = append(got, d.Code)
		if d.File != ProjectSettings || d.Line == 0 || d.Column == 0 {
			t.Errorf("no position: %+v", d)
		}
	}
	want := []string{CodeDisabledUnknown, CodeUnknownField, CodeOtherAgent, CodeUnknownEvent, CodeConfigField, CodeMatcherIgnored,
		CodeUnknownType, CodeUnknownField, CodeShape, CodePlainStdout, CodeTimeoutMS, CodeBadMatcher, CodeMissingScript, CodeExit1Guard, CodeUnknownField,
		CodeShape, CodeNotSimulated}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("codes\n got %q\nwant %q\n%+v", got, want, cfg.Diagnostics)
	}
}

// TestSyntaxError: a file Gemini CLI cannot parse is one error at the
// place it fails.
func TestSyntaxError(t *testing.T) {
	root := hooktest.Project(t, map[string]string{".gemini/settings.json": "{\n  \"hooks\": {\n    \"BeforeTool\": [\n  }\n"})
	cfg, _ := Load(root, LoadOptions{})
	if len(cfg.Diagnostics) != 1 || cfg.Diagnostics[0].Code != CodeSyntax || cfg.Diagnostics[0].Line != 4 {
		t.Errorf("%+v", cfg.Diagnostics)
	}
}

// TestHooksConfig: enabled false turns every hook off; disabled names a
// hook by name (or command); the user's file comes first.
func TestHooksConfig(t *testing.T) {
	root := hooktest.Project(t, map[string]string{
		".gemini/settings.json": `{"hooksConfig": {"disabled": ["quiet"]}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true", "name": "quiet"}, {"type": "command", "command": "echo '{}'"}]}]}}`,
		"user.json":             `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}`,
	})
	cfg, err := Load(root, LoadOptions{User: filepath.Join(root, "user.json")})
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, h := range cfg.Running(nil) {
		runs = append(runs, h.Command)
	}
	if !slices.Equal(runs, []string{"echo user", "echo '{}'"}) {
		t.Errorf("running %q", runs)
	}
	write(t, root, ProjectSettings, `{"hooksConfig": {"enabled": false}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}}`, 0o644)
	cfg, _ = Load(root, LoadOptions{})
	if len(cfg.Running(nil)) != 0 || !slices.ContainsFunc(cfg.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == CodeHooksDisabled }) {
		t.Errorf("enabled false: %d running, %+v", len(cfg.Running(nil)), cfg.Diagnostics)
	}
}

// TestExtension: a skill folder holding gemini-extension.json is an
// extension; its hooks/hooks.json runs while the skill is enabled, with
// ${extensionPath} filled in.
func TestExtension(t *testing.T) {
	root := hooktest.Project(t, map[string]string{
		"guard/gemini-extension.json": `{"name": "guard", "version": "1.0.0"}`,
		"guard/hooks/hooks.json":      `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "${extensionPath}/scripts/g.sh"}]}]}}`,
		"guard/scripts/g.sh":          "#!/bin/sh\nexit 0\n",
	})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks) != 1 || cfg.Hooks[0].Skill != "guard" || cfg.Hooks[0].Command != filepath.Join(root, "guard")+"/scripts/g.sh" || diag.HasErrors(cfg.Diagnostics) {
		t.Fatalf("%+v %+v", cfg.Hooks, cfg.Diagnostics)
	}
	if len(cfg.Running([]string{"other"})) != 0 || len(cfg.Running([]string{"guard"})) != 1 {
		t.Error("an extension's hooks run while its skill is enabled")
	}
	if !extension.File(root, "guard/hooks/hooks.json") || extension.File(root, "other/hooks/hooks.json") || !script(root, "guard/scripts/g.sh") {
		t.Error("file kinds")
	}
}

// TestStdin: each event's stdin keys in Gemini CLI's order.
func TestStdin(t *testing.T) {
	log := `#!/bin/sh
cat >> "$GEMINI_PROJECT_DIR/stdin.jsonl"; echo >> "$GEMINI_PROJECT_DIR/stdin.jsonl"`
	hooks := []string{}
	for _, e := range Simulated {
		hooks = append(hooks, cmd(string(e), "./log.sh"))
	}
	root := ""
	files := map[string]string{".gemini/settings.json": settings("{" + strings.Join(hooks, ",") + "}"), "log.sh": log}
	sc := shellTool + `enable_tools: true
requests:
  - user: hi
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a}, result: text}]
      - content: done
`
	root = hooktest.Project(t, files)
	cfg, _ := Load(root, LoadOptions{})
	hooktest.RunWith(t, Options{Config: cfg, Scenario: hooktest.Scenario(t, sc), Profile: bundled(t)}, New)
	data, _ := os.ReadFile(filepath.Join(root, "stdin.jsonl"))
	keys := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.Token()
		var ks []string
		for dec.More() {
			k, _ := dec.Token()
			ks = append(ks, k.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
		var ev struct {
			Event string `json:"hook_event_name"`
		}
		json.Unmarshal([]byte(line), &ev)
		keys[ev.Event] = strings.Join(ks, " ")
	}
	base := "session_id transcript_path cwd hook_event_name timestamp"
	want := map[string]string{
		"SessionStart": base + " source", "BeforeAgent": base + " prompt", "BeforeModel": base + " llm_request",
		"BeforeToolSelection": base + " llm_request", "AfterModel": base + " llm_request llm_response",
		"BeforeTool": base + " tool_name tool_input", "AfterTool": base + " tool_name tool_input tool_response",
		"AfterAgent": base + " prompt prompt_response stop_hook_active", "SessionEnd": base + " reason",
	}
	for e, w := range want {
		if keys[e] != w {
			t.Errorf("%s: %q, want %q", e, keys[e], w)
		}
	}
	// nested values are JSON objects, as gemini 0.61 sends them (seen), not
	// encoded strings: a hook reads tool_response.llmContent and
	// llm_response.candidates[0].content
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in struct {
			Event        string `json:"hook_event_name"`
			ToolResponse *struct {
				LLMContent *string `json:"llmContent"`
			} `json:"tool_response"`
			LLMResponse *struct {
				Candidates []struct {
					Content struct {
						Role string `json:"role"`
					} `json:"content"`
				} `json:"candidates"`
			} `json:"llm_response"`
		}
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Errorf("%s stdin: %v", in.Event, err)
			continue
		}
		switch in.Event {
		case "AfterTool":
			if in.ToolResponse == nil || in.ToolResponse.LLMContent == nil {
				t.Errorf("AfterTool's tool_response has no llmContent: %s", line)
			}
		case "AfterModel":
			if in.LLMResponse == nil || len(in.LLMResponse.Candidates) == 0 || in.LLMResponse.Candidates[0].Content.Role != "model" {
				t.Errorf("AfterModel's llm_response has no candidate content: %s", line)
			}
		}
	}
}

// TestContextWhereGeminiReadsNone: Gemini CLI hands the model an
// additionalContext only inside hookSpecificOutput, and only at
// SessionStart, BeforeAgent and AfterTool (seen: AfterTool's top-level
// one and BeforeModel's, nested or not, never reached the model in gemini
// 0.61 against capture). validate says so before any run, reading the
// hook's line or script; the trace's step says so after one.
func TestContextWhereGeminiReadsNone(t *testing.T) {
	cases := []struct {
		name, event, command string
		files                map[string]string
		code                 string
	}{
		{"AfterTool top level", "AfterTool", `echo '{"additionalContext": "c"}'`, nil, CodeContextTopLevel},
		{"AfterTool top level in a python script", "AfterTool", "python3 .gemini/hooks/after.py",
			map[string]string{".gemini/hooks/after.py": "import json\nprint(json.dumps({'additionalContext': 'c'}))\n"}, CodeContextTopLevel},
		{"AfterTool nested", "AfterTool", `echo '{"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "c"}}'`, nil, ""},
		{"BeforeModel top level", "BeforeModel", `echo '{"additionalContext": "c"}'`, nil, CodeContextIgnored},
		{"BeforeModel nested", "BeforeModel", `echo '{"hookSpecificOutput": {"additionalContext": "c"}}'`, nil, CodeContextIgnored},
		{"BeforeTool nested", "BeforeTool", "./.gemini/hooks/pre.sh",
			map[string]string{".gemini/hooks/pre.sh": "#!/bin/sh\necho '{\"hookSpecificOutput\": {\"additionalContext\": \"c\"}}'\n"}, CodeContextIgnored},
	}
	rounds := shellTool + `enable_tools: true
requests:
  - user: go
    rounds:
      - tool_calls: [{name: run_shell_command, arguments: {command: ls}, result: "a b"}]
      - content: done
`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{".gemini/settings.json": settings("{" + cmd(c.event, c.command) + "}")}
			maps.Copy(files, c.files)
			cfg, err := Load(hooktest.Project(t, files), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, d := range cfg.Diagnostics {
				if d.Code == CodeContextTopLevel || d.Code == CodeContextIgnored {
					codes = append(codes, d.Code)
				}
			}
			if want := []string{c.code}; c.code == "" && len(codes) > 0 || c.code != "" && !slices.Equal(codes, want) {
				t.Errorf("validate: %q, want %q", codes, c.code)
			}
			tr := run(t, files, rounds)
			warned := false
			for _, hc := range tr.HookCalls {
				for _, w := range hc.Warnings {
					warned = warned || strings.Contains(w, "additionalContext")
				}
			}
			if warned != (c.code != "") {
				t.Errorf("the trace's step warns %v, want %v", warned, c.code != "")
			}
			if c.code != "" && strings.Contains(strings.Join(messages(tr), "\n"), "c</hook_context>") {
				t.Error("the context reached the model")
			}
		})
	}
}
