package studio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
)

// execOpsService is a service with the app's hooksets loader, the folder
// root open and controlled runs.
func execOpsService(t *testing.T, root string) (*Service, *Operations, *recorder, context.Context) {
	t.Helper()
	ev := &recorder{}
	s, ctx := openWithAppHooks(t, Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: ev.emit}, root)
	return s, NewOperations(s), ev, ctx
}

// openWithAppHooks starts a service of cfg with the app's hooksets loader
// and opens root; the test's end closes it.
func openWithAppHooks(t *testing.T, cfg Config, root string) (*Service, context.Context) {
	t.Helper()
	s, err := New(withAppHooks(cfg, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); s.Close() })
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	return s, ctx
}

// sleeperRoot is execRoot with a command hook at post_llm_response that,
// once the file armed exists, writes its pid to marks/sh.pid and blocks
// in `wait` (until the file release exists, or on a 60 s sleep when
// release is ""), and the plugin-tools process hook started through a
// wrapper that writes its pid to marks/proc.pid.
func sleeperRoot(t *testing.T, marks, armed, release string) string {
	t.Helper()
	block := "sleep 60 & echo $! > " + marks + "/sleep.pid; wait"
	if release != "" {
		block = "while [ ! -f " + release + " ]; do sleep 0.02; done"
	}
	root := execRoot(t, fmt.Sprintf(`post_llm_response:
  - name: sleeper
    command: "cat >/dev/null; if [ -f %s ]; then echo $$ > %s/sh.pid; %s; fi; echo '{}'"
    timeout: 120
`, armed, marks, block), "")
	// A process hook too: it lives for the whole run, and only the set's
	// Close stops it when the run is cancelled.
	copyTree(t, "../../../skills/plugin-tools", filepath.Join(root, "plugin-tools"))
	cfgPath := filepath.Join(root, "plugin-tools/hooks/picoclaw.json")
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "plugin-tools/hooks/wrap.sh"), fmt.Sprintf("echo $$ > %s/proc.pid\nexec python3 hook.py\n", marks))
	write(t, cfgPath, strings.Replace(string(data), `["python3", "hook.py"]`, `["sh", "wrap.sh"]`, 1))
	return root
}

// waitPIDs waits until each of files in marks holds a pid and returns them.
func waitPIDs(t *testing.T, marks string, files ...string) []int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // only for failing: the hooks are real processes
	for {
		var pids []int
		for _, f := range files {
			if b, err := os.ReadFile(filepath.Join(marks, f)); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					pids = append(pids, pid)
				}
			}
		}
		if len(pids) == len(files) {
			return pids
		}
		if time.Now().After(deadline) {
			ents, _ := os.ReadDir(marks)
			t.Fatalf("the hooks never started: %v", ents)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitGone fails unless every pid is gone: Close has sent SIGKILL to the
// hooks' process groups by the time the run ended; a grandchild, not ours
// to wait for, dies a moment later on a busy machine. Without Close it
// would sleep on for a minute.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		gone := time.Now().Add(5 * time.Second)
		for running(pid) && time.Now().Before(gone) {
			time.Sleep(10 * time.Millisecond)
		}
		if running(pid) {
			t.Errorf("pid %d still runs 5 s after the run ended", pid)
		}
	}
}

// streamed is every event the run's stream sent so far.
func streamed(ev *recorder) []events.Event {
	var out []events.Event
	for _, e := range ev.all(EventRunEvents) {
		out = append(out, e.payload.([]events.Event)...)
	}
	return out
}

// TestControlledRunCancelKillsSlowHook: a controlled run runs the trusted
// folder's hooks; cancelling it while a command hook sleeps ends the run
// at once and leaves neither the hook's shell nor its child nor the run's
// process hook running.
func TestControlledRunCancelKillsSlowHook(t *testing.T) {
	marks := t.TempDir()
	armed := filepath.Join(marks, "armed")
	s, o, ev, ctx := execOpsService(t, sleeperRoot(t, marks, armed, ""))
	trustAndSettle(t, s, ev, ctx) // unarmed: the live simulation does not sleep
	os.Remove(filepath.Join(marks, "proc.pid"))
	write(t, armed, "")

	from := ev.len()
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPIDs(t, marks, "sh.pid", "sleep.pid", "proc.pid")
	for _, pid := range pids {
		if !running(pid) {
			t.Fatalf("pid %d is not running before the cancel", pid)
		}
	}
	if err := o.Cancel(); err != nil { // returns once the run ended
		t.Fatal(err)
	}
	end := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != string(engine.StatusCancelled) {
		t.Errorf("status %s: %s", end.Status, end.Error)
	}
	if !end.View.Exec.Ran || len(end.View.Exec.Metrics) == 0 {
		t.Errorf("exec %+v", end.View.Exec)
	}
	waitGone(t, pids)
	if evs := streamed(ev); len(evs) == 0 || evs[len(evs)-1].Type != events.WorkflowCancelled {
		t.Errorf("the stream does not end cancelled: %v", evs)
	}
}

