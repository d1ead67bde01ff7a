package cmdhook

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
)

// appendHook appends its tag to the user input it reads on stdin: the
// chain's order and its chaining show in the final user message.
func appendHook(tag string) string {
	return `  - command: "sed -n 's/.*\"user_input\":\"\\([^\"]*\\)\".*/{\"user_input\":\"\\1 ` + tag + `\"}/p'"` + "\n"
}

func TestChainOrderAndChaining(t *testing.T) {
	userFile := filepath.Join(t.TempDir(), "user-hooks.yaml")
	root := writeTree(t, map[string]string{
		ProjectFile:                "pre_send_message:\n" + appendHook("project1") + appendHook("project2"),
		"b-skill/hooks/hooks.yaml": "pre_send_message:\n" + appendHook("b"),
		"a-skill/hooks/hooks.yaml": "pre_send_message:\n" + appendHook("a"),
		"off/hooks/hooks.yaml":     "pre_send_message:\n" + appendHook("off"),
	})
	writeFile(t, userFile, "pre_send_message:\n"+appendHook("user"))
	sc := parseScenario(t, `
enable_tools: false
enabled_skills: [a-skill, b-skill]
requests:
  - user: start
    reply: ok
`)
	tr, _, err := simulate(t, root, sc, func(o *Options) { o.UserFile = userFile })
	if err != nil {
		t.Fatal(err)
	}
	got := tr.CallMessages(0)[0].Content
	if want := "start user project1 project2 a b"; got != want {
		t.Errorf("user input %q, want %q", got, want)
	}
	var sources []string
	for _, hc := range callsOf(tr, "pre_send_message") {
		sources = append(sources, hc.Source)
	}
	want := []string{filepath.ToSlash(userFile) + ":2", ".jcli/hooks.yaml:2", ".jcli/hooks.yaml:3", "a-skill/hooks/hooks.yaml:2", "b-skill/hooks/hooks.yaml:2"}
	if !slices.Equal(sources, want) {
		t.Errorf("sources %q, want %q", sources, want)
	}
}

// TestSkillEnabledPerRequest: a skill's hooks run only in the requests
// that enable it.
func TestSkillEnabledPerRequest(t *testing.T) {
	root := writeTree(t, map[string]string{"guard/hooks/hooks.yaml": "pre_send_message:\n" + appendHook("guarded")})
	sc := parseScenario(t, `
enable_tools: false
enabled_skills: []
requests:
  - user: one
    reply: ok
  - user: two
    reply: ok
    enabled_skills: [guard]
`)
	tr, _, err := simulate(t, root, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(callsOf(tr, "pre_send_message")); n != 1 {
		t.Errorf("%d invocations, want 1 (request 2 only)", n)
	}
	if tr.Requests[1].User != "two" || !hasMessage(tr.CallMessages(1), "user", "two guarded") {
		t.Errorf("request 2: %v", tags(tr.CallMessages(1)))
	}
}

// TestStopEndsChain: after a hook stops the request or skips the tool the
// rest of the chain does not run (and is not recorded).
func TestStopEndsChain(t *testing.T) {
	for _, tt := range []struct{ event, out, sc string }{
		{"pre_llm_request", `{"action":"stop"}`, direct},
		{"pre_tool_execution", `{"action":"skip"}`, full},
	} {
		t.Run(tt.event, func(t *testing.T) {
			yaml := tt.event + ":\n  - command: \"echo '" + strings.ReplaceAll(tt.out, `"`, `\"`) + "'\"\n  - command: \"echo '{}'\"\n"
			tr := run(t, yaml, parseScenario(t, tt.sc))
			calls := callsOf(tr, tt.event)
			for _, hc := range calls {
				if hc.Source == ".jcli/hooks.yaml:3" {
					t.Errorf("the second hook ran: %+v", hc)
				}
			}
			if len(calls) == 0 {
				t.Fatal("no invocation")
			}
		})
	}
}

func TestFilters(t *testing.T) {
	tests := []struct {
		name   string
		filter string
		want   int // invocations of pre_tool_execution in the full scenario (read_file ×2, run_command ×1)
	}{
		{"none", "", 3},
		{"tool_name", "{tool_name: read_file}", 2},
		{"tool_name no match", "{tool_name: Bash}", 0},
		{"tool_matcher", `{tool_matcher: "Bash|run_command"}`, 1},
		{"tool_matcher two", `{tool_matcher: "read_file|run_command"}`, 3},
		{"tool_name wins over tool_matcher", `{tool_name: run_command, tool_matcher: read_file}`, 1},
		{"model_prefix", `{model_prefix: gpt-4}`, 3},
		{"model_prefix no match", `{model_prefix: claude}`, 0},
		{"AND", `{tool_name: read_file, model_prefix: claude}`, 0},
		{"AND both match", `{tool_name: read_file, model_prefix: gpt}`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			yaml := "pre_tool_execution:\n  - command: \"echo '{}'\"\n"
			if tt.filter != "" {
				yaml += "    filter: " + tt.filter + "\n"
			}
			root := writeTree(t, map[string]string{ProjectFile: yaml})
			// As seed 001 describes (a model_prefix at pre_tool_execution
			// filters by the model); TestHostBehaviourRows has jcli's code.
			tr, h, err := simulate(t, root, parseScenario(t, full), func(o *Options) { o.Mode = hostmode.Document })
			if err != nil {
				t.Fatal(err)
			}
			if n := len(callsOf(tr, "pre_tool_execution")); n != tt.want {
				t.Errorf("%d invocations, want %d", n, tt.want)
			}
			runs := 0
			for _, m := range h.Metrics() {
				runs += m.Runs
			}
			if runs != tt.want {
				t.Errorf("metrics: %d runs", runs)
			}
		})
	}
}

