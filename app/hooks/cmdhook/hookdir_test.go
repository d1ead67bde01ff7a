package cmdhook

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hostmode"
)

// jcli's current format: one HOOK.yaml per hook folder, events: listing
// where it runs, retry and on_error skip|stop; any error fails the file.
func TestParseHookDir(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		events []Event
		want   []wantDiag
	}{
		{"valid", "events: [pre_tool_execution, post_tool_execution]\ncommand: ./check.sh\ntimeout: 5\nretry: 2\non_error: stop\nfilter: {tool_name: Bash}\n",
			[]Event{PreToolExecution, PostToolExecution}, nil},
		{"llm", "events: [stop]\ntype: llm\nprompt: \"check {{user_input}}\"\n", []Event{Stop}, nil},
		{"timeout zero is allowed", "events: [stop]\ncommand: \"true\"\ntimeout: 0\n", []Event{Stop}, nil},
		{"no events", "command: \"true\"\n", nil, []wantDiag{{1, 1, diag.Error, CodeMissingEvents}}},
		{"empty events", "events: []\ncommand: \"true\"\n", nil, []wantDiag{{1, 1, diag.Error, CodeMissingEvents}}},
		{"empty file", "", nil, []wantDiag{{0, 0, diag.Error, CodeMissingEvents}}},
		{"unknown event", "events: [stop, pre_tool_exec]\ncommand: \"true\"\n", nil, []wantDiag{{1, 16, diag.Error, CodeUnknownEvent}}},
		{"seed's abort is the old name", "events: [stop]\ncommand: \"true\"\non_error: abort\n", nil, []wantDiag{{3, 11, diag.Error, CodeInvalidOnError}}},
		{"bad retry fails the file", "events: [stop]\ncommand: \"true\"\nretry: -1\n", nil, []wantDiag{{3, 8, diag.Error, CodeInvalidRetry}}},
		{"unknown field", "events: [stop]\ncommand: \"true\"\ncomand: x\n", []Event{Stop}, []wantDiag{{3, 1, diag.Warning, CodeUnknownField}}},
		{"name comes from the folder", "events: [stop]\nname: other\ncommand: \"true\"\n", []Event{Stop}, []wantDiag{{2, 1, diag.Warning, CodeUnknownField}}},
		{"every problem at once", "events: [nope]\ntype: llm\nretry: x\n", nil,
			[]wantDiag{{1, 1, diag.Error, CodeMissingPrompt}, {1, 10, diag.Error, CodeUnknownEvent}, {3, 8, diag.Error, CodeInvalidRetry}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooks, ds := ParseHookDir(".jcli/hooks/guard/HOOK.yaml", "guard", []byte(tt.yaml))
			var got []wantDiag
			for _, d := range ds {
				got = append(got, wantDiag{d.Line, d.Column, d.Severity, d.Code})
				if d.File != ".jcli/hooks/guard/HOOK.yaml" || d.Message == "" {
					t.Errorf("diagnostic %+v", d)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("diagnostics %+v, want %+v\n%v", got, tt.want, ds)
			}
			var events []Event
			for _, h := range hooks {
				events = append(events, h.Event)
				if h.Name != "guard" {
					t.Errorf("hook named %q, want its folder's name", h.Name)
				}
			}
			if !slices.Equal(events, tt.events) {
				t.Errorf("events %v, want %v", events, tt.events)
			}
		})
	}
	hooks, _ := ParseHookDir("h", "guard", []byte("events: [stop]\ncommand: \"true\"\ntimeout: 2\nretry: 3\non_error: stop\n"))
	if h := hooks[0]; h.Retry != 3 || h.OnError != OnErrorStop || h.Timeout != 2*time.Second || h.Line != 1 {
		t.Errorf("hook %+v", h)
	}
}