// TestControlledRunPausesAfterSlowHook: a pause asked while a hook runs
// lets the hook finish (its answer counts) and holds the run at the next
// checkpoint; resumed, the run ends as it would have.
func TestControlledRunPausesAfterSlowHook(t *testing.T) {
	marks := t.TempDir()
	armed, release := filepath.Join(marks, "armed"), filepath.Join(marks, "release")
	s, o, ev, ctx := execOpsService(t, sleeperRoot(t, marks, armed, release))
	trustAndSettle(t, s, ev, ctx)
	write(t, armed, "")

	from := ev.len()
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	waitPIDs(t, marks, "sh.pid")
	if err := o.Pause(); err != nil {
		t.Fatal(err)
	}
	write(t, release, "")
	w := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunWaiting }).payload.(RunWaiting)
	if w.Reason != events.WaitPaused {
		t.Fatalf("waiting: %s", w.Reason)
	}
	i := slices.IndexFunc(w.View.Steps, func(st engine.Step) bool { return st.HookCall != nil && st.HookCall.Hook == "sleeper" })
	if i < 0 || w.View.Steps[i].HookCall.Outcome != engine.OutcomeOK || i > w.Step {
		t.Fatalf("paused at step %d; the sleeper's step %d: %+v", w.Step, i, hookCallSteps(w.View))
	}
	for _, e := range ev.all(EventRunEnded) {
		t.Fatalf("the paused run ended: %+v", e.payload)
	}
	if err := o.Resume(); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != "ok" {
		t.Fatalf("ended %s: %s", end.Status, end.Error)
	}
	var types []events.Type
	for _, e := range streamed(ev) {
		types = append(types, e.Type)
	}
	if !slices.Contains(types, events.WorkflowPaused) || !slices.Contains(types, events.WorkflowResumed) {
		t.Errorf("events %v", types)
	}
}

// TestControlledRunUntrustedRunsPromptHooksOnly: in a folder nobody
// trusted nothing starts; the run goes on with the prompt hooks and says
// why the executable hooks took no part, as the live simulation does.
func TestControlledRunUntrustedRunsPromptHooksOnly(t *testing.T) {
	marks := t.TempDir()
	root := execRoot(t, fmt.Sprintf(`pre_llm_request:
  - name: note
    command: "cat >/dev/null; echo ran >> %s/runs"
`, marks), "")
	s, o, ev, _ := execOpsService(t, root)
	if sim := s.Trace(); sim.Exec.NotRun != NotRunUntrusted {
		t.Fatalf("the live simulation says %+v", sim.Exec)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	ctl := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunControl }).payload.(RunControl)
	if !ctl.Running || ctl.HooksNotRun != NotRunUntrusted {
		t.Errorf("control %+v", ctl)
	}
	end := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != "ok" || end.View.Exec.Ran || end.View.Exec.NotRun != NotRunUntrusted {
		t.Fatalf("run %s, exec %+v", end.Status, end.View.Exec)
	}
	if _, err := os.Stat(filepath.Join(marks, "runs")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a command of an untrusted folder ran")
	}
	if !slices.ContainsFunc(end.View.Messages, func(m Message) bool { return m.Content == "Be brief." }) {
		t.Error("the prompt hook did not run")
	}
}

// TestControlledRunAsksAfterTheProcessHook: in the trusted plugin-tools
// example's scenario with an approval policy on run_command, the process
// hook's approve_tool decides first — the destructive command it refuses
// is not asked about — and the run stops at the approval of the command it
// approved, showing the hook's answer with the question; the user's
// denial is the tool message the model reads.
func TestControlledRunAsksAfterTheProcessHook(t *testing.T) {
	root := t.TempDir()
	copyTree(t, "../../../skills/plugin-tools", filepath.Join(root, "plugin-tools"))
	s, o, ev, ctx := execOpsService(t, root)
	if _, err := s.Select(ctx, "plugin-tools/scenarios/with-approval.yaml"); err != nil {
		t.Fatal(err)
	}
	trustAndSettle(t, s, ev, ctx)

	from := ev.len()
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	p := ev.waitFor(t, from, func(e event) bool { return e.name == EventApproval }).payload.(PendingApproval)
	if p.Tool != "run_command" || p.Arguments["command"] != "make clean" {
		t.Fatalf("asked about %s %v (the hook denies rm -rf itself)", p.Tool, p.Arguments)
	}
	i := slices.IndexFunc(p.Hooks, func(a events.HookAnswer) bool { return a.Event == "hook.approve_tool" })
	if i < 0 || p.Hooks[i].Hook != "plugin_tools" || p.Hooks[i].System != "process" || !strings.Contains(p.Hooks[i].Answer, `"approved": true`) {
		t.Errorf("the hooks' answers with the question: %+v", p.Hooks)
	}
	w := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunWaiting }).payload.(RunWaiting)
	if w.Reason != events.WaitApproval || w.Step != p.Step {
		t.Fatalf("waiting %+v at %d, asked at %d", w.Reason, w.Step, p.Step)
	}
	if hc := w.View.Steps[w.Step].HookCall; hc == nil || hc.Event != "hook.approve_tool" || hc.Hook != "plugin_tools" {
		t.Errorf("the run waits at step %d, not at the process hook's approval: %+v", w.Step, w.View.Steps[w.Step])
	}
	if err := o.Decide(false, "not before the release"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, from, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != "ok" {
		t.Fatalf("ended %s: %s", end.Status, end.Error)
	}
	var tools []string
	for _, m := range end.View.Messages {
		if m.Role == "tool" && m.Tool == "run_command" {
			tools = append(tools, m.Content)
		}
	}
	if len(tools) != 2 || !strings.HasPrefix(tools[0], "Tool execution denied by approval hook: Refused by plugin_tools") ||
		tools[1] != "Tool call run_command was denied by the user: not before the release" {
		t.Errorf("run_command's tool messages %q", tools)
	}
	asked := 0
	for _, e := range streamed(ev) {
		if e.Type == events.ApprovalRequested {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("%d approvals asked, want 1", asked)
	}
}
