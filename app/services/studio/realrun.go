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
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/services/edit"
	"hookstudio/app/store/history"
	"hookstudio/app/store/profiles"
)

// Events of a run against a real model.
const (
	EventRunPaused = "run:paused" // RunPause: stopped before an LLM call
	EventRunDelta  = "run:delta"  // RunDelta: streamed answer text
	EventRunTool   = "run:tool"   // engine.ToolCall: the user must give the result
	EventRunRetry  = "run:retry"  // RunRetry: a call is retried after a failure
	EventRunTrace  = "run:trace"  // TraceView after each call
	EventRunEnded  = "run:ended"  // RunEnded
)

// RunOptions starts a real run.
type RunOptions struct {
	Profile string `json:"profile"`
	// Step pauses before every LLM call; otherwise only at Breakpoints.
	Step        bool  `json:"step"`
	Breakpoints []int `json:"breakpoints"` // LLM call indexes to pause before
	MaxRounds   int   `json:"max_rounds"`  // 0: 20
}

// RunPause is the exact request about to be sent.
type RunPause struct {
	Call    int       `json:"call"`
	Request string    `json:"request"` // the JSON body, without the key
	View    TraceView `json:"view"`
}

// RunDelta is streamed text of a call.
type RunDelta struct {
	Call int    `json:"call"`
	Text string `json:"text"`
}

// RunRetry is a retry after a failed attempt.
type RunRetry struct {
	Attempt int    `json:"attempt"`
	WaitMS  int64  `json:"wait_ms"`
	Error   string `json:"error"`
}

// RunEnded is how a real run ended.
type RunEnded struct {
	Status string    `json:"status"`
	Error  string    `json:"error,omitempty"`
	RunID  int64     `json:"run_id,omitempty"`
	View   TraceView `json:"view"`
}

// ErrNoRun is returned when no real run is waiting for the user.
var ErrNoRun = errors.New("no run is waiting")

// realRun is the one run against a real model the service may have.
type realRun struct {
	cancel  context.CancelFunc
	done    chan struct{}
	resume  chan bool // true: step (pause before the next call), false: continue
	answers chan string
	sc      *scenario.Scenario
	file    string
	trace   *engine.Trace
}

// Profiles is where endpoint profiles and their keys live.
func (s *Service) Profiles() *profiles.Store {
	if s.cfg.Profiles != nil {
		return s.cfg.Profiles
	}
	return profiles.NewStore(profiles.DefaultPath(s.cfg.DataDir))
}

