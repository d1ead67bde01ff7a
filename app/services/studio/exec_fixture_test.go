package studio

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
)

// richSet exercises what the frontend shows of executable hooks: a command
// guard that skips a tool, a before_llm hook that changes the system
// prompt for one call (hidden, then restored), a process hook's lifetime
// (start, hello, a request, a notification, exit), an answer replaced
// after the model, a failing hook, a slow one, a reused one and a
// system_message.
type richSet struct{ calls int }

func (r *richSet) Attach(cfg *engine.Config, _ registry.Run) (registry.Attached, error) {
	cfg.Handlers = append(cfg.Handlers, r)
	return r, nil
}
func (r *richSet) Active(*scenario.Scenario) bool { return true }
func (r *richSet) SkillNames(folders []string) scenario.SkillNames {
	return scenario.SkillNames{Folders: folders}
}
func (r *richSet) FolderCommands(sc *scenario.Scenario) []registry.Command {
	return r.Commands(sc)
}
func (r *richSet) Hooks() []engine.HookInfo {
	return []engine.HookInfo{
		{System: "command", Event: "pre_tool_execution", Hook: "guard", Skill: "guarded", Source: "guarded/hooks/hooks.yaml:2", Detail: "./guard.sh"},
		{System: "command", Event: "pre_llm_request", Hook: "branch", Skill: "guarded", Source: "guarded/hooks/hooks.yaml:6", Detail: "./branch.sh"},
		{System: "process", Event: "hook.before_llm", Hook: "audit", Skill: "guarded", Source: "guarded/hooks/picoclaw.json:5", Detail: "python3 audit.py"},
		{System: "command", Event: "post_llm_response", Hook: "polish", Source: ".jcli/hooks.yaml:1", Detail: "./polish.sh"},
	}
}
func (r *richSet) Commands(*scenario.Scenario) []registry.Command {
	return []registry.Command{{Source: "guarded/hooks/hooks.yaml:2", Event: "pre_tool_execution", Hook: "guard", Skill: "guarded", Command: "./guard.sh", Dir: "guarded/hooks"}}
}
func (r *richSet) Diagnostics() []diag.Diagnostic { return nil }
func (r *richSet) Metrics() []engine.HookMetric {
	return []engine.HookMetric{{System: "command", Event: "pre_tool_execution", Hook: "guard", Runs: 1, Successes: 1, TotalMS: 3}}
}
func (r *richSet) Close() error { return nil }

func raw(v any) json.RawMessage { b, _ := json.Marshal(v); return b }

func (r *richSet) Handle(_ context.Context, ev *engine.Event) error {
	zero, one := 0, 1
	switch ev.Point {
	case engine.PointSessionStart:
		ev.Record(engine.HookCall{System: "process", Event: "process.start", Hook: "audit", Notify: true, DurationMS: 4.2})
		ev.Record(engine.HookCall{System: "process", Event: "hook.hello", Hook: "audit", DurationMS: 1.1,
			Input:  raw(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "hook.hello", "params": map[string]any{"name": "audit", "version": 1, "modes": []string{"intercept"}}}),
			Output: raw(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"ok": true}})})
	case engine.PointBeforeLLM:
		if ev.Call == 0 {
			sp := "You are careful. Current git branch: main."
			ev.Apply(engine.HookCall{System: "command", Event: "pre_llm_request", Hook: "branch", ExitCode: &zero, DurationMS: 1450,
				Input:  raw(map[string]any{"event": "pre_llm_request", "model": ev.Model, "cwd": "/work/skills"}),
				Output: raw(map[string]any{"system_prompt": sp})}, engine.Effect{SystemPrompt: &sp})
			ev.Apply(engine.HookCall{System: "process", Event: "hook.before_llm", Hook: "audit", DurationMS: 0.8,
				Input:  raw(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "hook.before_llm", "params": map[string]any{"model": ev.Model}}),
				Output: raw(map[string]any{"jsonrpc": "2.0", "id": 2, "result": map[string]any{"action": "modify", "inject": "Audit: this session is recorded."}})},
				engine.Effect{Inject: []engine.NewMessage{{Role: "system", Content: "Audit: this session is recorded."}}})
		}
	case engine.PointBeforeTool:
		ev.Apply(engine.HookCall{System: "command", Event: "pre_tool_execution", Hook: "guard", Source: "guarded/hooks/hooks.yaml:2", ExitCode: &zero, DurationMS: 3.4,
			Input:  raw(map[string]any{"event": "pre_tool_execution", "tool_name": ev.Tool.Name, "tool_arguments": ev.Tool.Arguments}),
			Output: raw(map[string]any{"action": "skip", "reason": "reading a is not allowed here", "system_message": "guard skipped read_file"})},
			engine.Effect{Action: engine.ActionSkip, Reason: "reading a is not allowed here", Notice: "guard skipped read_file"})
	case engine.PointAfterLLM:
		if ev.Call == 2 {
			ans := "done (checked by polish)"
			ev.Apply(engine.HookCall{System: "command", Event: "post_llm_response", Hook: "polish", ExitCode: &zero, DurationMS: 2, Reused: true,
				Input: raw(map[string]any{"event": "post_llm_response", "assistant_output": ev.Answer}), Output: raw(map[string]any{"assistant_output": ans})},
				engine.Effect{Answer: &ans})
			ev.Record(engine.HookCall{System: "command", Event: "post_llm_response", Hook: "lint", ExitCode: &one, DurationMS: 12,
				Input: raw(map[string]any{"event": "post_llm_response"}), OutputText: "not json", Stderr: "lint: cannot parse\n", Outcome: engine.OutcomeError,
				Error: "exit status 1", Warnings: []string{"output is not JSON"}})
		}
	case engine.PointSessionEnd:
		ev.Record(engine.HookCall{System: "process", Event: "hook.runtime_event", Hook: "audit", Notify: true, DurationMS: 0.1,
			Input: raw(map[string]any{"jsonrpc": "2.0", "method": "hook.runtime_event", "params": map[string]any{"kind": "agent.turn.end"}})})
		ev.Record(engine.HookCall{System: "process", Event: "process.exit", Hook: "audit", Notify: true, DurationMS: 5, ExitCode: &zero})
	}
	return nil
}

