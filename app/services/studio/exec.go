package studio

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/expect"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/runs"
	"hookstudio/app/store/history"
	"hookstudio/app/store/trust"
)

// EventProgress reports a simulation with executable hooks while it runs
// (Progress); the finished view follows as EventTrace.
const EventProgress = "studio:progress"

// ExecSet is a folder's executable hooks as parsed, once per reload
// (app/hooks/hooksets.Set): asked what a run of a scenario would start,
// and attached to any number of runs. Nothing runs before the engine
// calls a handler; closing what Attach returns kills whatever still runs.
type ExecSet interface {
	Hooks() []engine.HookInfo
	Diagnostics() []diag.Diagnostic
	// Commands lists what a run of sc would start; FolderCommands every
	// command the folder's hooks (and sc) may start: what trusting the
	// folder allows, which the trust prompt lists.
	Commands(sc *scenario.Scenario) []registry.Command
	FolderCommands(sc *scenario.Scenario) []registry.Command
	// Active says whether a run of sc has hooks to run at all: with no
	// command among them (a request policy, scripted attempts) they run
	// without trust.
	Active(sc *scenario.Scenario) bool
	// SkillNames is what enabled_skills may name: the skill folders and
	// the hook systems' own skills (Claude Code's).
	SkillNames(folders []string) scenario.SkillNames
	// Attach adds the handlers a run reaches to cfg (a request hook
	// system also wraps cfg.Model); nil when there are none.
	Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error)
}

// ExecCommand is one command that would run, for the trust prompt: a
// registry.Command under the name the bound API (and its generated
// frontend models) has always given it.
type ExecCommand struct {
	Source  string `json:"source"` // file:line
	Event   string `json:"event"`
	Hook    string `json:"hook"`
	Skill   string `json:"skill,omitempty"`
	Command string `json:"command"`
	Dir     string `json:"dir"` // where it runs
}

// ExecRequest is what loading a folder's executable hooks needs.
type ExecRequest struct {
	Root   string
	Drafts map[string][]byte // unsaved editor text by root-relative path
}

// ExecLoader parses the executable hooks of a folder; nothing runs. What
// may be reused between runs (results of hooks whose input and files did
// not change) the hook systems keep themselves.
type ExecLoader func(ctx context.Context, req ExecRequest) (ExecSet, error)

// ExecState is what the app knows of the open folder's executable hooks,
// for the skills panel and the trust prompt.
type ExecState struct {
	// Present is true when the folder declares executable hooks.
	Present bool `json:"present"`
	// Trusted is true when the user trusted the folder with exactly these
	// hook configurations; Changed when it was trusted with others.
	Trusted bool `json:"trusted"`
	Changed bool `json:"changed"`
	// Files are the hook configuration files (root-relative) the trust
	// covers; Commands exactly what would run.
	Files    []string          `json:"files"`
	Commands []ExecCommand     `json:"commands"`
	Hooks    []engine.HookInfo `json:"hooks"`
	Error    string            `json:"error,omitempty"` // the configuration could not be loaded
}

// ExecRun says how the executable hooks took part in a simulation.
type ExecRun struct {
	Ran bool `json:"ran"`
	// NotRun says why they did not run ("folder not trusted").
	NotRun string            `json:"not_run,omitempty"`
	Hooks  []engine.HookInfo `json:"hooks"`
	// Metrics are each hook's counters over the run (seed 001's list).
	Metrics []engine.HookMetric `json:"metrics"`
	// DurationMS is how long the whole run took, hooks included.
	DurationMS float64 `json:"duration_ms"`
}

// Why executable hooks did not run.
const (
	NotRunUntrusted   = "folder not trusted"
	NotRunUnsupported = "this build cannot run executable hooks"
)

// Progress is a simulation with executable hooks as it runs.
type Progress struct {
	Active    bool   `json:"active"`
	File      string `json:"file"`
	StartedMS int64  `json:"started_ms"` // Unix milliseconds
	ElapsedMS int64  `json:"elapsed_ms"`
	Steps     int    `json:"steps"`
	HookCalls int    `json:"hook_calls"`
	// Point is where the run is (an engine point: before_tool, ...); Last
	// the last hook invocation ("command pre_tool_execution guard").
	Point string `json:"point,omitempty"`
	Last  string `json:"last,omitempty"`
	// Status is how the run ended, once it is not active.
	Status string `json:"status,omitempty"`
}

// ErrNoSimulation is returned by CancelSimulation when nothing runs.
var ErrNoSimulation = errors.New("no simulation is running")

