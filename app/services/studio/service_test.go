package studio

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/store/history"
)

// recorder is a fake emitter that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []event
}

type event struct {
	name    string
	payload any
}

func (r *recorder) emit(name string, payload any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{name, payload})
}

// waitFor polls until a matching event arrives after index from.
func (r *recorder) waitFor(t testing.TB, from int, match func(event) bool) event {
	t.Helper()
	// a deadline only for failing: a loaded CI machine can be slow
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		for _, e := range r.events[min(from, len(r.events)):] {
			if match(e) {
				r.mu.Unlock()
				return e
			}
		}
		r.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no matching event within 30s")
	return event{}
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

var sharedCounter = sync.OnceValues(tokens.NewCounter)

func counter(t testing.TB) TokenCounter {
	c, err := sharedCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const scenarioYAML = `name: demo
tools: [{name: read_file, description: Read a file}]
requests:
  - user: read it
    planning: {need_tool: true, content: reading}
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a}, result: "text"}]
      - content: done
`

// skillsRoot makes a folder with one good skill, one broken one and a
// scenario.
func skillsRoot(t *testing.T) string {
	root := t.TempDir()
	write(t, filepath.Join(root, "files/hooks/hooks.json"), `{"hooks": [
  {"name": "hint", "file": "hint.md", "timing": "after_tool_call", "role": "system", "persistent": false, "tool_filter": ["read_file"]},
  {"name": "ctx", "file": "ctx.md", "timing": "after_user_input", "role": "system", "persistent": false}
]}`)
	write(t, filepath.Join(root, "files/hooks/hint.md"), "Output may be truncated.")
	write(t, filepath.Join(root, "files/hooks/ctx.md"), "Be brief.")
	write(t, filepath.Join(root, "files/scenarios/demo.yaml"), scenarioYAML)
	write(t, filepath.Join(root, "broken/hooks/hooks.json"), `{"hooks": [{"name": "x", "file": "x.md", "timing": "sometimes", "role": "system", "persistent": false}]}`)
	return root
}

// appHooks is the app's hook systems as main.go wires them: the registry
// (with the settings' request policy, nil: none) and its loader (with the
// settings' user-level files, nil: none).
func appHooks(policy *RequestPolicySetting, user *UserHooksSetting) (*registry.Registry, ExecLoader) {
	reg := hooksets.Registry(hooksets.RegistryOptions{ReuseResults: true, Policy: policy.Policy})
	return reg, HooksetsLoader(reg, user)
}

// appHooksOn gives newService the app's hook systems.
func appHooksOn(cfg *Config) { *cfg = withAppHooks(*cfg, nil, nil) }

// withAppHooks is cfg with appHooks.
func withAppHooks(cfg Config, policy *RequestPolicySetting, user *UserHooksSetting) Config {
	cfg.Hooks, cfg.ExecHooks = appHooks(policy, user)
	return cfg
}

// newService is a started service; with changes to its config (appHooks).
func newService(t *testing.T, with ...func(*Config)) (*Service, *recorder, context.Context) {
	t.Helper()
	rec := &recorder{}
	cfg := Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit}
	for _, f := range with {
		f(&cfg)
	}
	s, err := New(cfg)
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

func TestOpenSimulatesFirstScenario(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	st, err := s.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if st.Selected != "files/scenarios/demo.yaml" || len(st.Skills) != 2 || st.Errors == 0 {
		t.Fatalf("state = %+v", st)
	}
	if !st.Skills[0].Broken || st.Skills[1].Broken || st.Skills[1].Color == "" {
		t.Errorf("broken flags: %+v", st.Skills)
	}
	v := s.Trace()
	if v.Status != "ok" || len(v.Calls) != 3 {
		t.Fatalf("view status %s with %d calls", v.Status, len(v.Calls))
	}
	// The broken skill does not stop the good one: its hook is in the run.
	if got := v.Matrix.Copies[0]; v.Matrix.Hooks[0] != "files/hint" || got[2] != 1 || got[1] != 0 {
		t.Errorf("matrix row %s = %v", v.Matrix.Hooks[0], got)
	}
	for _, c := range v.Calls {
		if c.Tokens <= 0 {
			t.Errorf("call %d has %d tokens", c.Index, c.Tokens)
		}
	}
	if st := s.State(); len(st.Recent) != 1 || st.Recent[0] != root {
		t.Errorf("recent = %v", st.Recent)
	}
}

func TestOpenErrors(t *testing.T) {
	s, _, ctx := newService(t)
	file := filepath.Join(t.TempDir(), "f")
	write(t, file, "x")
	for _, p := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		if _, err := s.Open(ctx, p); err == nil {
			t.Errorf("Open(%s) succeeded", p)
		}
	}
}

func TestSaveResimulatesWithChanges(t *testing.T) {
	s, rec, ctx := newService(t)
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	rev := s.Trace().Revision
	from := rec.len()
	write(t, filepath.Join(root, "files/hooks/hint.md"), "Output may be truncated; read again with an offset.")
	e := rec.waitFor(t, from, func(e event) bool { return e.name == EventTrace && e.payload.(TraceView).Revision > rev })
	v := e.payload.(TraceView)
	if len(v.Changes) != 1 || v.Changes[0].Call != 2 || v.Changes[0].Changed != 1 {
		t.Errorf("changes = %+v, want call 2 with one changed message", v.Changes)
	}
	msgs := v.Messages
	found := false
	for _, m := range msgs {
		found = found || strings.Contains(m.Content, "with an offset")
	}
	if !found {
		t.Error("the new hook text is not in the trace")
	}
}

// The frontend keeps the newest State it was given, by Seq: an answer
// taken before an event must have the smaller one.
func TestStateSeqOrdersSnapshots(t *testing.T) {
	s, rec, ctx := newService(t)
	root := skillsRoot(t)
	opened, err := s.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	answer := s.State()
	if answer.Seq <= opened.Seq {
		t.Fatalf("State().Seq = %d after Open's %d", answer.Seq, opened.Seq)
	}
	from := rec.len()
	write(t, filepath.Join(root, "files/hooks/hooks.json"), `{"hooks": []}`)
	e := rec.waitFor(t, from, func(e event) bool { return e.name == EventState })
	if got := e.payload.(State).Seq; got <= answer.Seq {
		t.Errorf("the reload's state has Seq %d, not after the earlier answer's %d", got, answer.Seq)
	}
}

func TestSkillToggle(t *testing.T) {
	s, _, ctx := newService(t)
	if _, err := s.Open(ctx, skillsRoot(t)); err != nil {
		t.Fatal(err)
	}
	v, err := s.SetSkillEnabled(ctx, "files", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Hooks) != 0 || len(v.Changes) == 0 {
		t.Errorf("after disabling: %d hooks, changes %+v", len(v.Hooks), v.Changes)
	}
	if _, err := s.SetSkillEnabled(ctx, "nope", false); err == nil {
		t.Error("unknown skill accepted")
	}
	if st := s.State(); st.Skills[1].Enabled {
		t.Error("skill still shown enabled")
	}
}

func TestInvalidScenarioShowsDiagnostics(t *testing.T) {
	s, rec, ctx := newService(t)
	root := skillsRoot(t)
	write(t, filepath.Join(root, "files/scenarios/bad.yaml"), "name: bad\nrequests:\n  - user: [1, 2]\n")
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	v, err := s.Select(ctx, "files/scenarios/bad.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != "invalid" || len(v.Diagnostics) == 0 || v.Diagnostics[0].Line != 3 {
		t.Errorf("view = %s %+v", v.Status, v.Diagnostics)
	}
	_ = from
	if _, err := s.Select(ctx, "nope.yaml"); err == nil {
		t.Error("unknown scenario accepted")
	}
}

func TestRootRemovedAndRestored(t *testing.T) {
	s, rec, ctx := newService(t)
	parent := t.TempDir()
	root := filepath.Join(parent, "skills")
	if err := os.Rename(skillsRoot(t), root); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	aside := filepath.Join(parent, "aside")
	if err := os.Rename(root, aside); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, from, func(e event) bool { return e.name == EventState && e.payload.(State).RootMissing })
	if v := s.Trace(); v.Status != "ok" || len(v.Calls) != 3 {
		t.Errorf("last good trace lost: %s, %d calls", v.Status, len(v.Calls))
	}
	from = rec.len()
	if err := os.Rename(aside, root); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, from, func(e event) bool { return e.name == EventState && !e.payload.(State).RootMissing })
}

