package studio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/store/profiles"
)

// execRealService is a service with the app's hooksets loader, a profile
// on srvURL and the folder root open.
func execRealService(t *testing.T, srvURL, root string) (*Service, *recorder, context.Context) {
	t.Helper()
	ps := profiles.NewStore(filepath.Join(t.TempDir(), "profiles.json"))
	ps.Getenv = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return fakeKey
		}
		return ""
	}
	ps.Keys = nil
	if err := ps.Put(profiles.Profile{Name: "local", Provider: profiles.OpenAI, BaseURL: srvURL + "/v1", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	ev := &recorder{}
	s, ctx := openWithAppHooks(t, Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: ev.emit, Profiles: ps}, root)
	return s, ev, ctx
}

// execRoot is a skill with a prompt hook, the given hooks.yaml and a
// scenario whose first request needs no tool.
func execRoot(t *testing.T, hooksYAML, extra string) string {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "files/hooks/hooks.json"), `{"hooks": [{"name": "ctx", "file": "ctx.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`)
	write(t, filepath.Join(root, "files/hooks/ctx.md"), "Be brief.")
	write(t, filepath.Join(root, "files/hooks/hooks.yaml"), hooksYAML)
	write(t, filepath.Join(root, "files/scenarios/real.yaml"), "name: real\n"+extra+`requests:
  - user: What is in this folder?
    planning: {need_tool: false, content: nothing to do}
`)
	return root
}

// answering is an OpenAI-compatible server: the llm hook's prompt gets
// hookAnswer, every other request a plain answer. It keeps the bodies.
type answering struct {
	mu     sync.Mutex
	bodies []string
}

func (a *answering) server(t *testing.T, hookAnswer string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		a.bodies = append(a.bodies, string(b))
		a.mu.Unlock()
		switch {
		case strings.Contains(string(b), "REVIEW-THIS-CALL"):
			sse(w, content(hookAnswer, `"stop"`))
		case strings.Contains(string(b), "need_tool"):
			sse(w, content(`{"need_tool": false, "plan": "answer"}`, `"stop"`))
		default:
			sse(w, content("Nothing much.", `"stop"`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (a *answering) all() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.bodies, "\n")
}

// trustAndSettle trusts the folder and waits for the live simulation
// with the hooks to end.
func trustAndSettle(t *testing.T, s *Service, ev *recorder, ctx context.Context) {
	t.Helper()
	from := ev.len()
	st, err := s.TrustFolder(ctx)
	if err != nil || !st.Exec.Trusted {
		t.Fatalf("trust: %+v, %v", st.Exec, err)
	}
	v := waitTrace(t, ev, from, func(v TraceView) bool { return !v.Pending && v.Status != "running" })
	if !v.Exec.Ran {
		t.Fatalf("the live simulation did not run the hooks: %+v", v.Exec)
	}
}

// TestRealRunRunsTrustedHooks: in a trusted folder a real run runs the
// command hooks (their system message reaches the model), asks the
// profile's model for the llm hook (not the scenario's hook_answers), and
// says the hooks ran.
func TestRealRunRunsTrustedHooks(t *testing.T) {
	marks := t.TempDir()
	root := execRoot(t, fmt.Sprintf(`pre_llm_request:
  - name: note
    command: "cat >/dev/null; echo ran >> %s/runs; echo '{\"additional_context\": \"NOTE-FROM-COMMAND-HOOK\"}'"
  - name: reviewer
    type: llm
    prompt: "REVIEW-THIS-CALL"
`, marks), `hook_answers:
  reviewer:
    - '{"additional_context": "MOCK-REVIEW"}'
    - '{"additional_context": "MOCK-REVIEW"}'
`)
	var a answering
	srv := a.server(t, `{"additional_context": "REAL-MODEL-REVIEW"}`)
	s, ev, ctx := execRealService(t, srv.URL, root)
	trustAndSettle(t, s, ev, ctx)
	os.Remove(filepath.Join(marks, "runs"))

	from := ev.len()
	if err := s.StartRun(RunOptions{Profile: "local"}); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != "ok" {
		t.Fatalf("run ended %s: %s", end.Status, end.Error)
	}
	if !end.View.Exec.Ran || end.View.Exec.NotRun != "" || len(end.View.Exec.Metrics) == 0 {
		t.Errorf("exec: %+v", end.View.Exec)
	}
	if data, _ := os.ReadFile(filepath.Join(marks, "runs")); strings.Count(string(data), "ran") != len(end.View.Calls) {
		t.Errorf("the command hook ran %d times for %d calls", strings.Count(string(data), "ran"), len(end.View.Calls))
	}
	sent := a.all()
	if !strings.Contains(sent, "NOTE-FROM-COMMAND-HOOK") {
		t.Errorf("the command hook's message never reached the model: %s\n%+v", sent, hookCallSteps(end.View))
	}
	if !strings.Contains(sent, "REAL-MODEL-REVIEW") || strings.Contains(sent, "MOCK-REVIEW") {
		t.Error("the llm hook was not answered by the profile's model")
	}
}

// TestRealRunUntrustedRunsPromptHooksOnly: without trust nothing starts;
// the run goes on and its view says why the hooks did not run.
func TestRealRunUntrustedRunsPromptHooksOnly(t *testing.T) {
	marks := t.TempDir()
	root := execRoot(t, fmt.Sprintf(`pre_llm_request:
  - name: note
    command: "cat >/dev/null; echo ran >> %s/runs"
`, marks), "")
	var a answering
	srv := a.server(t, "{}")
	s, ev, _ := execRealService(t, srv.URL, root)
	if err := s.StartRun(RunOptions{Profile: "local"}); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != "ok" || end.View.Exec.Ran || end.View.Exec.NotRun != NotRunUntrusted {
		t.Fatalf("run %s, exec %+v", end.Status, end.View.Exec)
	}
	if _, err := os.Stat(filepath.Join(marks, "runs")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a command of an untrusted folder ran")
	}
	if !strings.Contains(a.all(), "Be brief.") {
		t.Error("the prompt hook did not run")
	}
}

// TestRealRunCancelKillsHooks: cancelling a real run while a command hook
// sleeps leaves neither the hook's shell nor its child nor the run's
// process hook running.
func TestRealRunCancelKillsHooks(t *testing.T) {
	marks := t.TempDir()
	armed := filepath.Join(marks, "armed")
	root := sleeperRoot(t, marks, armed, "") // controlled_exec_test.go
	var a answering
	srv := a.server(t, "{}")
	s, ev, ctx := execRealService(t, srv.URL, root)
	trustAndSettle(t, s, ev, ctx) // unarmed: the live simulation does not sleep
	os.Remove(filepath.Join(marks, "proc.pid"))
	write(t, armed, "")

	from := ev.len()
	if err := s.StartRun(RunOptions{Profile: "local"}); err != nil {
		t.Fatal(err)
	}
	pids := waitPIDs(t, marks, "sh.pid", "sleep.pid", "proc.pid")
	for _, pid := range pids {
		if !running(pid) {
			t.Fatalf("pid %d is not running before the cancel", pid)
		}
	}
	if err := s.CancelRun(); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != string(engine.StatusCancelled) {
		t.Errorf("status %s", end.Status)
	}
	waitGone(t, pids)
}

// running says whether pid is a live process: kill(pid, 0) succeeds and,
// where /proc tells, it is not a zombie (a killed grandchild whose new
// parent, a container's init, does not reap it is dead all the same).
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// "pid (comm) S ...": the state follows the last ')'.
	i := strings.LastIndexByte(string(st), ')')
	return i < 0 || i+2 >= len(st) || st[i+2] != 'Z'
}
