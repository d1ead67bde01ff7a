// Package studio is the desktop app's domain: the open skills folder, its
// watcher, the selected scenario and the simulation the frontend shows. It
// never imports the Wails runtime; events leave through Config.Emit.
package studio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/expect"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/platform/watch"
	"hookstudio/app/services/runs"
	"hookstudio/app/store/history"
	"hookstudio/app/store/profiles"
	"hookstudio/app/store/trust"
)

// Event names, namespaced so later services can add their own.
const (
	EventState = "studio:state"
	EventTrace = "studio:trace"
)

// Config is what the service needs from its host.
type Config struct {
	DataDir  string // settings and the editable copy of the example skills
	Examples fs.FS  // the example skills shipped in the binary
	Tokens   TokenCounter
	Emit     func(event string, payload any)
	// Debounce is how long a path must be quiet before a reload; small,
	// because the user is waiting to see the effect of a save.
	Debounce time.Duration
	// History, if set, keeps every simulation (not draft previews).
	History Recorder
	// Profiles overrides where endpoint profiles and keys come from (tests).
	Profiles *profiles.Store
	// Hooks is the hook systems' registry: which files are whose, their
	// kinds and schemas, what trust covers, which hidden folders are
	// watched. nil: every system Hook Studio hosts, with default settings.
	Hooks *registry.Registry
	// ExecHooks loads a folder's executable hooks (command, process and
	// request hooks); nil runs prompt hooks only.
	ExecHooks ExecLoader
	// Agents is which agent CLI version runs render hook output as, and the
	// profiles known (nil: the bundled ones, the newest for each agent).
	Agents *AgentsSetting
	// Trust overrides where the trusted folders are kept (tests).
	Trust *trust.Store
	// LoadSkills loads seed 000's prompt hooks (the skills), drafts laid
	// over the files; nil: skills.LoadDrafts.
	LoadSkills func(ctx context.Context, root string, drafts map[string][]byte) (*skills.Set, error)
}

// Recorder stores runs.
type Recorder interface {
	SaveRun(ctx context.Context, in history.RunInput) (history.RunID, error)
}

// EventRun announces a run stored in the history.
const EventRun = "history:run"

// SkillInfo is a skill as the skills panel shows it.
type SkillInfo struct {
	skills.Skill
	Enabled bool   `json:"enabled"`
	Color   string `json:"color"`
}