// TestRichExecView checks what the view carries for executable hooks and,
// with HOOKSTUDIO_UPDATE_FIXTURES=1, writes it as the frontend's fixture.
func TestRichExecView(t *testing.T) {
	f := func(context.Context, ExecRequest) (ExecSet, error) { return &richSet{}, nil }
	rec := &recorder{}
	s, err := New(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit, ExecHooks: f})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	root := guardedRoot(t)
	write(t, filepath.Join(root, "files/scenarios/demo.yaml"), "name: demo\nsystem_prompt: You are careful.\n"+scenarioYAML[len("name: demo\n"):])
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	v := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending })).payload.(TraceView)
	var hidden, moved bool
	for _, m := range v.Messages {
		hidden = hidden || len(m.Hidden) > 0
		moved = moved || m.Pos != nil
	}
	if !hidden || !moved {
		t.Fatalf("the system prompt overlay is not in the view: hidden %v, moved %v", hidden, moved)
	}
	kinds := map[engine.StepKind]int{}
	for _, st := range v.Steps {
		kinds[st.Kind]++
	}
	if kinds[engine.StepHookCall] < 8 || kinds[engine.StepRestore] != 1 {
		t.Fatalf("step kinds %v", kinds)
	}
	if len(v.Exec.Metrics) != 1 || !v.Exec.Ran {
		t.Fatalf("exec %+v", v.Exec)
	}
	// every hook in the matrix: the messages executable hooks added are
	// their hooks' rows, with their system
	var execRows []string
	for i, sys := range v.Matrix.Systems {
		if sys != "" && v.Matrix.Totals[i] > 0 {
			execRows = append(execRows, v.Matrix.Hooks[i])
		}
	}
	// (the audit's system message), and the tool results they wrote (the
	// guard's reason in place of read_file's result)
	if len(v.Matrix.Systems) != len(v.Matrix.Hooks) || !slices.Contains(execRows, "process/audit") || !slices.Contains(execRows, "command/guard") {
		t.Fatalf("matrix rows %v (systems %v): an executable hook's words not counted", v.Matrix.Hooks, v.Matrix.Systems)
	}
	if os.Getenv("HOOKSTUDIO_UPDATE_FIXTURES") != "" {
		v.Exec.DurationMS = 25
		data, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../../../frontend/src/fixtures/exec-trace.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		st := s.State()
		st.Root = "/home/user/skills"
		st.Recent = []string{st.Root}
		for i := range st.Skills {
			st.Skills[i].Dir = st.Root + "/" + st.Skills[i].Name
		}
		data, _ = json.MarshalIndent(st, "", " ")
		if err := os.WriteFile("../../../frontend/src/fixtures/exec-state.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
