// Package bind holds the thin services Wails binds to the frontend. It is
// the only package that imports the Wails runtime; the domain lives in
// app/services/studio and reaches the window through the small interfaces below.
package bind

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/services/edit"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/profiles"
	"hookstudio/schema"
)

// Window is what the services need from the native window. Dialogs
// return "" when cancelled.
type Window interface {
	SetTitle(title string)
	ChooseFolder(title, start string) (string, error)
	ChooseSaveFile(title, name string) (string, error)
	ChooseFile(title, pattern string) (string, error)
	Confirm(title, message string) (bool, error)
}

// Studio is bound as window.go.bind.Studio. Every method is a thin call
// into the studio service.
type Studio struct {
	svc  *studio.Service
	win  Window
	user *studio.UserHooksSetting // the settings' user-level hooks.yaml (nil: none)
	// agents is the agent CLI version runs render as (nil: none kept; agents.go)
	agents *studio.AgentsSetting

	mu  sync.Mutex
	ctx context.Context // the app's lifetime, from Startup
}

// NewStudio binds svc; win is set at Startup, when the window exists.
func NewStudio(svc *studio.Service) *Studio { return &Studio{svc: svc, ctx: context.Background()} }

// UseUserHooks gives s the user-level hooks setting the loader reads. A
// function, not a method, so that Wails does not offer it to the frontend.
func UseUserHooks(s *Studio, u *studio.UserHooksSetting) { s.user = u }

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

// BeforeClose asks before the window closes with unsaved edits; it reports
// whether to keep the window open.
func BeforeClose(s *Studio) bool {
	drafts := s.svc.State().Drafts
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if len(drafts) == 0 || win == nil {
		return false
	}
	quit, err := win.Confirm("Unsaved changes",
		fmt.Sprintf("%d file(s) have unsaved changes:\n%s\n\nQuit and lose them?", len(drafts), strings.Join(drafts, "\n")))
	return err != nil || !quit
}

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

// CallBody is the request body call c of the simulation at revision sends,
// in its agent's API's shape, indented.
func (s *Studio) CallBody(revision, call int) (string, error) { return s.svc.CallBody(revision, call) }

// SetDraft simulates unsaved text of a hook file without writing it.
func (s *Studio) SetDraft(file, content string) (studio.TraceView, error) {
	return s.svc.SetDraft(s.context(), file, content)
}

// DiscardDraft drops a file's unsaved text from the simulation.
func (s *Studio) DiscardDraft(file string) (studio.TraceView, error) {
	return s.svc.DiscardDraft(s.context(), file)
}

// TrustFolder lets the open folder's executable hooks run (exactly the
// commands State lists) and simulates again with them.
func (s *Studio) TrustFolder() (studio.State, error) { return s.svc.TrustFolder(s.context()) }

// UntrustFolder forgets the open folder's trust: prompt hooks only.
func (s *Studio) UntrustFolder() (studio.State, error) { return s.svc.UntrustFolder(s.context()) }

// HostBehaviour is what the folder's hosted hook systems follow where a
// program's code and its document disagree: "code" (default) or "document".
func (s *Studio) HostBehaviour() (string, error) { return s.svc.HostBehaviour() }

// SetHostBehaviour writes the folder's setting and simulates again.
func (s *Studio) SetHostBehaviour(mode string) (studio.State, error) {
	return s.svc.SetHostBehaviour(s.context(), mode)
}

// CancelSimulation stops the simulation running in the background.
func (s *Studio) CancelSimulation() error { return s.svc.CancelSimulation() }

// Progress is the background simulation's progress.
func (s *Studio) Progress() (studio.Progress, error) { return s.svc.Progress(), nil }

// OpenFile reads a skill's file as it is on disk.
func (s *Studio) OpenFile(file string) (studio.FileSnapshot, error) { return s.svc.OpenFile(file) }

// InspectHooks parses a hooks.json text for the form.
func (s *Studio) InspectHooks(file, text string) (studio.HooksEdit, error) {
	return studio.InspectHooks(file, text), nil
}

// EditHooks applies one operation to a hooks.json text.
func (s *Studio) EditHooks(file, text string, op studio.HookOp) (studio.HooksEdit, error) {
	return studio.EditHooks(file, text, op)
}

// SaveFile saves atomically unless the disk changed since baseHash.
func (s *Studio) SaveFile(file, text, baseHash string) (studio.SaveResult, error) {
	return s.svc.SaveFile(s.context(), file, text, baseHash)
}

// AddExpectation writes an expectation about message (an id of the
// current view) as LLM call call (from 0) receives it into the selected
// scenario's file, saved atomically; the reload shows its result.
func (s *Studio) AddExpectation(call, message int) (studio.SaveResult, error) {
	return s.svc.AddExpectation(s.context(), call, message)
}