// ScenarioInfo is an entry of the scenario picker.
type ScenarioInfo struct {
	File        string            `json:"file"`
	Name        string            `json:"name"`
	Requests    int               `json:"requests"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Valid       bool              `json:"valid"`
}

// State is everything the frontend shows besides the trace.
type State struct {
	Root        string         `json:"root"`
	RootMissing bool           `json:"root_missing"`
	Recent      []string       `json:"recent"`
	Skills      []SkillInfo    `json:"skills"`
	Scenarios   []ScenarioInfo `json:"scenarios"`
	Selected    string         `json:"selected"`
	Errors      int            `json:"errors"`
	Warnings    int            `json:"warnings"`
	// Diagnostics are the folder's own problems, not a skill's or a
	// scenario's (those sit on SkillInfo and ScenarioInfo); Errors and
	// Warnings count all of them.
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Notice      string            `json:"notice,omitempty"` // a problem worth telling, e.g. damaged settings
	// Drafts are the files with unsaved edits, which the simulation shows.
	Drafts []string `json:"drafts"`
	// Exec is the folder's executable hooks and whether it is trusted to
	// run them.
	Exec ExecState `json:"exec"`
	// Seq orders the snapshots (it grows with each one): a call's answer
	// can reach the frontend after the event of a newer one, which it keeps.
	Seq int64 `json:"seq"`
}

type loadedScenario struct {
	info ScenarioInfo
	sc   *scenario.Scenario
}

// Service holds the open folder and the current simulation. Its methods are
// safe for concurrent use: the frontend and the watcher both call in.
type Service struct {
	cfg Config

	mu          sync.Mutex
	settings    settings
	notice      string
	root        string
	set         *skills.Set
	rootMissing bool
	scenarios   []loadedScenario
	selected    string
	disabled    map[string]bool
	drafts      map[string][]byte // unsaved editor text by root-relative path
	view        TraceView
	pending     *history.RunInput // the last simulation, to record once emitted
	run         *realRun          // a run against a real model, if one is going
	lastRun     *realRun          // the last finished one, for "save as scenario"
	ops         *Operations       // controlled runs; real runs' events and approvals (approvals.go)
	trust       *trust.Store
	exec        execInfo // the folder's executable hooks as last loaded
	sim         *simRun  // the simulation with executable hooks running in the background
	simGen      int      // bumped by every simulation: a background run of an older one is not shown
	stateSeq    int64    // the last State's Seq

	lints     map[string]lint // what the last reload found in a file, by root-relative path (configs.go)
	own       ownWrites       // the app's own writes, whose watcher reports reload nothing
	reload    chan struct{}   // capacity 1: pending reloads coalesce
	base      context.Context // the service's lifetime, from Start: watchers outlive calls
	stop      context.CancelFunc
	stopWatch context.CancelFunc
	watchDone chan struct{}
	workers   sync.WaitGroup
}

// New returns a service; Start opens a folder and starts watching.
func New(cfg Config) (*Service, error) {
	if cfg.Emit == nil || cfg.Tokens == nil || cfg.DataDir == "" {
		return nil, errors.New("studio: Emit, Tokens and DataDir are required")
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = 20 * time.Millisecond
	}
	if cfg.Hooks == nil {
		cfg.Hooks = hooksets.Registry(hooksets.RegistryOptions{})
	}
	if cfg.LoadSkills == nil {
		cfg.LoadSkills = skills.LoadDrafts
	}
	st, err := loadSettings(filepath.Join(cfg.DataDir, "settings.json"))
	s := &Service{cfg: cfg, settings: st, disabled: map[string]bool{}, drafts: map[string][]byte{}, reload: make(chan struct{}, 1), view: emptyView("none", "", nil)}
	if err != nil {
		s.notice = err.Error()
	}
	s.trust = cfg.Trust
	if s.trust == nil {
		ts, err := trust.Open(trust.DefaultPath(cfg.DataDir))
		if err != nil {
			s.notice = err.Error()
		}
		s.trust = ts
	}
	return s, nil
}

// ExamplesDir is where the editable copy of the example skills lives.
func (s *Service) ExamplesDir() string { return filepath.Join(s.cfg.DataDir, "skills") }

// Start runs the reload worker until ctx ends or Close, and opens the most
// recent folder that still exists, else the example skills.
func (s *Service) Start(ctx context.Context) error {
	ctx, s.stop = context.WithCancel(ctx)
	s.base = ctx
	s.workers.Add(1)
	go func() {
		defer s.workers.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.reload:
				s.own.busy.Store(true)
				s.mu.Lock()
				root := s.root
				s.mu.Unlock()
				if s.own.take(root) {
					s.reloadNow(ctx)
				}
				s.own.busy.Store(false)
			}
		}
	}()
	for _, f := range s.settings.Recent {
		if fi, err := os.Stat(f); err == nil && fi.IsDir() {
			_, err := s.Open(ctx, f)
			return err
		}
	}
	if s.cfg.Examples != nil {
		if err := copyExamples(s.cfg.Examples, s.ExamplesDir()); err != nil {
			return err
		}
		_, err := s.Open(ctx, s.ExamplesDir())
		return err
	}
	return nil
}

// Close stops watching and the reload worker and waits for them.
func (s *Service) Close() {
	if s.stop != nil {
		s.stop()
	}
	s.mu.Lock()
	s.cancelSimLocked()
	s.stopWatcherLocked()
	if s.run != nil {
		s.run.cancel() // a real run ends, closing its hooks
	}
	s.mu.Unlock()
	s.workers.Wait()
}

// Open makes folder the open skills folder, watches it, and simulates the
// first valid scenario in it.
func (s *Service) Open(ctx context.Context, folder string) (State, error) {
	abs, err := filepath.Abs(folder)
	if err != nil {
		return State{}, fmt.Errorf("open %s: %w", folder, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return State{}, fmt.Errorf("open skills folder: %w", err)
	}
	if !fi.IsDir() {
		return State{}, fmt.Errorf("open skills folder: %s is a file; choose the folder that holds the skill folders", abs)
	}
	set, err := s.cfg.LoadSkills(ctx, abs, nil)
	if err != nil {
		return State{}, fmt.Errorf("open skills folder: %w", err)
	}

	s.mu.Lock()
	s.stopWatcherLocked()
	s.own.reset()
	s.lints = nil
	s.root, s.set, s.rootMissing = abs, set, false
	s.disabled = map[string]bool{}
	s.drafts = map[string][]byte{}
	s.selected = ""
	s.loadExecLocked(ctx)
	s.scanScenariosLocked(ctx)
	for _, sc := range s.scenarios {
		if sc.info.Valid {
			s.selected = sc.info.File
			break
		}
	}
	s.view = s.simulateLocked(ctx, nil)
	s.settings.remember(abs)
	if err := saveSettings(filepath.Join(s.cfg.DataDir, "settings.json"), s.settings); err != nil {
		s.notice = err.Error()
	}
	err = s.startWatcherLocked(ctx)
	st, view := s.stateLocked(), s.view
	s.mu.Unlock()

	s.cfg.Emit(EventState, st)
	s.cfg.Emit(EventTrace, view)
	s.record(ctx)
	return st, err
}

// State returns the current state.
func (s *Service) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stateLocked()
}

// Trace returns the current simulation.
func (s *Service) Trace() TraceView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view
}

// Select simulates the scenario file (relative to the root).
func (s *Service) Select(ctx context.Context, file string) (TraceView, error) {
	s.mu.Lock()
	if !slices.ContainsFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == file }) {
		v := s.view
		s.mu.Unlock()
		return v, fmt.Errorf("no scenario %q in %s", file, s.root)
	}
	s.selected = file
	s.view = s.simulateLocked(ctx, nil)
	v := s.view
	s.mu.Unlock()
	s.record(ctx)
	return v, nil
}

// SetSkillEnabled includes or leaves out a skill's hooks in the simulation.
func (s *Service) SetSkillEnabled(ctx context.Context, name string, enabled bool) (TraceView, error) {
	s.mu.Lock()
	if s.set == nil || s.set.Skill(name) == nil {
		v := s.view
		s.mu.Unlock()
		return v, fmt.Errorf("no skill %q in %s", name, s.root)
	}
	if enabled {
		delete(s.disabled, name)
	} else {
		s.disabled[name] = true
	}
	prev := s.view
	s.view = s.simulateLocked(ctx, &prev)
	v := s.view
	s.mu.Unlock()
	s.record(ctx)
	return v, nil
}

// SetDraft shows unsaved text of a hook file (hooks.json or a prompt, path
// relative to the root) in the simulation without writing it.
func (s *Service) SetDraft(ctx context.Context, file, content string) (TraceView, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if err := s.checkDraftPath(root, file); err != nil {
		return s.Trace(), err
	}
	// a draft that is the file on disk is none: a late call after a save
	// must not leave the saved file marked unsaved in every simulation
	disk, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	same := err == nil && string(disk) == content
	s.mu.Lock()
	_, had := s.drafts[file]
	if same {
		delete(s.drafts, file)
	} else {
		s.drafts[file] = []byte(content)
	}
	s.mu.Unlock()
	if !same || had {
		s.reloadNow(ctx)
	}
	// the draft is linted by the load that simulated it: LintFile of this
	// text answers from it
	s.noteLint(file, []byte(content))
	return s.Trace(), nil
}

// DiscardDraft drops the unsaved text of a file: the simulation shows the
// file on disk again.
func (s *Service) DiscardDraft(ctx context.Context, file string) (TraceView, error) {
	s.mu.Lock()
	_, had := s.drafts[file]
	delete(s.drafts, file)
	s.mu.Unlock()
	if had {
		s.reloadNow(ctx)
	}
	return s.Trace(), nil
}

// checkDraftPath accepts only files inside a skill's hooks/ folder and the
// files a hook system reads in root (its configs and scripts): drafts are
// read like those files and nothing else.
func (s *Service) checkDraftPath(root, file string) error {
	parts := strings.Split(file, "/")
	if s.draftableFile(root, file) {
		return nil
	}
	if !filepath.IsLocal(filepath.FromSlash(file)) || len(parts) < 3 || parts[1] != "hooks" || strings.Contains(file, "\\") {
		return fmt.Errorf("%w: %q is not a file inside <skill>/hooks/", ErrNotHookFile, file)
	}
	return nil
}

// ErrNotHookFile is returned for a draft path outside every skill's hooks/.
var ErrNotHookFile = errors.New("not a hook file")

// Reload re-reads the folder now, as a file change would.
func (s *Service) Reload(ctx context.Context) { s.reloadNow(ctx) }

func (s *Service) reloadNow(ctx context.Context) {
	s.mu.Lock()
	if s.root == "" {
		s.mu.Unlock()
		return
	}
	set, err := s.cfg.LoadSkills(ctx, s.root, s.drafts)
	if err != nil {
		// Keep the last good state; the watcher says when the root is back.
		s.rootMissing = true
		st := s.stateLocked()
		s.mu.Unlock()
		s.cfg.Emit(EventState, st)
		return
	}
	s.set, s.rootMissing = set, false
	s.lints = nil
	s.loadExecLocked(ctx)
	s.scanScenariosLocked(ctx)
	prev := s.view
	s.view = s.simulateLocked(ctx, &prev)
	st, view := s.stateLocked(), s.view
	s.mu.Unlock()
	s.cfg.Emit(EventState, st)
	s.cfg.Emit(EventTrace, view)
	s.record(ctx)
}

// record stores the last simulation in the history, after the frontend
// already has it: a slow disk must not delay what the user is waiting for.
func (s *Service) record(ctx context.Context) {
	s.mu.Lock()
	in, root := s.pending, s.root
	s.pending = nil
	s.mu.Unlock()
	if in == nil || s.cfg.History == nil {
		return
	}
	in.ScenarioData, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(in.ScenarioFile)))
	id, err := s.cfg.History.SaveRun(ctx, *in)
	if err != nil {
		s.mu.Lock()
		s.notice = fmt.Sprintf("could not record the run in the history: %v", err)
		s.mu.Unlock()
		return
	}
	s.cfg.Emit(EventRun, id)
}

func (s *Service) scanScenariosLocked(ctx context.Context) {
	files, err := scenario.Discover(ctx, s.root)
	if err != nil {
		s.scenarios = nil
		return
	}
	folders := make([]string, len(s.set.Skills))
	for i, sk := range s.set.Skills {
		folders[i] = sk.Name
	}
	names := scenario.SkillNames{Folders: folders}
	if s.exec.set != nil {
		names = s.exec.set.SkillNames(folders) // enabled_skills may name Claude Code's skills too
	}
	s.scenarios = s.scenarios[:0]
	for _, f := range files {
		sc, ds, err := scenario.LoadFile(s.root, f)
		if err != nil {
			ds = append(ds, diag.Diagnostic{File: f, Line: 1, Column: 1, Severity: diag.Error, Code: "unreadable-file", Message: err.Error()})
		} else if sc != nil {
			ds = append(ds, scenario.CheckSkills(sc, names)...)
		}
		diag.Sort(ds)
		if ds == nil {
			ds = []diag.Diagnostic{}
		}
		info := ScenarioInfo{File: f, Diagnostics: ds, Valid: err == nil && !diag.HasErrors(ds)}
		if sc != nil {
			info.Name, info.Requests = sc.Name, len(sc.Requests)
		}
		s.scenarios = append(s.scenarios, loadedScenario{info: info, sc: sc})
	}
	if !slices.ContainsFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == s.selected }) {
		s.selected = ""
	}
}

// enabledHooks is the set's hooks minus the skills switched off in the UI.
type enabledHooks struct {
	set      *skills.Set
	disabled map[string]bool
}

func (e enabledHooks) Hooks(enabled []string) []skills.Hook {
	return slices.DeleteFunc(e.set.Hooks(enabled), func(h skills.Hook) bool { return e.disabled[h.Skill] })
}

// simulateLocked runs the selected scenario. With prev, the new view says
// which LLM calls changed since it. With executable hooks to run, the run
// goes on in the background (it may take seconds): what it returns is
// marked pending, and the result follows as EventTrace. Every call ends the
// background run of the call before.
func (s *Service) simulateLocked(ctx context.Context, prev *TraceView) TraceView {
	s.cancelSimLocked()
	rev := s.view.Revision + 1
	i := slices.IndexFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == s.selected })
	s.execForLocked(i)
	var v TraceView
	switch {
	case i < 0:
		v = emptyView("none", "", nil)
	case !s.scenarios[i].info.Valid:
		v = emptyView("invalid", s.selected, s.scenarios[i].info.Diagnostics)
		v.Scenario = s.scenarios[i].info.Name
	case s.runnableLocked():
		return s.startSimLocked(i, prev)
	default:
		sc := s.scenarios[i].sc
		started := time.Now()
		// Prompt hooks only, with the scenario's scripted approvals and
		// budget (they start nothing, so they need no trust).
		run, err := runs.Assemble(runs.Spec{Scenario: sc, Prompt: enabledHooks{s.set, s.disabled}, Tokens: s.cfg.Tokens, Dir: s.root})
		if err != nil { // nothing to attach can fail here; say so if it ever does
			v = emptyView(string(engine.StatusError), s.selected, s.scenarios[i].info.Diagnostics)
			v.Scenario, v.Error = sc.Name, err.Error()
			break
		}
		tr, _ := run.Execute(ctx)
		v = buildView(tr, s.selected, s.cfg.Tokens)
		v.Expectations = expect.Evaluate(sc, tr, s.cfg.Tokens)
		if len(s.drafts) == 0 {
			s.pending = &history.RunInput{Trace: tr, ScenarioFile: s.selected, Backend: "mock", Source: history.SourceLive,
				Started: started, Ended: time.Now(), Tokens: s.cfg.Tokens}
		}
		v.Diagnostics = s.scenarios[i].info.Diagnostics
		for _, t := range sc.Tools {
			v.Tools = append(v.Tools, t.Name)
		}
		if prev != nil && prev.File == v.File && prev.Status != "running" {
			v.Changes = diffViews(prev, &v)
		}
		v.Exec = s.execRunLocked()
		v.drawOn(tr, RunOrigin{Simulated: true}, v.Exec.Hooks)
	}
	v.Revision = rev
	v.Draft = len(s.drafts) > 0
	return v
}

var palette = []string{"#2f80ed", "#9b51e0", "#27ae60", "#eb5757", "#f2994a", "#00a3a3", "#d6409f", "#8d6e63", "#5c6bc0", "#c0a000"}

// skillColor goes by the skill's place in the folder: ten skills get ten
// different colours, which matters more than keeping a colour when a skill
// is added before it.
func skillColor(i int) string { return palette[i%len(palette)] }

func (s *Service) stateLocked() State {
	s.stateSeq++
	st := State{Root: s.root, RootMissing: s.rootMissing, Recent: slices.Clone(s.settings.Recent), Selected: s.selected,
		Skills: []SkillInfo{}, Scenarios: []ScenarioInfo{}, Diagnostics: []diag.Diagnostic{}, Notice: s.notice, Seq: s.stateSeq}
	if st.Recent == nil {
		st.Recent = []string{}
	}
	st.Drafts = slices.Sorted(maps.Keys(s.drafts))
	if st.Drafts == nil {
		st.Drafts = []string{}
	}
	if s.set != nil {
		for i, sk := range s.set.Skills {
			if sk.Hooks == nil {
				sk.Hooks = []skills.Hook{}
			}
			if sk.Diagnostics == nil {
				sk.Diagnostics = []diag.Diagnostic{}
			}
			st.Skills = append(st.Skills, SkillInfo{Skill: sk, Enabled: !s.disabled[sk.Name], Color: skillColor(i)})
		}
	}
	st.Exec = s.execStateLocked()
	execDiagnostics(&st, s.exec.diags)
	all := slices.Clone(st.Diagnostics)
	for _, sk := range st.Skills {
		all = append(all, sk.Diagnostics...)
	}
	for _, sc := range s.scenarios {
		st.Scenarios = append(st.Scenarios, sc.info)
		all = append(all, sc.info.Diagnostics...)
	}
	st.Errors, st.Warnings = diag.Count(all)
	return st
}

func (s *Service) startWatcherLocked(ctx context.Context) error {
	w, err := watch.New(s.root, watch.Options{
		Debounce: s.cfg.Debounce,
		Dirs:     s.cfg.Hooks.Dirs(), // hidden folders that hold hook configs
		// The callback only signals the worker: it must never take s.mu,
		// which stopWatcherLocked holds while it waits for the watcher. A
		// missing root shows up as a failed reload.
		OnChange: func(c watch.Change) {
			s.own.reported(c)
			select { // a reload already pending will see this change too
			case s.reload <- struct{}{}:
			default:
			}
		},
	})
	if err != nil {
		return fmt.Errorf("watch %s: %w", s.root, err)
	}
	if s.base != nil {
		ctx = s.base
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.stopWatch, s.watchDone = cancel, done
	go func() {
		defer close(done)
		_ = w.Run(wctx)
	}()
	select {
	case <-w.Ready():
	case <-done:
	case <-time.After(5 * time.Second):
	}
	return nil
}

func (s *Service) stopWatcherLocked() {
	if s.stopWatch == nil {
		return
	}
	s.stopWatch()
	<-s.watchDone
	s.stopWatch, s.watchDone = nil, nil
}

// Notify shows a notice in the app (e.g. a damaged database was moved aside).
func (s *Service) Notify(msg string) {
	s.mu.Lock()
	s.notice = msg
	s.mu.Unlock()
}