// TestModelPrefixOnLLMEvents: model_prefix filters every event by the model.
func TestModelPrefixOnLLMEvents(t *testing.T) {
	yaml := "pre_llm_request:\n  - command: \"echo '{}'\"\n    filter: {model_prefix: mock}\n  - command: \"echo '{}'\"\n    filter: {model_prefix: gpt}\n"
	tr := run(t, yaml, parseScenario(t, direct))
	c := callsOf(tr, "pre_llm_request")
	if len(c) != 1 || c[0].Source != ".jcli/hooks.yaml:2" {
		t.Errorf("calls %+v", c)
	}
}

func TestMetrics(t *testing.T) {
	root := writeTree(t, map[string]string{ProjectFile: `
pre_llm_request:
  - {name: good, command: "echo '{}'"}
  - {name: bad, command: "exit 1", on_error: abort}
  - {name: never, command: "echo '{}'"}
`})
	_, h, err := simulate(t, root, parseScenario(t, direct), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]engine.HookMetric{}
	for _, m := range h.Metrics() {
		got[m.Hook] = m
	}
	if m := got["good"]; m.Runs != 1 || m.Successes != 1 || m.Failures != 0 || m.TotalMS <= 0 || m.System != "command" || m.Event != "pre_llm_request" {
		t.Errorf("good: %+v", m)
	}
	if m := got["bad"]; m.Runs != 1 || m.Failures != 1 {
		t.Errorf("bad: %+v", m)
	}
	if m := got["never"]; m.Runs != 0 || m.Skips != 1 {
		t.Errorf("never: %+v", m)
	}
}

func TestNotTrusted(t *testing.T) {
	root := writeTree(t, map[string]string{ProjectFile: "stop:\n  - command: \"echo '{}'\"\n"})
	if _, err := New(Options{Root: root}); !errors.Is(err, ErrNotTrusted) {
		t.Errorf("err = %v, want ErrNotTrusted", err)
	}
}

// fakeCompleter records what llm hooks ask and answers from a list.
type fakeCompleter struct {
	answers []string
	asked   []string
	models  []string
	block   bool
}

func (f *fakeCompleter) Complete(ctx context.Context, model, prompt string) (string, error) {
	f.asked = append(f.asked, prompt)
	f.models = append(f.models, model)
	if f.block {
		<-ctx.Done()
		return "", ctx.Err()
	}
	a := f.answers[min(len(f.asked)-1, len(f.answers)-1)]
	if a == "ERROR" {
		return "", errors.New("provider failed")
	}
	return a, nil
}