func TestStartOpensExamplesOnce(t *testing.T) {
	examples := fstest.MapFS{
		"demo/hooks/hooks.json": {Data: []byte(`{"hooks": []}`)},
		"demo/scenarios/s.yaml": {Data: []byte(scenarioYAML)},
		"examples.go":           {Data: []byte("package examples")},
	}
	data := t.TempDir()
	start := func() *Service {
		s, err := New(Config{DataDir: data, Tokens: counter(t), Emit: func(string, any) {}, Examples: examples})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(func() { cancel(); s.Close() })
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := start()
	if st := s.State(); st.Root != s.ExamplesDir() || st.Selected != "demo/scenarios/s.yaml" {
		t.Fatalf("first start state = %+v", st)
	}
	if _, err := os.Stat(filepath.Join(s.ExamplesDir(), "examples.go")); err == nil {
		t.Error("the embedding Go file was copied")
	}
	// The user's edit survives a restart: examples are copied once.
	write(t, filepath.Join(s.ExamplesDir(), "demo/hooks/hooks.json"), `{"hooks": [], "edited": true}`)
	s.Close()
	s2 := start()
	data2, _ := os.ReadFile(filepath.Join(s2.ExamplesDir(), "demo/hooks/hooks.json"))
	if !strings.Contains(string(data2), "edited") {
		t.Error("restart overwrote the user's copy of the examples")
	}
}

func TestDraftsPreviewWithoutSaving(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	v, err := s.SetDraft(ctx, "files/hooks/hint.md", "Unsaved hint text.")
	if err != nil {
		t.Fatal(err)
	}
	if !v.Draft || len(v.Changes) != 1 || v.Changes[0].Call != 2 {
		t.Errorf("draft view: draft=%v changes=%+v", v.Draft, v.Changes)
	}
	if st := s.State(); len(st.Drafts) != 1 || st.Drafts[0] != "files/hooks/hint.md" {
		t.Errorf("drafts in state = %v", st.Drafts)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "files/hooks/hint.md")); string(data) != "Output may be truncated." {
		t.Errorf("the draft was written to disk: %q", data)
	}
	// A save of another file keeps the draft on top of the disk.
	s.Reload(ctx)
	if !s.Trace().Draft {
		t.Error("reload dropped the draft")
	}
	v, _ = s.DiscardDraft(ctx, "files/hooks/hint.md")
	if v.Draft || len(s.State().Drafts) != 0 {
		t.Error("discard kept the draft")
	}
	// a draft that is the file on disk (a late call after a save) is none
	s.SetDraft(ctx, "files/hooks/hint.md", "Unsaved again.")
	if v, _ = s.SetDraft(ctx, "files/hooks/hint.md", "Output may be truncated."); v.Draft || len(s.State().Drafts) != 0 {
		t.Errorf("a draft equal to the disk kept: draft=%v drafts=%v", v.Draft, s.State().Drafts)
	}
	for _, bad := range []string{"../x.md", "/etc/passwd", "files/scenarios/demo.yaml", "files/hint.md"} {
		if _, err := s.SetDraft(ctx, bad, "x"); !errors.Is(err, ErrNotHookFile) {
			t.Errorf("SetDraft(%q) err = %v", bad, err)
		}
	}
}

