package prochook

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/skills"
)

// goHook is the test hook program (testdata/gohook), built once;
// picoclawHook answers as PicoClaw's own test helper (testdata/picoclawhook).
var goHook, picoclawHook string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "prochook-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	goHook = filepath.Join(dir, "gohook")
	picoclawHook = filepath.Join(dir, "picoclawhook")
	for _, b := range [][2]string{{goHook, "./testdata/gohook"}, {picoclawHook, "./testdata/picoclawhook"}} {
		build := exec.Command("go", "build", "-o", b[0], b[1])
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "build", b[1]+":", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// plan is gohook's behaviour, as its argv[1].
type plan struct {
	Methods   map[string]behavior `json:"methods,omitempty"`
	IgnoreEOF bool                `json:"ignore_eof,omitempty"`
	Spawn     bool                `json:"spawn,omitempty"`
}

type behavior struct {
	Result   any    `json:"result,omitempty"`
	Error    any    `json:"error,omitempty"`
	Raw      string `json:"raw,omitempty"`
	BigMiB   int    `json:"big_mib,omitempty"`
	SleepMS  int    `json:"sleep_ms,omitempty"`
	Exit     *int   `json:"exit,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	NoAnswer bool   `json:"no_answer,omitempty"`
	Once     bool   `json:"once,omitempty"`
	Nth      int    `json:"nth,omitempty"`
}

func intp(n int) *int { return &n }

// testHook is a hook running gohook with pl; its received messages go to
// the returned log file.
func testHook(t *testing.T, name string, pl plan, intercept []string, observe ...string) (Hook, string) {
	t.Helper()
	dir := t.TempDir()
	b, err := json.Marshal(pl)
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "received.log")
	h := Hook{Name: name, File: "skill/hooks/picoclaw.json", Line: 1, Enabled: true, OK: true,
		Command: []string{goHook, string(b)}, Dir: dir, Env: map[string]string{"HOOK_LOG": log},
		Intercept: intercept, Observe: observe, ObserveAll: slices.Contains(observe, "*"),
		Defaults: Defaults{Observer: 500 * time.Millisecond, Interceptor: 2 * time.Second, Approval: 2 * time.Second}}
	return h, log
}

// received reads the messages a hook's log holds.
func received(t *testing.T, log string) []map[string]any {
	t.Helper()
	f, err := os.Open(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func methods(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		s, _ := m["method"].(string)
		if s == "hook.runtime_event" {
			p, _ := m["params"].(map[string]any)
			s += ":" + fmt.Sprint(p["kind"])
		}
		out = append(out, s)
	}
	return out
}

// toolScenario is one request: planning, one round calling the given
// tools (each with result "ok:NAME"), a final answer.
func toolScenario(t *testing.T, calls ...string) *scenario.Scenario {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: t\nsystem_prompt: sys\ntools:\n")
	seen := map[string]bool{}
	for _, c := range calls {
		if !seen[c] {
			seen[c] = true
			fmt.Fprintf(&b, "  - name: %s\n    description: the %s tool\n", c, c)
		}
	}
	b.WriteString("requests:\n  - user: do it\n    planning: {need_tool: true, content: plan}\n    rounds:\n      - tool_calls:\n")
	for i, c := range calls {
		fmt.Fprintf(&b, "          - {id: c%d, name: %s, arguments: {command: \"x%d\"}, result: \"ok:%s\"}\n", i, c, i, c)
	}
	b.WriteString("      - content: done\n")
	sc, ds := scenario.Parse("t.yaml", []byte(b.String()))
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatalf("scenario: %v\n%s", d, b.String())
		}
	}
	return sc
}

// simulate runs sc with the hooks and returns the trace; the handler is
// closed and no goroutine of it outlives the run.
func simulate(t *testing.T, sc *scenario.Scenario, hooks ...Hook) (*engine.Trace, error) {
	t.Helper()
	return simulateIn(t, hostmode.Code, sc, hooks...)
}

// simulateDoc is simulate as seed 003 describes PicoClaw: for the tests of
// what both behaviours share, written against the seed's intercept list.
func simulateDoc(t *testing.T, sc *scenario.Scenario, hooks ...Hook) (*engine.Trace, error) {
	t.Helper()
	return simulateIn(t, hostmode.Document, sc, hooks...)
}

func simulateIn(t *testing.T, mode hostmode.Mode, sc *scenario.Scenario, hooks ...Hook) (*engine.Trace, error) {
	t.Helper()
	before := runtime.NumGoroutine()
	h := New(hooks, Options{Grace: 500 * time.Millisecond, Mode: mode})
	tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}})
	h.Close()
	noLeak(t, before)
	return tr, err
}

func engineConfig(sc *scenario.Scenario, h *Handler) engine.Config {
	return engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}}
}

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// noLeak waits for the goroutine count to come back to before.
func noLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("goroutines: %d before, %d after\n%s", before, runtime.NumGoroutine(), buf[:n])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// calls returns the process hook calls of the trace with that event.
func calls(tr *engine.Trace, event string) []engine.HookCall {
	var out []engine.HookCall
	for _, c := range tr.HookCalls {
		if c.System == System && (event == "" || c.Event == event) {
			out = append(out, c)
		}
	}
	return out
}

func events(tr *engine.Trace) []string {
	var out []string
	for _, c := range tr.HookCalls {
		out = append(out, c.Hook+" "+c.Event)
	}
	return out
}

// finalMessages is the last LLM call's message list, as "role:content".
func finalMessages(tr *engine.Trace) []string {
	var out []string
	for _, m := range tr.CallMessages(len(tr.Calls) - 1) {
		out = append(out, m.Role+":"+m.Content)
	}
	return out
}

func tool(tr *engine.Trace, name string) *engine.ToolCall {
	for _, c := range tr.Calls {
		for i := range c.ToolCalls {
			if c.ToolCalls[i].Name == name {
				return &c.ToolCalls[i]
			}
		}
	}
	return nil
}
