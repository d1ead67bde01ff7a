package bind

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/services/studio"
)

type fakeWindow struct {
	mu     sync.Mutex
	title  string
	choose string // folder dialog answer
	save   string // save dialog answer
	open   string // open dialog answer
	quit   bool   // answer to Confirm
	asked  int
	err    error
}

func (w *fakeWindow) SetTitle(t string) { w.mu.Lock(); w.title = t; w.mu.Unlock() }
func (w *fakeWindow) ChooseFolder(string, string) (string, error) {
	return w.choose, w.err
}
func (w *fakeWindow) ChooseSaveFile(string, string) (string, error) { return w.save, w.err }
func (w *fakeWindow) ChooseFile(string, string) (string, error)     { return w.open, w.err }
func (w *fakeWindow) Confirm(string, string) (bool, error) {
	w.asked++
	return w.quit, w.err
}

type fakeEmitter struct {
	mu     sync.Mutex
	events []string
}

func (e *fakeEmitter) emit(name string, _ any) {
	e.mu.Lock()
	e.events = append(e.events, name)
	e.mu.Unlock()
}

func skillsFolder(t *testing.T) string {
	root := t.TempDir()
	files := map[string]string{
		"s/hooks/hooks.json":     `{"hooks": [{"name": "h", "file": "h.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`,
		"s/hooks/h.md":           "Be brief.",
		"s/scenarios/demo.yaml":  "name: demo\nrequests:\n  - user: hi\n    reply: hello\n",
		"s/scenarios/other.yaml": "name: other\nrequests:\n  - user: again\n    reply: yes\n",
	}
	for p, c := range files {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func newStudio(t *testing.T) (*Studio, *fakeWindow, *fakeEmitter) {
	t.Helper()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	em := &fakeEmitter{}
	svc, err := studio.New(studio.Config{DataDir: t.TempDir(), Tokens: counter, Emit: em.emit})
	if err != nil {
		t.Fatal(err)
	}
	s := NewStudio(svc)
	win := &fakeWindow{}
	ctx, cancel := context.WithCancel(context.Background())
	if err := Start(ctx, s, win); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); Stop(s) })
	return s, win, em
}

func TestStudioBinding(t *testing.T) {
	s, win, em := newStudio(t)
	if win.title != "Hook Studio" {
		t.Errorf("title before a folder = %q", win.title)
	}
	root := skillsFolder(t)
	st, err := s.OpenFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(win.title, root) || st.Selected != "s/scenarios/demo.yaml" {
		t.Errorf("title %q, selected %q", win.title, st.Selected)
	}
	em.mu.Lock()
	got := strings.Join(em.events, ",")
	em.mu.Unlock()
	if !strings.Contains(got, studio.EventState) || !strings.Contains(got, studio.EventTrace) {
		t.Errorf("events after open: %s", got)
	}
	v, err := s.SelectScenario("s/scenarios/other.yaml")
	if err != nil || v.Scenario != "other" || len(v.Calls) != 1 {
		t.Fatalf("select: %v %+v", err, v.Scenario)
	}
	if tr, _ := s.Trace(); tr.Revision != v.Revision {
		t.Errorf("Trace() revision %d, want %d", tr.Revision, v.Revision)
	}
	v, err = s.SetSkillEnabled("s", false)
	if err != nil || len(v.Hooks) != 0 {
		t.Errorf("disable: %v, %d hooks", err, len(v.Hooks))
	}
	if _, err := s.OpenFolder(filepath.Join(root, "missing")); err == nil {
		t.Error("opening a missing folder succeeded")
	}
	if st, _ := s.State(); st.Root != root {
		t.Errorf("a failed open changed the folder to %q", st.Root)
	}
}

func TestChooseFolder(t *testing.T) {
	s, win, _ := newStudio(t)
	root := skillsFolder(t)
	// Cancelled: nothing changes.
	st, err := s.ChooseFolder()
	if err != nil || st.Root != "" {
		t.Errorf("cancelled dialog: %v, root %q", err, st.Root)
	}
	win.choose = root
	if st, err = s.ChooseFolder(); err != nil || st.Root != root {
		t.Errorf("chosen: %v, root %q", err, st.Root)
	}
	win.err = errors.New("no portal")
	if _, err := s.ChooseFolder(); err == nil {
		t.Error("dialog error swallowed")
	}
}

func TestEditorBinding(t *testing.T) {
	s, win, _ := newStudio(t)
	root := skillsFolder(t)
	if _, err := s.OpenFolder(root); err != nil {
		t.Fatal(err)
	}
	// Close without drafts: no question.
	if BeforeClose(s) || win.asked != 0 {
		t.Fatal("asked to close without unsaved changes")
	}
	if _, err := s.SetDraft("s/hooks/h.md", "draft"); err != nil {
		t.Fatal(err)
	}
	win.quit = false
	if !BeforeClose(s) || win.asked != 1 {
		t.Error("closing with a draft did not ask, or did not keep the window")
	}
	win.quit = true
	if BeforeClose(s) {
		t.Error("the user said quit, the window stayed")
	}

	// Export as zip through the save dialog, then import it into another folder.
	zipPath := filepath.Join(t.TempDir(), "s.zip")
	win.save = zipPath
	got, err := s.ExportSkill("s", true)
	if err != nil || got != zipPath {
		t.Fatalf("export: %q, %v", got, err)
	}
	other := t.TempDir()
	if _, err := s.OpenFolder(other); err != nil {
		t.Fatal(err)
	}
	win.open = zipPath
	st, err := s.ImportSkills()
	if err != nil || len(st.Skills) != 1 || st.Skills[0].Name != "s" || st.Errors != 0 {
		t.Fatalf("import: %v %+v", err, st.Skills)
	}
	win.save = ""
	if p, err := s.ExportSkill("s", true); err != nil || p != "" {
		t.Errorf("cancelled export: %q %v", p, err)
	}
	if text, err := s.HooksJSONText("s"); err != nil || !strings.Contains(text, `"$schema"`) {
		t.Errorf("hooks.json text: %v %q", err, text)
	}
	if sch, _ := s.HooksSchema(); !strings.Contains(sch, "after_tool_call") {
		t.Error("schema not served")
	}
}

func TestTrustBinding(t *testing.T) {
	s, _, _ := newStudio(t)
	root := skillsFolder(t)
	if err := os.WriteFile(filepath.Join(root, "s/hooks/hooks.yaml"), []byte("stop:\n  - command: ./check.sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := s.OpenFolder(root)
	if err != nil || !st.Exec.Present || st.Exec.Trusted {
		t.Fatalf("open: %v %+v", err, st.Exec)
	}
	if st, err = s.TrustFolder(); err != nil || !st.Exec.Trusted {
		t.Fatalf("trust: %v %+v", err, st.Exec)
	}
	if st, err = s.UntrustFolder(); err != nil || st.Exec.Trusted {
		t.Fatalf("untrust: %v %+v", err, st.Exec)
	}
	if p, err := s.Progress(); err != nil || p.Active {
		t.Errorf("progress with nothing running: %+v %v", p, err)
	}
	if err := s.CancelSimulation(); !errors.Is(err, studio.ErrNoSimulation) {
		t.Errorf("cancel with nothing running: %v", err)
	}
}