// StartRun runs the selected scenario against a real model in the
// background; it pauses per opts and asks through events.
func (s *Service) StartRun(opts RunOptions) error {
	ps := s.Profiles()
	p, err := ps.Get(opts.Profile)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run != nil {
		return errors.New("a run is already in progress; cancel it first")
	}
	i := slices.IndexFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == s.selected })
	if i < 0 || !s.scenarios[i].info.Valid {
		return errors.New("select a valid scenario first")
	}
	sc := *s.scenarios[i].sc
	if sc.Prompts.Planning == "" {
		sc.Prompts.Planning = llm.PlanningPrompt
	}
	model, err := ps.Model(p, func(o *llm.Options) {
		o.OnRetry = func(n int, wait time.Duration, err error) {
			s.cfg.Emit(EventRunRetry, RunRetry{Attempt: n, WaitMS: wait.Milliseconds(), Error: err.Error()})
		}
	})
	if err != nil {
		return err
	}
	base := s.base
	if base == nil {
		base = context.Background()
	}
	backend := string(p.Provider) + ":" + p.Name
	set, exec, hookModel, err := s.realExecLocked(base, i)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(base)
	r := &realRun{cancel: cancel, done: make(chan struct{}), resume: make(chan bool), answers: make(chan string), sc: &sc, file: s.selected}
	s.run = r
	hooks := enabledHooks{s.set, maps.Clone(s.disabled)}
	step := opts.Step
	view := func(t *engine.Trace) TraceView {
		v := buildView(t, r.file, s.cfg.Tokens)
		v.Exec = exec
		return v
	}
	cfg := engine.Config{
		Model:     model,
		MaxRounds: cmpOr(opts.MaxRounds, 20),
		Tools: &llm.ToolRunner{Results: llm.ScriptedToolResults(&sc), AskUser: func(ctx context.Context, tc engine.ToolCall) (string, error) {
			s.cfg.Emit(EventRunTool, tc)
			select {
			case a := <-r.answers:
				return a, nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}},
		BeforeCall: func(ctx context.Context, t *engine.Trace, c int) error {
			r.trace = t
			if !step && !slices.Contains(opts.Breakpoints, c) {
				return nil
			}
			body, err := model.RequestBody(callOf(t, c, &sc))
			if err != nil {
				body = []byte(fmt.Sprintf("request body unavailable: %v", err))
			}
			s.cfg.Emit(EventRunPaused, RunPause{Call: c, Request: string(body), View: buildView(t, r.file, s.cfg.Tokens)})
			select {
			case step = <-r.resume:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		},
		OnStream: func(c int, text string) { s.cfg.Emit(EventRunDelta, RunDelta{Call: c, Text: text}) },
		// An empty answer is marked on its call before the view is sent.
		AfterCall: llm.MarkWarnings(func(t *engine.Trace, c int) { s.cfg.Emit(EventRunTrace, view(t)) }),
	}
	if set != nil {
		// as hookctl simulate --trust --provider: the hooks' handlers,
		// request hooks innermost around the real model, and llm command
		// hooks asking the model through them
		cfg.Handlers = set.Handlers()
		if p, ok := set.(interface {
			PrepareRun(*engine.Config, string)
		}); ok {
			p.PrepareRun(&cfg, backend)
		}
		hookModel.Model = cfg.Model
	}
	started, root := time.Now(), s.root
	w := s.watchRun(&cfg, &sc, view) // approvals.go: the event stream, control, approvals, budget
	ctx = w.context(ctx)
	s.workers.Add(1) // Close waits for the run and its hooks to end
	go func() {
		defer s.workers.Done()
		defer close(r.done)
		defer cancel()
		tr, runErr := engine.Run(ctx, r.sc, hooks, cfg)
		if set != nil {
			// Close kills whatever the hooks still run: a cancelled run
			// leaves no process behind.
			exec.Metrics = nonNil(set.Metrics())
			if err := set.Close(); err != nil && tr.Error == "" {
				tr.Error = fmt.Sprintf("closing the hooks: %v", err)
			}
			exec.DurationMS = float64(time.Since(started).Microseconds()) / 1000
		}
		w.finish(tr, runErr)
		r.trace = tr
		end := RunEnded{Status: string(tr.Status), View: view(tr)}
		if runErr != nil {
			end.Error = runErr.Error()
		}
		if s.cfg.History != nil {
			data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(r.file)))
			id, err := s.cfg.History.SaveRun(context.WithoutCancel(ctx), history.RunInput{Trace: tr, ScenarioFile: r.file, ScenarioData: data,
				Backend: backend, Source: history.SourceApp, Started: started, Ended: time.Now(), Tokens: s.cfg.Tokens})
			if err == nil {
				end.RunID = int64(id)
				w.save(context.WithoutCancel(ctx), s.cfg.History, id)
			}
		}
		s.mu.Lock()
		s.lastRun = r
		s.run = nil
		s.mu.Unlock()
		s.cfg.Emit(EventRunEnded, end)
	}()
	return nil
}

// realExecLocked loads the folder's executable hooks for a real run of
// scenario i when the live simulation may run them (the same trust and
// fingerprint: runnableLocked), with hookModel to answer llm command hooks
// once the run's model is known. Otherwise set is nil and exec says why
// the hooks do not run; the run goes on with prompt hooks only.
func (s *Service) realExecLocked(ctx context.Context, i int) (ExecSet, ExecRun, *cmdhook.ModelCompleter, error) {
	hookModel := &cmdhook.ModelCompleter{}
	if !s.runnableLocked() {
		return nil, s.execRunLocked(), hookModel, nil
	}
	req := s.execRequestLocked(i)
	req.Trusted, req.Completer, req.Fresh = true, hookModel, true
	set, err := s.cfg.ExecHooks(ctx, req)
	if err != nil {
		if set != nil {
			_ = set.Close()
		}
		return nil, ExecRun{}, nil, fmt.Errorf("load executable hooks: %w", err)
	}
	return set, ExecRun{Ran: true, Hooks: nonNil(set.Hooks()), Metrics: []engine.HookMetric{}}, hookModel, nil
}