type fakeRecorder struct {
	mu   sync.Mutex
	runs []history.RunInput
}

func (f *fakeRecorder) SaveRun(_ context.Context, in history.RunInput) (history.RunID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append(f.runs, in)
	return history.RunID(len(f.runs)), nil
}

func (f *fakeRecorder) count() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.runs) }

func TestRunsAreRecordedButNotDrafts(t *testing.T) {
	rec := &fakeRecorder{}
	ev := &recorder{}
	s, err := New(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: ev.emit, History: rec})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, skillsRoot(t)); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 1 || rec.runs[0].Source != history.SourceLive || len(rec.runs[0].ScenarioData) == 0 || rec.runs[0].Trace == nil {
		t.Fatalf("after open: %d runs %+v", rec.count(), rec.runs)
	}
	if _, err := s.SetDraft(ctx, "files/hooks/hint.md", "draft"); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 1 {
		t.Error("a draft preview was recorded")
	}
	if _, err := s.DiscardDraft(ctx, "files/hooks/hint.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetSkillEnabled(ctx, "files", false); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 3 {
		t.Errorf("runs recorded = %d, want 3", rec.count())
	}
	ev.waitFor(t, 0, func(e event) bool { return e.name == EventRun })
}

// Issue 25: the scenario picker's diagnostics accept a Claude Code skill in
// enabled_skills, and say why a project folder cannot be listed.
func TestScenarioEnablesClaudeCodeSkill(t *testing.T) {
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: (&recorder{}).emit}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	t.Cleanup(s.Close)
	root := t.TempDir()
	write(t, filepath.Join(root, ".claude/skills/guard/SKILL.md"), "---\nname: guard\ndescription: Guard.\n---\nGuard.\n")
	write(t, filepath.Join(root, "src/main.go"), "package main\n")
	write(t, filepath.Join(root, ".hookstudio/scenarios/a.yaml"), "name: a\nenabled_skills: [guard]\nrequests:\n  - user: hi\n    reply: hello\n")
	write(t, filepath.Join(root, ".hookstudio/scenarios/b.yaml"), "name: b\nrequests:\n  - user: hi\n    enabled_skills: [guard, src]\n    reply: hello\n")
	st, err := s.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, sc := range st.Scenarios {
		for _, d := range sc.Diagnostics {
			got[path.Base(sc.File)] = append(got[path.Base(sc.File)], fmt.Sprintf("%d:%d %s", d.Line, d.Column, d.Code))
		}
	}
	want := map[string][]string{"b.yaml": {"4:29 unknown-skill"}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("diagnostics %v, want %v", got, want)
	}
}