func TestLLMHooks(t *testing.T) {
	const reviewer = `
pre_tool_execution:
  - name: reviewer
    type: llm
    prompt: "Is {{tool_name}} with {{tool_arguments}} safe for {{model}} at {{event}}?"
    filter: {tool_matcher: "run_command"}
`
	t.Run("scripted answers", func(t *testing.T) {
		sc := parseScenario(t, full+"hook_answers:\n  reviewer: ['{\"action\": \"skip\"}']\n")
		tr := run(t, reviewer, sc)
		c := callsOf(tr, "pre_tool_execution")
		if len(c) != 1 || c[0].Outcome != engine.OutcomeSkipped {
			t.Fatalf("calls %+v", c)
		}
		if in := string(c[0].Input); !strings.Contains(in, `Is run_command with {\"cmd\":\"ls missing\"} safe for gpt-4o-mini at pre_tool_execution?`) || !strings.Contains(in, "JSON object") {
			t.Errorf("input %s", in)
		}
	})
	t.Run("retry on invalid JSON", func(t *testing.T) {
		sc := parseScenario(t, full+"hook_answers:\n  reviewer: ['I think it is fine', '```json\n{\"action\": \"skip\"}\n```']\n")
		tr := run(t, reviewer, sc)
		c := callsOf(tr, "pre_tool_execution")
		if len(c) != 1 || c[0].Outcome != engine.OutcomeSkipped || len(c[0].Warnings) != 1 {
			t.Fatalf("calls %+v", c)
		}
	})
	t.Run("invalid twice is an error", func(t *testing.T) {
		sc := parseScenario(t, full+"hook_answers:\n  reviewer: nope\n")
		tr := run(t, reviewer, sc)
		if c := callsOf(tr, "pre_tool_execution"); len(c) != 1 || c[0].Outcome != engine.OutcomeError {
			t.Fatalf("calls %+v", c)
		}
	})
	t.Run("no scripted answer", func(t *testing.T) {
		tr := run(t, reviewer, parseScenario(t, full))
		if c := callsOf(tr, "pre_tool_execution"); len(c) != 1 || c[0].Outcome != engine.OutcomeError {
			t.Fatalf("calls %+v", c)
		}
	})
	t.Run("real completer, model override, retry after an error", func(t *testing.T) {
		root := writeTree(t, map[string]string{ProjectFile: reviewer + "    model: gpt-4.1\n"})
		f := &fakeCompleter{answers: []string{"ERROR", "{}"}}
		tr, _, err := simulate(t, root, parseScenario(t, full), func(o *Options) { o.Completer = f })
		if err != nil {
			t.Fatal(err)
		}
		c := callsOf(tr, "pre_tool_execution")
		if len(c) != 1 || c[0].Outcome != engine.OutcomeOK || len(f.asked) != 2 || f.models[0] != "gpt-4.1" {
			t.Fatalf("calls %+v asked %d models %v", c, len(f.asked), f.models)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		root := writeTree(t, map[string]string{ProjectFile: reviewer + "    timeout: 0.1\n"})
		f := &fakeCompleter{block: true}
		tr, _, err := simulate(t, root, parseScenario(t, full), func(o *Options) { o.Completer = f })
		if err != nil {
			t.Fatal(err)
		}
		if c := callsOf(tr, "pre_tool_execution"); len(c) != 1 || c[0].Outcome != engine.OutcomeTimeout {
			t.Fatalf("calls %+v", c)
		}
	})
}

const registering = `
name: register
system_prompt: S
tools:
  - name: register_hook
  - name: read_file
requests:
  - user: go
    rounds:
      - tool_calls:
          - name: register_hook
            arguments:
              event: pre_tool_execution
              hook: {command: "echo '{\"action\": \"skip\"}'", filter: {tool_name: read_file}}
      - tool_calls:
          - name: read_file
            arguments: {path: a}
            result: A
      - content: done
`

func TestRegisterHook(t *testing.T) {
	t.Run("registered hook runs for the rest of the session", func(t *testing.T) {
		tr := run(t, "", parseScenario(t, registering))
		reg := callsOf(tr, RegisterTool)
		if len(reg) != 1 || reg[0].Outcome != engine.OutcomeModified {
			t.Fatalf("register calls %+v", reg)
		}
		if tc := tr.Calls[1].ToolCalls[0]; tc.Status != engine.ToolResponded || tc.Result != "hook registered for pre_tool_execution" {
			t.Errorf("register_hook call %+v", tc)
		}
		if tc := tr.Calls[2].ToolCalls[0]; tc.Status != engine.ToolSkipped {
			t.Errorf("read_file %+v", tc)
		}
	})
	t.Run("invalid hook", func(t *testing.T) {
		sc := parseScenario(t, strings.Replace(registering, "event: pre_tool_execution", "event: pre_tool_exec", 1))
		tr := run(t, "", sc)
		reg := callsOf(tr, RegisterTool)
		if len(reg) != 1 || reg[0].Outcome != engine.OutcomeError || !strings.Contains(reg[0].Error, CodeUnknownEvent) {
			t.Fatalf("register calls %+v", reg)
		}
		if tc := tr.Calls[1].ToolCalls[0]; !strings.HasPrefix(tc.Result, "register_hook failed") {
			t.Errorf("result %q", tc.Result)
		}
		if tc := tr.Calls[2].ToolCalls[0]; tc.Status == engine.ToolSkipped {
			t.Errorf("an invalid hook ran")
		}
	})
	t.Run("a command nobody trusted is refused", func(t *testing.T) {
		sc := parseScenario(t, registering)
		root := writeTree(t, map[string]string{})
		h, err := New(Options{Root: root, Scenario: sc, Trusted: true})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		delete(h.trusted, `echo '{"action": "skip"}'`) // as if a real model made the call up
		tr, err := engine.Run(context.Background(), sc, noPromptHooks{}, engine.Config{Model: mockFor(sc), Handlers: []engine.Handler{h}})
		if err != nil {
			t.Fatal(err)
		}
		if reg := callsOf(tr, RegisterTool); len(reg) != 1 || reg[0].Outcome != engine.OutcomeDenied {
			t.Fatalf("register calls %+v", reg)
		}
	})
	t.Run("commands listed for trust", func(t *testing.T) {
		cmds := ScenarioCommands(parseScenario(t, registering))
		if len(cmds) != 1 || cmds[0].Event != PreToolExecution {
			t.Errorf("commands %+v", cmds)
		}
	})
}
