package studio

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
)

// fakeExec stands in for app/hooks/hooksets: a pre_tool_execution "guard" that
// skips every tool with the text of its hooks.yaml line, and optionally a
// slow hook that blocks until its run is cancelled.
type fakeExec struct {
	mu      sync.Mutex
	loads   int
	handled atomic.Int32
	closed  atomic.Int32
	slow    atomic.Bool // the guard blocks until the run is cancelled
	started chan struct{}
}

type fakeSet struct {
	f      *fakeExec
	reason string
	root   string
}

func (f *fakeExec) load(_ context.Context, req ExecRequest) (ExecSet, error) {
	f.mu.Lock()
	f.loads++
	f.mu.Unlock()
	file := "guarded/hooks/hooks.yaml"
	data, ok := req.Drafts[file]
	if !ok {
		var err error
		if data, err = os.ReadFile(filepath.Join(req.Root, filepath.FromSlash(file))); err != nil {
			return &fakeSet{f: f}, nil
		}
	}
	return &fakeSet{f: f, reason: strings.TrimSpace(string(data)), root: req.Root}, nil
}

// Attach makes the fake its own handler in every run.
func (s *fakeSet) Attach(cfg *engine.Config, _ registry.Run) (registry.Attached, error) {
	cfg.Handlers = append(cfg.Handlers, s)
	return s, nil
}
func (s *fakeSet) Active(*scenario.Scenario) bool { return s.reason != "" }
func (s *fakeSet) SkillNames(folders []string) scenario.SkillNames {
	return scenario.SkillNames{Folders: folders}
}
func (s *fakeSet) FolderCommands(sc *scenario.Scenario) []registry.Command {
	return s.Commands(sc)
}
func (s *fakeSet) Hooks() []engine.HookInfo {
	if s.reason == "" {
		return nil
	}
	return []engine.HookInfo{{System: "command", Event: "pre_tool_execution", Hook: "guard", Skill: "guarded", Source: "guarded/hooks/hooks.yaml:1", Detail: "./guard.sh"}}
}
func (s *fakeSet) Commands(*scenario.Scenario) []registry.Command {
	if s.reason == "" {
		return nil
	}
	return []registry.Command{{Source: "guarded/hooks/hooks.yaml:1", Event: "pre_tool_execution", Hook: "guard", Skill: "guarded", Command: "./guard.sh", Dir: "guarded/hooks"}}
}
func (s *fakeSet) Metrics() []engine.HookMetric { return nil }
func (s *fakeSet) Diagnostics() []diag.Diagnostic {
	if strings.Contains(s.reason, "bad") {
		return []diag.Diagnostic{{File: "guarded/hooks/hooks.yaml", Line: 1, Column: 1, Severity: diag.Warning, Code: "x", Message: "bad"}}
	}
	return nil
}
func (s *fakeSet) Close() error { s.f.closed.Add(1); return nil }

func (s *fakeSet) Handle(ctx context.Context, ev *engine.Event) error {
	if ev.Point != engine.PointBeforeTool || s.reason == "" {
		return nil
	}
	s.f.handled.Add(1)
	if s.f.slow.Load() {
		if s.f.started != nil {
			select {
			case s.f.started <- struct{}{}:
			default:
			}
		}
		<-ctx.Done()
		return ctx.Err()
	}
	in, _ := json.Marshal(map[string]any{"event": "pre_tool_execution", "tool_name": ev.Tool.Name})
	code := 0
	ev.Apply(engine.HookCall{System: "command", Event: "pre_tool_execution", Hook: "guard", Input: in,
		Output: json.RawMessage(`{"action":"skip"}`), ExitCode: &code, DurationMS: 3},
		engine.Effect{Action: engine.ActionSkip, Reason: s.reason})
	return nil
}

func guardedRoot(t *testing.T) string {
	root := skillsRoot(t)
	write(t, filepath.Join(root, "guarded/hooks/hooks.yaml"), "blocked by guard v1")
	write(t, filepath.Join(root, "guarded/hooks/guard.sh"), "#!/bin/sh\n")
	return root
}

func newExecService(t *testing.T, f *fakeExec) (*Service, *recorder, context.Context) {
	t.Helper()
	rec := &recorder{}
	s, err := New(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit, ExecHooks: f.load})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Close() })
	return s, rec, ctx
}

func hookCallSteps(v TraceView) []engine.Step {
	var out []engine.Step
	for _, st := range v.Steps {
		if st.Kind == engine.StepHookCall {
			out = append(out, st)
		}
	}
	return out
}

func isTrace(match func(TraceView) bool) func(event) bool {
	return func(e event) bool {
		v, ok := e.payload.(TraceView)
		return ok && e.name == EventTrace && match(v)
	}
}