// execInfo is the open folder's executable hooks as last loaded, and what
// they mean for the selected scenario.
type execInfo struct {
	set      ExecSet // nil: none loaded (no loader, or it failed: err)
	files    []string
	fileHash string // the configuration files' (trust.Hash)
	hash     string // the files' and every command's: what trust is given for
	hooks    []engine.HookInfo
	commands []ExecCommand
	diags    []diag.Diagnostic
	err      string
	// free: the run has hooks to run that start nothing, so they need no
	// trust (a request policy, scripted request attempts).
	free bool
}

func (e *execInfo) present() bool {
	return len(e.files) > 0 || len(e.hooks) > 0 || len(e.commands) > 0
}

// simRun is the simulation running in the background.
type simRun struct {
	gen      int
	cancel   context.CancelFunc
	started  time.Time
	file     string
	progress Progress
	timer    *time.Timer // a progress event is scheduled
}

// loadExecLocked parses the folder's hook configurations (the drafts laid
// over them), once per reload: every simulation and run until the next
// reload uses what it read. Nothing runs here.
func (s *Service) loadExecLocked(ctx context.Context) {
	s.exec = execInfo{}
	if s.root == "" {
		return
	}
	files, err := trust.Configs(s.root, s.cfg.Hooks.TrustPatterns())
	if err != nil {
		s.exec.err = err.Error()
		return
	}
	s.exec.files, s.exec.fileHash = files, trust.Hash(s.root, files)
	if s.cfg.ExecHooks == nil {
		return
	}
	set, err := s.cfg.ExecHooks(ctx, ExecRequest{Root: s.root, Drafts: maps.Clone(s.drafts)})
	if err != nil {
		s.exec.err = err.Error()
		return
	}
	s.exec.set = set
	s.exec.hooks, s.exec.diags = set.Hooks(), set.Diagnostics()
}

// execForLocked is what the loaded hooks mean for scenario i (-1: none):
// what a run would start, and so what trusting the folder means — the
// hash covers the configuration files and every command that would run
// (a scenario can register hooks too).
func (s *Service) execForLocked(i int) {
	s.exec.commands, s.exec.free = nil, false
	if set := s.exec.set; set != nil {
		sc := s.runScenarioLocked(i)
		// a run that reaches no command needs no trust; the trust asked
		// for is the folder's, so the prompt lists all its commands
		s.exec.free = len(set.Commands(sc)) == 0 && set.Active(sc)
		s.exec.commands = execCommands(set.FolderCommands(sc))
	}
	h := sha256.New()
	io.WriteString(h, s.exec.fileHash)
	for _, c := range s.exec.commands {
		fmt.Fprintf(h, "\x00%s\x00%s\x00%s", c.Dir, c.Command, c.Source)
	}
	s.exec.hash = hex.EncodeToString(h.Sum(nil))
}

// runScenarioLocked is scenario i as its runs play it: the skills switched
// off in the UI left out of every request, so their executable hooks do
// not run either (nil: no valid scenario).
func (s *Service) runScenarioLocked(i int) *scenario.Scenario {
	if i < 0 || i >= len(s.scenarios) || !s.scenarios[i].info.Valid {
		return nil
	}
	return withoutSkills(s.scenarios[i].sc, skillNames(s.set), s.disabled)
}

func execCommands(cs []registry.Command) []ExecCommand {
	out := make([]ExecCommand, len(cs))
	for i, c := range cs {
		out[i] = ExecCommand(c)
	}
	return out
}

func (s *Service) trustedLocked() bool {
	return s.trust != nil && s.exec.present() && s.trust.Trusted(s.root, s.exec.hash)
}

func (s *Service) execStateLocked() ExecState {
	st := ExecState{Present: s.exec.present(), Files: nonNil(s.exec.files), Commands: nonNil(s.exec.commands),
		Hooks: nonNil(s.exec.hooks), Error: s.exec.err}
	if st.Present && s.trust != nil {
		st.Trusted = s.trust.Trusted(s.root, s.exec.hash)
		st.Changed = !st.Trusted && s.trust.Known(s.root)
	}
	return st
}

// runnableLocked says whether a simulation runs the executable hooks.
func (s *Service) runnableLocked() bool {
	return s.exec.set != nil && s.exec.err == "" && (s.trustedLocked() || s.exec.free)
}