// Both formats load side by side: the user folder's hooks/<name>/HOOK.yaml,
// the project's .jcli/hooks.yaml and .jcli/hooks/<name>/HOOK.yaml (HOOK.yml
// when there is no HOOK.yaml; example is a template), then the skills'.
func TestLoadHookDirs(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	write := func(file, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(user, "hooks.yaml"), "stop:\n  - {name: user-file, command: \"true\"}\n")
	write(filepath.Join(user, "hooks", "audit", "HOOK.yaml"), "events: [stop]\ncommand: \"true\"\n")
	write(filepath.Join(root, ".jcli", "hooks.yaml"), "stop:\n  - {name: project-file, command: \"true\"}\n")
	write(filepath.Join(root, ".jcli", "hooks", "b-guard", "HOOK.yml"), "events: [stop]\ncommand: \"true\"\n")
	write(filepath.Join(root, ".jcli", "hooks", "a-lint", "HOOK.yaml"), "events: [stop]\ncommand: \"true\"\n")
	write(filepath.Join(root, ".jcli", "hooks", "example", "HOOK.yaml"), "events: [stop]\ncommand: \"true\"\n")
	write(filepath.Join(root, ".jcli", "hooks", "broken", "HOOK.yaml"), "events: [stop]\ncommand: \"true\"\non_error: abort\n")
	write(filepath.Join(root, "skill", "hooks", "hooks.yaml"), "stop:\n  - {name: skill-file, command: \"true\"}\n")
	c, err := Load(root, LoadOptions{UserFile: filepath.Join(user, "hooks.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range c.Hooks {
		names = append(names, string(h.Level)+":"+h.Name)
	}
	want := []string{"user:user-file", "user:audit", "project:project-file", "project:a-lint", "project:b-guard", "skill:skill-file"}
	if !slices.Equal(names, want) {
		t.Errorf("chain %q, want %q", names, want)
	}
	if len(c.Diagnostics) != 1 || c.Diagnostics[0].File != ".jcli/hooks/broken/HOOK.yaml" || c.Diagnostics[0].Line != 3 {
		t.Errorf("diagnostics %+v, want the broken HOOK.yaml's on_error at line 3", c.Diagnostics)
	}
	for _, h := range c.Hooks {
		if h.Name == "a-lint" && h.Dir != filepath.Join(c.Root, ".jcli", "hooks", "a-lint") {
			t.Errorf("a-lint runs in %s, want its folder", h.Dir)
		}
	}
	// A draft of a HOOK.yaml is read instead of the file.
	c, _ = Load(root, LoadOptions{Drafts: map[string][]byte{".jcli/hooks/a-lint/HOOK.yaml": []byte("events: [pre_send_message]\ncommand: \"true\"\n")}})
	if !slices.ContainsFunc(c.Hooks, func(h Hook) bool { return h.Name == "a-lint" && h.Event == PreSendMessage }) {
		t.Errorf("the draft was not read: %+v", c.Hooks)
	}
}

// A HOOK.yaml hook runs from its folder: retry runs a failing hook again
// (each attempt a step) and on_error: stop ends the chain.
func TestHookDirRun(t *testing.T) {
	root := writeTree(t, map[string]string{
		".jcli/hooks/a-flaky/HOOK.yaml": "events: [pre_send_message]\ncommand: flaky.sh\nretry: 2\non_error: stop\n",
		// Fails twice, then succeeds: the count lives beside the script.
		".jcli/hooks/a-flaky/flaky.sh":  "#!/bin/sh\ncat >/dev/null\nn=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n\n[ $n -ge 3 ] && printf '{\"user_input\": \"fixed\"}' && exit 0\nexit 1\n",
		".jcli/hooks/b-fail/HOOK.yaml":  "events: [pre_send_message]\ncommand: \"exit 2\"\non_error: stop\n",
		".jcli/hooks/c-never/HOOK.yaml": "events: [pre_send_message]\ncommand: \"cat >/dev/null; echo '{\\\"user_input\\\": \\\"never\\\"}'\"\n",
	})
	// As seed 001 describes, the failure under stop ends the chain only;
	// jcli's code stops the request (TestHostBehaviourRows).
	tr, _, err := simulate(t, root, parseScenario(t, direct), func(o *Options) { o.Mode = hostmode.Document })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range callsOf(tr, string(PreSendMessage)) {
		got = append(got, c.Hook+":"+string(c.Outcome))
	}
	want := []string{"a-flaky:error", "a-flaky:error", "a-flaky:modified", "b-fail:error"}
	if !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	msgs := tr.CallMessages(0)
	if u := msgs[len(msgs)-1].Content; u != "fixed" {
		t.Errorf("the model reads %q, want the retried hook's user input", u)
	}
}

// jcli's RegisterHook with flat arguments, beside register_hook: register
// (retry and on_error stop accepted), list, remove; its command is listed
// for the folder's trust (jcli asks the user to confirm).
func TestRegisterHookFlat(t *testing.T) {
	sc := parseScenario(t, `
name: flat
system_prompt: S
tools:
  - name: RegisterHook
  - name: read_file
requests:
  - user: go
    rounds:
      - tool_calls:
          - name: RegisterHook
            arguments: {event: pre_tool_execution, command: "grep -q read_file && echo '{\"action\": \"skip\"}' || true", retry: 1, on_error: stop}
      - tool_calls:
          - {name: RegisterHook, arguments: {action: list}}
          - {name: read_file, arguments: {path: a}, result: A}
      - tool_calls:
          - {name: RegisterHook, arguments: {action: remove, index: 0}}
      - tool_calls:
          - {name: read_file, arguments: {path: b}, result: B}
      - content: done
`)
	if cmds := ScenarioCommands(sc); len(cmds) != 1 || cmds[0].Hook != RegisterFlatTool || cmds[0].Event != PreToolExecution {
		t.Fatalf("commands for trust %+v", cmds)
	}
	tr := run(t, "", sc)
	reg := callsOf(tr, RegisterFlatTool)
	if len(reg) != 3 || reg[0].Outcome != engine.OutcomeModified || reg[2].Outcome != engine.OutcomeModified {
		t.Fatalf("RegisterHook calls %+v", reg)
	}
	var results []string
	for _, c := range tr.Calls {
		for _, tc := range c.ToolCalls {
			results = append(results, tc.Name+":"+string(tc.Status)+":"+tc.Result)
		}
	}
	if !strings.Contains(results[0], "on_error=stop, retry=1") || !strings.Contains(results[1], "session_idx=0") {
		t.Errorf("register and list answers %q", results[:2])
	}
	if !strings.HasPrefix(results[2], "read_file:skipped") {
		t.Errorf("the registered hook did not skip read_file a: %q", results[2])
	}
	if results[4] != "read_file::B" {
		t.Errorf("read_file b after the hook was removed: %q", results[4])
	}
}