func TestUntrustedFolderRunsPromptHooksOnly(t *testing.T) {
	f := &fakeExec{}
	s, _, ctx := newExecService(t, f)
	st, err := s.Open(ctx, guardedRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exec.Present || st.Exec.Trusted || st.Exec.Changed || len(st.Exec.Commands) != 1 || len(st.Exec.Hooks) != 1 {
		t.Fatalf("exec state = %+v", st.Exec)
	}
	if st.Exec.Files[0] != "guarded/hooks/hooks.yaml" {
		t.Fatalf("files = %v", st.Exec.Files)
	}
	v := s.Trace()
	if v.Pending || v.Status != "ok" || v.Exec.Ran || v.Exec.NotRun != NotRunUntrusted || len(v.Exec.Hooks) != 1 {
		t.Fatalf("view: pending %v status %s exec %+v", v.Pending, v.Status, v.Exec)
	}
	if len(hookCallSteps(v)) != 0 || f.handled.Load() != 0 {
		t.Fatal("an untrusted folder ran a hook")
	}
}

func TestTrustRunsHooksInTheBackground(t *testing.T) {
	f := &fakeExec{}
	s, rec, ctx := newExecService(t, f)
	root := guardedRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	st, err := s.TrustFolder(ctx)
	if err != nil || !st.Exec.Trusted {
		t.Fatalf("trust: %v %+v", err, st.Exec)
	}
	ev := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending }))
	v := ev.payload.(TraceView)
	hc := hookCallSteps(v)
	if !v.Exec.Ran || len(hc) != 1 || hc[0].HookCall.Outcome != engine.OutcomeSkipped || hc[0].HookCall.Hook != "guard" {
		t.Fatalf("exec %+v, hook calls %+v", v.Exec, hc)
	}
	var tool *Message
	for i := range v.Messages {
		if v.Messages[i].Origin == engine.OriginTool {
			tool = &v.Messages[i]
		}
	}
	if tool == nil || tool.Content != "blocked by guard v1" {
		t.Fatalf("tool message %+v", tool)
	}
	rec.waitFor(t, from, func(e event) bool {
		p, ok := e.payload.(Progress)
		return ok && !p.Active && p.Status == "ok" && p.HookCalls == 1
	})
	if f.closed.Load() != 1 { // the run's hooks, closed when it ended; parsing starts nothing to close
		t.Fatalf("run hooks closed %d times", f.closed.Load())
	}

	// Trust is remembered by path and hash: a new service trusts it too.
	if !s.trust.Trusted(root, s.exec.hash) {
		t.Fatal("not remembered")
	}
	// A changed configuration asks again.
	from = rec.len()
	write(t, filepath.Join(root, "guarded/hooks/hooks.yaml"), "blocked by guard v2")
	rec.waitFor(t, from, func(e event) bool {
		st, ok := e.payload.(State)
		return ok && st.Exec.Present && !st.Exec.Trusted && st.Exec.Changed
	})
	v = s.Trace()
	if v.Exec.NotRun != NotRunUntrusted || len(hookCallSteps(v)) != 0 {
		t.Fatalf("after a config change: %+v", v.Exec)
	}
	// Untrust forgets it.
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = s.UntrustFolder(ctx)
	if err != nil || st.Exec.Trusted || st.Exec.Changed {
		t.Fatalf("untrust: %v %+v", err, st.Exec)
	}
}

func TestScriptEditResimulates(t *testing.T) {
	f := &fakeExec{}
	s, rec, ctx := newExecService(t, f)
	root := guardedRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	first := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending })).payload.(TraceView)
	// Saving the script re-simulates (the watcher sees the hooks/ folder).
	from = rec.len()
	handled := f.handled.Load()
	write(t, filepath.Join(root, "guarded/hooks/guard.sh"), "#!/bin/sh\necho changed\n")
	next := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending && v.Revision > first.Revision })).payload.(TraceView)
	if f.handled.Load() <= handled || !next.Exec.Ran {
		t.Fatal("saving a hook script did not run the hooks again")
	}
	// every view given out is a newer revision: the pending one too
	pending := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return v.Pending })).payload.(TraceView)
	if !(first.Revision < pending.Revision && pending.Revision < next.Revision) {
		t.Errorf("revisions %d (shown), %d (pending), %d (result): not increasing", first.Revision, pending.Revision, next.Revision)
	}
}