// runHooks is how the folder's executable hooks take part in one run of a
// scenario: the live simulation, a controlled run and a real run all take
// it from runHooksLocked, so the three attach the same hooks in the same
// way (runs.Assemble) and say the same when they do not.
type runHooks struct {
	// root is the open folder, the agent's working folder in an agent's
	// run; requests its request models
	root     string
	requests *request.Catalog
	set      ExecSet            // nil: prompt hooks only (exec says why)
	sc       *scenario.Scenario // the scenario as the hooks see it (runScenarioLocked)
	trusted  bool
	exec     ExecRun // what the run's view says of them
}

// runHooksLocked is how the loaded hooks take part in a run of scenario i:
// all of them when the folder is trusted (or they start nothing), none
// with the reason otherwise.
func (s *Service) runHooksLocked(i int) runHooks {
	if !s.runnableLocked() {
		return runHooks{exec: s.execRunLocked()}
	}
	return runHooks{root: s.root, requests: request.NewCatalog(s.cfg.DataDir), set: s.exec.set, sc: s.runScenarioLocked(i), trusted: s.trustedLocked(),
		exec: ExecRun{Ran: true, Hooks: nonNil(s.exec.hooks), Metrics: []engine.HookMetric{}}}
}

// attach puts the hooks on spec; Assemble attaches them.
func (h runHooks) attach(spec *runs.Spec) {
	if h.set != nil {
		spec.Hooks, spec.HookScenario, spec.Trusted = h.set, h.sc, h.trusted
		// a run under an agent is its loop and request
		spec.Requests, spec.Dir = h.requests, h.root
	}
}

// ran is exec after a run that ran the hooks: each hook's counters and
// how long the whole run took, hooks included.
func (h runHooks) ran(metrics []engine.HookMetric, took time.Duration) ExecRun {
	e := h.exec
	if e.Ran {
		e.Metrics = nonNil(metrics)
		e.DurationMS = float64(took.Microseconds()) / 1000
	}
	return e
}

// execRunLocked is what a simulation that did not run the executable
// hooks says about them.
func (s *Service) execRunLocked() ExecRun {
	r := ExecRun{Hooks: nonNil(s.exec.hooks), Metrics: []engine.HookMetric{}}
	switch {
	case !s.exec.present():
	case s.cfg.ExecHooks == nil:
		r.NotRun = NotRunUnsupported
	case s.exec.err != "":
		r.NotRun = "the hook configuration could not be loaded: " + s.exec.err
	case !s.trustedLocked():
		r.NotRun = NotRunUntrusted
	}
	return r
}

// cancelSimLocked abandons the background simulation, if any: its result
// will not be shown. An edit never waits for a slow hook of the run it
// replaces.
func (s *Service) cancelSimLocked() {
	s.simGen++
	if s.sim == nil {
		return
	}
	s.sim.cancel()
	if s.sim.timer != nil {
		s.sim.timer.Stop()
	}
	s.sim = nil
}

type simJob struct {
	gen      int
	root     string
	file     string
	sc       *scenario.Scenario
	set      *skills.Set
	disabled map[string]bool
	hooks    runHooks
	diags    []diag.Diagnostic
	prev     *TraceView
	drafts   bool
	started  time.Time
	emitFrom context.Context
	// agent renders the agents' hook output as this version for this run
	// only ("claude-code@2.1.197"; "" the app's choice: RenderAs)
	agent string
}

// startSimLocked runs scenario i with the executable hooks in the
// background and returns what to show meanwhile: the last view of the same
// scenario marked pending, or an empty pending view of the new one.
func (s *Service) startSimLocked(i int, prev *TraceView) TraceView {
	base := s.base
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithCancel(base)
	ls := s.scenarios[i]
	job := simJob{gen: s.simGen, root: s.root, file: s.selected, sc: ls.sc, set: s.set, disabled: maps.Clone(s.disabled),
		hooks: s.runHooksLocked(i), diags: ls.info.Diagnostics, drafts: len(s.drafts) > 0, started: time.Now(), emitFrom: base}
	if prev != nil && prev.File == job.file && prev.Status != "running" {
		p := *prev
		job.prev = &p
	}
	run := &simRun{gen: job.gen, cancel: cancel, started: job.started, file: job.file}
	run.progress = Progress{Active: true, File: job.file, StartedMS: job.started.UnixMilli()}
	s.sim = run
	s.workers.Add(1)
	go s.runSim(ctx, job)

	// the pending view is a revision of its own: each view given out is
	// newer than the one before, which the frontend relies on to drop an
	// answer that arrives after a newer event
	if s.view.File == job.file && s.view.Status != "running" && s.view.Status != "none" {
		v := s.view
		v.Pending, v.Revision = true, s.view.Revision+1
		return v
	}
	v := emptyView("running", job.file, job.diags)
	v.Scenario, v.Revision, v.Pending = ls.info.Name, s.view.Revision+1, true
	v.Exec = job.hooks.exec
	return v
}