// MergeFile merges my edits with the disk's.
func (s *Studio) MergeFile(file, base, mine, theirs string) (studio.MergeResult, error) {
	return studio.MergeFile(file, base, mine, theirs)
}

// CreateSkill makes a new skill with an empty hooks.json.
func (s *Studio) CreateSkill(name string) (studio.State, error) {
	return s.svc.CreateSkill(s.context(), name)
}

// ExportSkill asks where to and writes the skill as a .zip or a folder; it
// returns the path, or "" when cancelled.
func (s *Studio) ExportSkill(skill string, zip bool) (string, error) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win == nil {
		return "", fmt.Errorf("no window to show the save dialog in")
	}
	var dest string
	var err error
	if zip {
		// a project's .claude is offered as claude.zip: a hidden name would hide the export
		dest, err = win.ChooseSaveFile("Export "+skill, strings.TrimPrefix(skill, ".")+".zip")
	} else {
		dest, err = win.ChooseFolder("Export "+skill+" into folder", "")
	}
	if err != nil || dest == "" {
		return "", err
	}
	if err := s.svc.ExportSkill(s.context(), skill, dest, zip); err != nil {
		return "", err
	}
	if !zip {
		// the export is the skill's folder inside the one chosen (edit.ExportSkillDir)
		return filepath.Join(dest, skill), nil
	}
	return dest, nil
}

// HooksJSONText is a skill's hooks.json in canonical form, for copying.
func (s *Studio) HooksJSONText(skill string) (string, error) { return s.svc.HooksJSONText(skill) }

// ImportSkills asks for a .zip or a hooks.json and installs it after
// validating everything.
func (s *Studio) ImportSkills() (studio.State, error) {
	s.mu.Lock()
	win := s.win
	s.mu.Unlock()
	if win == nil {
		return s.svc.State(), fmt.Errorf("no window to show the open dialog in")
	}
	file, err := win.ChooseFile("Import skills (.zip or hooks.json)", "*.zip;*.json")
	if err != nil || file == "" {
		return s.svc.State(), err
	}
	return s.svc.Import(s.context(), file)
}

// HooksSchema is the JSON Schema of hooks.json, for the raw view.
func (s *Studio) HooksSchema() (string, error) { return schema.Hooks, nil }

// ConfigSchema is the JSON Schema of a kind of hook config (FileKinds:
// hooks-json, hooks-yaml, picoclaw, request-hooks, …), for completion.
func (s *Studio) ConfigSchema(kind string) (string, error) {
	if sch, ok := s.svc.Hooks().Schema(kind); ok {
		return sch, nil
	}
	return "", fmt.Errorf("no schema for %q", kind)
}

// FileKinds are the kinds of files the hook systems read, with the
// patterns that tell them (regular expressions over root-relative paths,
// tried in order); a kind only the folder can tell has none, and the
// file's HookFile.kind says it.
func (s *Studio) FileKinds() ([]registry.FileKind, error) { return s.svc.Hooks().FileKinds(), nil }

// HookSystems are the hook systems the app hosts, as its badges name them.
func (s *Studio) HookSystems() ([]registry.SystemInfo, error) { return s.svc.Hooks().Infos(), nil }

// UserHooksFile is the settings' user-level jcli hooks.yaml ("" none).
func (s *Studio) UserHooksFile() (string, error) { return s.user.Get(), nil }

// SetUserHooksFile changes the user-level hooks.yaml ("" none) and
// re-reads the folder: its commands join the trust prompt.
func (s *Studio) SetUserHooksFile(file string) (studio.State, error) {
	if s.user == nil {
		return s.svc.State(), fmt.Errorf("this build has no user hooks setting")
	}
	if err := s.user.Set(file); err != nil {
		return s.svc.State(), err
	}
	s.svc.Reload(s.context())
	return s.svc.State(), nil
}

// ClaudeUserSettings is the settings' Claude Code user-level
// settings.json ("" none).
func (s *Studio) ClaudeUserSettings() (string, error) { return s.user.Claude(), nil }

// SetClaudeUserSettings changes Claude Code's user-level settings.json
// ("" none) and re-reads the folder: its hooks' commands join the trust
// prompt.
func (s *Studio) SetClaudeUserSettings(file string) (studio.State, error) {
	if s.user == nil {
		return s.svc.State(), fmt.Errorf("this build has no user hooks setting")
	}
	if err := s.user.SetClaude(file); err != nil {
		return s.svc.State(), err
	}
	s.svc.Reload(s.context())
	return s.svc.State(), nil
}

// UserFiles are the agent CLIs' user-level hook files (Gemini CLI's
// settings.json, Copilot CLI's hooks folder) the settings name.
func (s *Studio) UserFiles() ([]studio.UserFile, error) { return s.user.UserFiles(s.svc.Hooks()), nil }