func TestEditCancelsSlowRun(t *testing.T) {
	f := &fakeExec{started: make(chan struct{}, 4)}
	s, rec, ctx := newExecService(t, f)
	root := guardedRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	f.slow.Store(true)
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the slow hook never started")
	}
	if p := s.Progress(); !p.Active || p.File != "files/scenarios/demo.yaml" {
		t.Fatalf("progress = %+v", p)
	}
	if v := s.Trace(); !v.Pending {
		t.Fatal("the view is not pending while the run goes on")
	}
	// An edit does not wait for the slow hook: it replaces the run.
	from := rec.len()
	f.slow.Store(false)
	began := time.Now()
	if _, err := s.SetDraft(ctx, "guarded/hooks/hooks.yaml", "blocked by the draft"); err != nil {
		t.Fatal(err)
	}
	// The slow hook blocks until cancelled: any bound shows the edit did not
	// wait for it; a loose one keeps a loaded machine from failing the test.
	if d := time.Since(began); d > 4*time.Second {
		t.Fatalf("the edit waited %v", d)
	}
	v := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending && v.Draft })).payload.(TraceView)
	if hc := hookCallSteps(v); len(hc) != 1 || v.Status != "ok" {
		t.Fatalf("status %s, hook calls %d", v.Status, len(hc))
	}

	// Cancel: the run stops and shows what it recorded, status cancelled.
	f.slow.Store(true)
	from = rec.len()
	if _, err := s.DiscardDraft(ctx, "guarded/hooks/hooks.yaml"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the slow hook never started")
	}
	if err := s.CancelSimulation(); err != nil {
		t.Fatal(err)
	}
	v = rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending })).payload.(TraceView)
	if v.Status != "cancelled" || len(v.Steps) == 0 {
		t.Fatalf("after cancel: status %s, %d steps", v.Status, len(v.Steps))
	}
	if err := s.CancelSimulation(); err != ErrNoSimulation {
		t.Fatalf("cancel with nothing running: %v", err)
	}
}

func TestSelectWhileRunningShowsPendingView(t *testing.T) {
	f := &fakeExec{started: make(chan struct{}, 4)}
	s, rec, ctx := newExecService(t, f)
	root := guardedRoot(t)
	write(t, filepath.Join(root, "files/scenarios/other.yaml"), strings.Replace(scenarioYAML, "name: demo", "name: other", 1))
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	f.slow.Store(true)
	v, err := s.Select(ctx, "files/scenarios/other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !v.Pending || v.Status != "running" || v.File != "files/scenarios/other.yaml" || v.Scenario != "other" || len(v.Steps) != 0 {
		t.Fatalf("pending view: %+v", v)
	}
	<-f.started
	from := rec.len()
	f.slow.Store(false)
	if err := s.CancelSimulation(); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending && v.File == "files/scenarios/other.yaml" }))
}

func TestExecDiagnosticsGoToTheirSkill(t *testing.T) {
	f := &fakeExec{}
	s, _, ctx := newExecService(t, f)
	root := guardedRoot(t)
	write(t, filepath.Join(root, "guarded/hooks/hooks.yaml"), "bad config")
	st, err := s.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range st.Skills {
		if sk.Name == "guarded" && (len(sk.Diagnostics) != 1 || sk.Diagnostics[0].Message != "bad") {
			t.Fatalf("guarded diagnostics %+v", sk.Diagnostics)
		}
	}
	if st.Warnings == 0 {
		t.Fatal("exec diagnostics not counted")
	}
}

func TestNoLoaderNoExecutableHooks(t *testing.T) {
	s, _, ctx := newService(t)
	st, err := s.Open(ctx, guardedRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exec.Present || len(st.Exec.Commands) != 0 {
		t.Fatalf("exec = %+v", st.Exec)
	}
	if v := s.Trace(); v.Exec.NotRun != NotRunUnsupported || v.Status != "ok" {
		t.Fatalf("view exec = %+v", v.Exec)
	}
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err) // trusting is allowed; nothing can run anyway
	}
}

// freeSet has hooks that start nothing (a request policy): they run
// without trust, in the background like any executable hooks.
type freeSet struct{ *fakeSet }

func (freeSet) Commands(*scenario.Scenario) []registry.Command       { return nil }
func (freeSet) FolderCommands(*scenario.Scenario) []registry.Command { return nil }
func (freeSet) Active(*scenario.Scenario) bool                       { return true }

func TestHooksThatStartNothingNeedNoTrust(t *testing.T) {
	f := &fakeExec{}
	load := func(ctx context.Context, req ExecRequest) (ExecSet, error) {
		set, _ := f.load(ctx, req)
		return freeSet{set.(*fakeSet)}, nil
	}
	rec := &recorder{}
	s, err := New(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit, ExecHooks: load})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.Open(ctx, guardedRoot(t)); err != nil {
		t.Fatal(err)
	}
	v := rec.waitFor(t, from, isTrace(func(v TraceView) bool { return !v.Pending && v.Exec.Ran })).payload.(TraceView)
	if len(hookCallSteps(v)) != 1 {
		t.Fatalf("%d hook calls", len(hookCallSteps(v)))
	}
}