// PrepareRun adds the request hooks (seed 004), innermost, around a real
// model; backend is "PROVIDER:PROFILE".
func (h hooksetsSet) PrepareRun(cfg *engine.Config, backend string) {
	h.set.WithRequestHooks(cfg, hooksets.RequestRun{Backend: backend, Counter: h.counter, Policy: h.policy.Policy()})
	cfg.Agent = h.set.Agent()
}

// callOf rebuilds the engine.Call of LLM call c, as the model will see it.
func callOf(t *engine.Trace, c int, sc *scenario.Scenario) engine.Call {
	lc := t.Calls[c]
	call := engine.Call{Request: lc.Request, Phase: lc.Phase, Round: -1,
		Messages: func() []engine.Message { return t.CallMessages(c) }, Stream: func(string) {}}
	if lc.Round != nil {
		call.Round = *lc.Round
	}
	if lc.Phase == engine.PhaseAgent {
		call.Tools = sc.Tools
	}
	return call
}

// Resume lets a paused run go on: step pauses again before the next call.
func (s *Service) Resume(step bool) error {
	return sendToRun(s, func(r *realRun) chan bool { return r.resume }, step)
}

// AnswerTool gives the result of the tool call the run is waiting for.
func (s *Service) AnswerTool(result string) error {
	return sendToRun(s, func(r *realRun) chan string { return r.answers }, result)
}

// sendToRun hands v to the running run if it is waiting for it; a run that
// is not waiting within a second is not waiting at all.
func sendToRun[T any](s *Service, ch func(*realRun) chan T, v T) error {
	s.mu.Lock()
	r := s.run
	s.mu.Unlock()
	if r == nil {
		return ErrNoRun
	}
	select {
	case ch(r) <- v:
		return nil
	case <-r.done:
		return ErrNoRun
	case <-time.After(time.Second):
		return ErrNoRun
	}
}

// CancelRun stops the run, aborting a request in flight, and waits for it.
func (s *Service) CancelRun() error {
	s.mu.Lock()
	r := s.run
	s.mu.Unlock()
	if r == nil {
		return ErrNoRun
	}
	r.cancel()
	<-r.done
	return nil
}

// SaveRunAsScenario turns the last real run into a mock scenario beside
// the one it ran, so hooks can be re-simulated against its answers.
func (s *Service) SaveRunAsScenario(ctx context.Context) (string, error) {
	s.mu.Lock()
	r, root := s.lastRun, s.root
	s.mu.Unlock()
	if r == nil || r.trace == nil {
		return "", errors.New("no finished real run to save")
	}
	out, err := llm.ToScenario(r.sc, r.trace)
	if err != nil {
		return "", err
	}
	out.Name = r.sc.Name + "-replay"
	data, err := llm.MarshalScenarioYAML(out)
	if err != nil {
		return "", err
	}
	dir := path.Dir(r.file)
	name := strings.TrimSuffix(path.Base(r.file), path.Ext(r.file)) + "-replay"
	file := path.Join(dir, name+".yaml")
	for n := 2; ; n++ {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(file))); errors.Is(err, os.ErrNotExist) {
			break
		}
		file = path.Join(dir, fmt.Sprintf("%s-%d.yaml", name, n))
	}
	if err := edit.WriteFileAtomic(filepath.Join(root, filepath.FromSlash(file)), data, 0o644); err != nil {
		return "", err
	}
	s.reloadNow(ctx)
	return file, nil
}

// ProfileInfo is a profile with where its key comes from (never the key).
type ProfileInfo struct {
	profiles.Profile
	KeySource profiles.KeySource `json:"key_source"`
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}