// emitProgressLocked sends the run's progress after delay, coalescing
// updates that come faster. Progress events are sent with s.mu held and
// only for the current run, so a late one never follows the end of its
// run or the start of the next (Emit never calls back into the service).
func (s *Service) emitProgressLocked(run *simRun, delay time.Duration) {
	if run.timer != nil {
		return
	}
	run.timer = time.AfterFunc(delay, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.sim != run {
			return
		}
		run.timer = nil
		p := run.progress
		p.ElapsedMS = time.Since(run.started).Milliseconds()
		s.cfg.Emit(EventProgress, p)
	})
}

// progressEvery is how often progress is reported at most.
const progressEvery = 100 * time.Millisecond

// tracker follows a run from inside it (the run's goroutine) and reports
// where it is.
type tracker struct {
	s     *Service
	gen   int
	trace *engine.Trace
}

func (k *tracker) update(point engine.Point) {
	k.s.mu.Lock()
	defer k.s.mu.Unlock()
	run := k.s.sim
	if run == nil || run.gen != k.gen {
		return
	}
	if point != "" {
		run.progress.Point = string(point)
	}
	if t := k.trace; t != nil {
		run.progress.Steps = t.NumSteps()
		run.progress.HookCalls = len(t.HookCalls)
		if n := len(t.HookCalls); n > 0 {
			hc := &t.HookCalls[n-1]
			run.progress.Last = strings.TrimSpace(fmt.Sprintf("%s %s %s", hc.System, hc.Event, hc.Hook))
		}
	}
	k.s.emitProgressLocked(run, progressEvery)
}

// tracked reports each handler's point before it runs and the hook calls
// after.
type tracked struct {
	h engine.Handler
	k *tracker
}

func (t tracked) Handle(ctx context.Context, ev *engine.Event) error {
	t.k.update(ev.Point)
	err := t.h.Handle(ctx, ev)
	t.k.update("")
	return err
}

// runSim is one background simulation: load the hooks, run, close them,
// and show the result unless a newer simulation replaced this one.
func (s *Service) runSim(ctx context.Context, job simJob) {
	defer s.workers.Done()
	s.mu.Lock()
	if s.sim != nil && s.sim.gen == job.gen {
		s.cfg.Emit(EventProgress, s.sim.progress)
	}
	s.mu.Unlock()
	tr, metrics, err := s.execute(ctx, job)
	ended := time.Now()

	s.mu.Lock()
	if job.gen != s.simGen {
		s.mu.Unlock()
		return // replaced: its result is of no interest
	}
	var v TraceView
	if tr == nil {
		ds := job.diags
		var ate *agentToolsError
		if errors.As(err, &ate) {
			ds = append(slices.Clone(ds), ate.ds...)
			diag.Sort(ds)
		}
		v = emptyView(string(engine.StatusError), job.file, ds)
		v.Scenario, v.Error = job.sc.Name, err.Error()
	} else {
		v = buildView(tr, job.file, s.cfg.Tokens)
		v.Expectations = expect.Evaluate(job.sc, tr, s.cfg.Tokens)
		v.Diagnostics = job.diags
		if !job.drafts && tr.Status != engine.StatusCancelled {
			s.pending = &history.RunInput{Trace: tr, ScenarioFile: job.file, Backend: "mock", Source: history.SourceLive,
				Started: job.started, Ended: ended, Tokens: s.cfg.Tokens}
		}
	}
	for _, t := range job.sc.Tools {
		v.Tools = append(v.Tools, t.Name)
	}
	if job.prev != nil && job.prev.File == v.File && tr != nil {
		v.Changes = diffViews(job.prev, &v)
	}
	v.Exec = job.hooks.ran(metrics, ended.Sub(job.started))
	if tr != nil {
		v.drawOn(tr, RunOrigin{Simulated: true}, v.Exec.Hooks)
	}
	v.Revision = s.view.Revision + 1
	v.Draft = job.drafts
	s.view = v
	prog := Progress{File: job.file, StartedMS: job.started.UnixMilli(), ElapsedMS: ended.Sub(job.started).Milliseconds(), Status: v.Status}
	if tr != nil {
		prog.Steps, prog.HookCalls = tr.NumSteps(), len(tr.HookCalls)
	}
	if s.sim != nil && s.sim.gen == job.gen {
		if s.sim.timer != nil {
			s.sim.timer.Stop()
		}
		s.sim = nil
	}
	s.cfg.Emit(EventProgress, prog)
	s.mu.Unlock()
	s.cfg.Emit(EventTrace, v)
	s.record(job.emitFrom)
}

