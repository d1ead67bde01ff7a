// Package bind holds the thin services Wails binds to the frontend. It is
// the only package that imports the Wails runtime; the domain lives in
// app/studio and reaches the window through the small interfaces below.
package bind

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"hookstudio/app/studio"
)

// Window is what the services need from the native window.
type Window interface {
	SetTitle(title string)
	ChooseFolder(title, start string) (string, error) // "" when cancelled
}

// Studio is bound as window.go.bind.Studio. Every method is a thin call
// into the studio service.
type Studio struct {
	svc *studio.Service
	win Window

	mu  sync.Mutex
	ctx context.Context // the app's lifetime, from Startup
}

// NewStudio binds svc; win is set at Startup, when the window exists.
func NewStudio(svc *studio.Service) *Studio { return &Studio{svc: svc, ctx: context.Background()} }

// Start starts the service with the app's context and the window. It is a
// function, not a method, so that Wails does not offer it to the frontend.
func Start(ctx context.Context, s *Studio, win Window) error {
	s.mu.Lock()
	s.ctx, s.win = ctx, win
	s.mu.Unlock()
	err := s.svc.Start(ctx)
	s.title(s.svc.State())
	return err
}

// Stop stops watching.
func Stop(s *Studio) { s.svc.Close() }

func (s *Studio) context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}

func (s *Studio) title(st studio.State) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win == nil {
		return
	}
	if st.Root == "" {
		win.SetTitle("Hook Studio")
		return
	}
	win.SetTitle(fmt.Sprintf("Hook Studio — %s (%s)", filepath.Base(st.Root), st.Root))
}

// State returns the open folder, skills, scenarios and selection.
func (s *Studio) State() (studio.State, error) { return s.svc.State(), nil }

// OpenFolder opens a skills folder by path.
func (s *Studio) OpenFolder(path string) (studio.State, error) {
	st, err := s.svc.Open(s.context(), path)
	if err != nil {
		return s.svc.State(), err
	}
	s.title(st)
	return st, nil
}

// ChooseFolder asks for a folder with the native dialog and opens it; a
// cancelled dialog leaves everything as it was.
func (s *Studio) ChooseFolder() (studio.State, error) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win == nil {
		return s.svc.State(), fmt.Errorf("no window to show the folder dialog in")
	}
	cur := s.svc.State().Root
	path, err := win.ChooseFolder("Open skills folder", filepath.Dir(cur))
	if err != nil {
		return s.svc.State(), fmt.Errorf("folder dialog: %w", err)
	}
	if path == "" {
		return s.svc.State(), nil
	}
	return s.OpenFolder(path)
}

// SelectScenario simulates a scenario (path relative to the folder).
func (s *Studio) SelectScenario(file string) (studio.TraceView, error) {
	return s.svc.Select(s.context(), file)
}

// SetSkillEnabled includes or leaves out a skill in the simulation.
func (s *Studio) SetSkillEnabled(skill string, enabled bool) (studio.TraceView, error) {
	return s.svc.SetSkillEnabled(s.context(), skill, enabled)
}

// Trace returns the current simulation.
func (s *Studio) Trace() (studio.TraceView, error) { return s.svc.Trace(), nil }

// SetDraft simulates unsaved text of a hook file without writing it.
func (s *Studio) SetDraft(file, content string) (studio.TraceView, error) {
	return s.svc.SetDraft(s.context(), file, content)
}

// DiscardDraft drops a file's unsaved text from the simulation.
func (s *Studio) DiscardDraft(file string) (studio.TraceView, error) {
	return s.svc.DiscardDraft(s.context(), file)
}