// SetUserFile changes an agent CLI's user-level hook file or folder ("" none)
// and re-reads the folder: its hooks' commands join the trust prompt.
func (s *Studio) SetUserFile(system, file string) (studio.State, error) {
	if s.user == nil {
		return s.svc.State(), fmt.Errorf("this build has no user hooks setting")
	}
	if err := s.user.SetUserFile(s.svc.Hooks(), system, file); err != nil {
		return s.svc.State(), err
	}
	s.svc.Reload(s.context())
	return s.svc.State(), nil
}

// LintFile validates a hook file's text (hooks.json, hooks.yaml,
// picoclaw.json, request-hooks.yaml) with positioned diagnostics.
func (s *Studio) LintFile(file, text string) ([]diag.Diagnostic, error) {
	return s.svc.LintFile(s.context(), file, text), nil
}

// NewHookFiles are the hook systems' starter files the open folder lacks
// (.codex/hooks.json, .gemini/settings.json, …), for the editor's offer.
func (s *Studio) NewHookFiles() ([]registry.NewFile, error) { return s.svc.NewHookFiles() }

// CreateHookFile creates one of NewHookFiles with its starter text, never
// over an existing file, and returns it as OpenFile reads it.
func (s *Studio) CreateHookFile(file string) (studio.FileSnapshot, error) {
	return s.svc.CreateHookFile(s.context(), file)
}

// HookFiles lists the files of a skill's hooks/ folder and the root's
// hook configs, for the editor.
func (s *Studio) HookFiles(skill string) ([]studio.HookFile, error) { return s.svc.HookFiles(skill) }

// InspectCommandHooks parses a hooks.yaml text for the form.
func (s *Studio) InspectCommandHooks(file, text string) (studio.CommandHooksEdit, error) {
	return s.svc.InspectCommandHooks(s.context(), file, text), nil
}

// EditCommandHooks applies one form edit to a hooks.yaml text.
func (s *Studio) EditCommandHooks(file, text string, op edit.CommandHookOp) (studio.CommandHooksEdit, error) {
	return s.svc.EditCommandHooks(s.context(), file, text, op)
}

// InspectClaudeHooks parses a Claude Code settings.json, plugin
// hooks.json or SKILL.md text for the form.
func (s *Studio) InspectClaudeHooks(file, text string) (studio.ClaudeHooksEdit, error) {
	return s.svc.InspectClaudeHooks(s.context(), file, text), nil
}

// EditClaudeHooks writes the form's hooks (a JSON object of events) into
// a Claude Code text, the rest of it as written.
func (s *Studio) EditClaudeHooks(file, text, hooks string) (studio.ClaudeHooksEdit, error) {
	return s.svc.EditClaudeHooks(s.context(), file, text, json.RawMessage(hooks))
}

// Profiles lists endpoint profiles with where each key comes from.
func (s *Studio) Profiles() ([]studio.ProfileInfo, error) {
	ps := s.svc.Profiles()
	list, err := ps.List()
	out := make([]studio.ProfileInfo, 0, len(list))
	for _, p := range list {
		out = append(out, studio.ProfileInfo{Profile: p, KeySource: ps.KeySource(p)})
	}
	return out, err
}

// SaveProfile adds or replaces a profile; a non-empty key goes to the OS
// keyring, never to a file.
func (s *Studio) SaveProfile(p profiles.Profile, key string) error {
	ps := s.svc.Profiles()
	if err := ps.Put(p); err != nil {
		return err
	}
	if key != "" {
		return ps.SetKey(p, key)
	}
	return nil
}

// DeleteProfile removes a profile and its key.
func (s *Studio) DeleteProfile(name string) error { return s.svc.Profiles().Delete(name) }

// TestConnection sends one minimal request with the profile.
func (s *Studio) TestConnection(name string) (profiles.Result, error) {
	ps := s.svc.Profiles()
	p, err := ps.Get(name)
	if err != nil {
		return profiles.Result{}, err
	}
	return ps.TestConnection(s.context(), p), nil
}

// StartRun runs the selected scenario against a real model.
func (s *Studio) StartRun(opts studio.RunOptions) error { return s.svc.StartRun(opts) }

// Resume continues a paused run; step pauses again before the next call.
func (s *Studio) Resume(step bool) error { return s.svc.Resume(step) }

// AnswerTool gives the result of the tool call the run waits for.
func (s *Studio) AnswerTool(result string) error { return s.svc.AnswerTool(result) }

// CancelRun stops the run and its request in flight.
func (s *Studio) CancelRun() error { return s.svc.CancelRun() }

// SaveRunAsScenario turns the last real run into a mock scenario file.
func (s *Studio) SaveRunAsScenario() (string, error) { return s.svc.SaveRunAsScenario(s.context()) }