// execute loads the executable hooks, runs the scenario with them and
// closes them (which kills every child still running).
func (s *Service) execute(ctx context.Context, job simJob) (*engine.Trace, []engine.HookMetric, error) {
	profiles, err := s.cfg.Agents.runProfiles(job.agent, job.sc)
	if err != nil {
		return nil, nil, err
	}
	k := &tracker{s: s, gen: job.gen}
	// The scenario's approvals and budget are answered by its script as
	// hookctl test does; the event stream goes last, untracked (it only
	// watches).
	spec := runs.Spec{Scenario: job.sc, Prompt: enabledHooks{job.set, job.disabled}, Tokens: s.cfg.Tokens,
		BeforeCall: func(_ context.Context, t *engine.Trace, _ int) error {
			k.trace = t
			k.update("")
			return nil
		},
		Wrap:     func(h engine.Handler) engine.Handler { return tracked{h: h, k: k} },
		Profiles: profiles,
	}
	job.hooks.attach(&spec)
	run, err := runs.Assemble(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("load executable hooks: %w", err)
	}
	if ads := run.Diagnostics(); diag.HasErrors(ads) {
		// a tool the run's agent does not have: the run would not be the agent's
		_ = run.Close()
		return nil, nil, &agentToolsError{ds: ads}
	}
	tr, _ := run.Execute(ctx)
	return tr, run.Metrics(), nil
}

// agentToolsError is a scenario that calls tools the run's agent does
// not have: the view shows the diagnostics in the Problems list.
type agentToolsError struct{ ds []diag.Diagnostic }

func (e *agentToolsError) Error() string {
	return fmt.Sprintf("not simulated: %d tool(s) the agent does not have (see the problems)", len(e.ds))
}

// CancelSimulation stops the simulation running in the background; the
// steps it recorded so far are shown, with status "cancelled".
func (s *Service) CancelSimulation() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sim == nil {
		return ErrNoSimulation
	}
	s.sim.cancel()
	return nil
}

// Progress is the background simulation's progress (Active false when
// none runs).
func (s *Service) Progress() Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sim == nil {
		return Progress{File: s.view.File}
	}
	p := s.sim.progress
	p.ElapsedMS = time.Since(s.sim.started).Milliseconds()
	return p
}

// TrustFolder trusts the open folder with its current hook configurations
// (the commands State lists) and simulates again, running them.
func (s *Service) TrustFolder(ctx context.Context) (State, error) {
	return s.setTrust(ctx, true)
}

// UntrustFolder forgets the open folder's trust; simulations run prompt
// hooks only.
func (s *Service) UntrustFolder(ctx context.Context) (State, error) {
	return s.setTrust(ctx, false)
}

func (s *Service) setTrust(ctx context.Context, on bool) (State, error) {
	s.mu.Lock()
	if s.root == "" {
		st := s.stateLocked()
		s.mu.Unlock()
		return st, errors.New("no folder is open")
	}
	if s.trust == nil {
		st := s.stateLocked()
		s.mu.Unlock()
		return st, errors.New("the trusted-folders list is unavailable")
	}
	// Trust what the user was shown: re-read only if nothing was loaded.
	var err error
	switch {
	case on && !s.exec.present():
		err = errors.New("this folder has no executable hooks")
	case on:
		err = s.trust.Trust(s.root, s.exec.hash)
	default:
		err = s.trust.Untrust(s.root)
	}
	if err != nil {
		st := s.stateLocked()
		s.mu.Unlock()
		return st, err
	}
	prev := s.view
	s.view = s.simulateLocked(ctx, &prev)
	st, view := s.stateLocked(), s.view
	s.mu.Unlock()
	s.cfg.Emit(EventState, st)
	s.cfg.Emit(EventTrace, view)
	s.record(ctx)
	return st, nil
}

// execDiagnostics sorts the hook configurations' diagnostics onto the
// skills whose files they are about; the rest are the folder's.
func execDiagnostics(st *State, ds []diag.Diagnostic) {
	for _, d := range ds {
		placed := false
		for i := range st.Skills {
			sk := &st.Skills[i]
			if strings.HasPrefix(d.File, sk.Name+"/") {
				sk.Diagnostics = append(sk.Diagnostics[:len(sk.Diagnostics):len(sk.Diagnostics)], d)
				placed = true
				break
			}
		}
		if !placed {
			st.Diagnostics = append(st.Diagnostics, d)
		}
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
