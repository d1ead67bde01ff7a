package capture_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// benchHooks are the simulated run's hooks, as many as the capture's
// agent hooks (PreToolUse:Bash, Stop): one after each Bash call, one
// persistent note, so both runs fill the visibility matrix alike.
type benchHooks struct{}

func (benchHooks) Hooks([]string) []skills.Hook {
	return []skills.Hook{
		{Skill: "bench", Name: "guard", File: "guard.md", Timing: skills.AfterToolCall, Role: "user", ToolFilter: []string{"Bash"}, Content: "Check the command's output before the next one."},
		{Skill: "bench", Name: "keep-going", File: "keep-going.md", Timing: skills.AfterUserInput, Role: "system", Persistent: true, Content: "Keep going until the tree is clean."},
	}
}

// BenchViewCalls is the size of the runs the frontend's capture bench opens.
const benchViewCalls = 1000

// TestWriteBenchViews writes the two views the frontend's capture bench
// (frontend/src/capture/CaptureRun.bench.tsx) opens, exactly as the app's
// History hands them over (studio.RunView): a 1,000-call capture of a
// Claude Code-like session — each call adds the tool call and its result,
// every tenth result a PreToolUse hook's block, every fiftieth turn a Stop
// hook's feedback — and a simulated run of the same number of calls. It
// runs only with HOOKSTUDIO_BENCH_VIEWS=DIR, and checks what it wrote.
func TestWriteBenchViews(t *testing.T) {
	dir := os.Getenv("HOOKSTUDIO_BENCH_VIEWS")
	if dir == "" {
		t.Skip("set HOOKSTUDIO_BENCH_VIEWS=DIR to write the frontend bench's views")
	}
	tr, err := capture.Trace("capture: a long session", benchCapture(benchViewCalls))
	if err != nil {
		t.Fatal(err)
	}
	sim := benchSimulated(t, benchViewCalls)
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	// the same two runs in a history database, for a check in the app itself
	store, err := history.Open(context.Background(), filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, in := range []history.RunInput{
		{Trace: sim, ScenarioFile: "bench/scenarios/simulated-1000.yaml", Source: history.SourceCLI, Tokens: counter},
		{Trace: tr, ScenarioFile: "capture", Backend: "capture:anthropic", Source: history.SourceCapture, Tokens: counter},
	} {
		if _, err := store.SaveRun(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	for name, tr := range map[string]*engine.Trace{"capture-1000.json": tr, "simulated-1000.json": sim} {
		v := studio.RunView(tr, "bench", counter, studio.RunOrigin{})
		if len(v.Calls) < benchViewCalls {
			t.Fatalf("%s: %d calls", name, len(v.Calls))
		}
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d calls, %d messages, %d steps, %d KiB", name, len(v.Calls), len(v.Messages), len(v.Steps), len(data)>>10)
	}
}

func benchCapture(n int) []capture.Call {
	msgs := []capture.Message{
		{Role: "system", Content: "You are Claude Code. " + strings.Repeat("Follow the rules. ", 200), Origin: capture.OriginSystem},
		{Role: "user", Content: "<system-reminder>\nToday is Monday.\n</system-reminder>", Origin: capture.OriginContext},
		{Role: "user", Content: "tidy the repository", Origin: capture.OriginUser},
	}
	calls := make([]capture.Call, 0, n)
	for i := range n {
		id := fmt.Sprintf("toolu_%d", i)
		tc := capture.ToolCall{ID: id, Name: "Bash", Arguments: json.RawMessage(fmt.Sprintf(`{"command":"ls dir%d"}`, i))}
		calls = append(calls, capture.Call{N: i, API: capture.Anthropic, Status: 200, Model: "claude", Tools: []string{"Bash", "Read"},
			Messages: append([]capture.Message(nil), msgs...), Answer: &capture.Answer{ToolCalls: []capture.ToolCall{tc}}})
		result := capture.Message{Role: "tool", Content: fmt.Sprintf("file%d.go\nfile%d_test.go", i, i), Origin: capture.OriginToolResult, ToolCallID: id}
		if i%10 == 9 {
			result = capture.Message{Role: "tool", Content: "PreToolUse:Bash hook error: [./guard.sh]: blocked by policy", Origin: capture.OriginHook, Hook: "PreToolUse:Bash", ToolCallID: id, IsError: true}
		}
		msgs = append(msgs, capture.Message{Role: "assistant", Origin: capture.OriginAssistant, ToolCalls: []capture.ToolCall{tc}}, result)
		if i%50 == 49 {
			msgs = append(msgs, capture.Message{Role: "user", Content: "Stop hook feedback: keep going until the tree is clean", Origin: capture.OriginHook, Hook: "Stop"})
		}
	}
	return calls
}

// benchSimulated is a simulated run with n calls: one request, a planning
// call and n-1 agent rounds each calling a tool, then the answer.
func benchSimulated(t *testing.T, n int) *engine.Trace {
	sc := &scenario.Scenario{Name: "simulated-1000", EnabledSkills: []string{"bench"}, SystemPrompt: "You are a coding agent. " + strings.Repeat("Follow the rules. ", 200), EnableTools: true,
		Tools: []scenario.Tool{{Name: "Bash", Description: "run a command"}}}
	req := scenario.Request{User: "tidy the repository"}
	for i := range n - 2 {
		req.Rounds = append(req.Rounds, scenario.Round{ToolCalls: []scenario.ToolCall{{Name: "Bash", Arguments: map[string]any{"command": fmt.Sprintf("ls dir%d", i)}, Result: fmt.Sprintf("file%d.go\nfile%d_test.go", i, i)}}})
	}
	req.Rounds = append(req.Rounds, scenario.Round{Content: "Done."})
	sc.Requests = []scenario.Request{req}
	tr, err := engine.Run(context.Background(), sc, benchHooks{}, engine.Config{Model: llm.NewMock(sc), MaxRounds: n + 1})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
