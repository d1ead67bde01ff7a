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
	"hookstudio/app/services/runs"
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
	hooks := s.runHooksLocked(i)
	exec := hooks.exec
	ctx, cancel := context.WithCancel(base)
	r := &realRun{cancel: cancel, done: make(chan struct{}), resume: make(chan bool), answers: make(chan string), sc: &sc, file: s.selected}
	step := opts.Step
	view := func(t *engine.Trace) TraceView {
		v := buildView(t, r.file, s.cfg.Tokens)
		v.Exec = exec
		return v
	}
	// the hooks' handlers, request hooks innermost around the real model,
	// and llm command hooks asking the model through them (runs.Assemble);
	// every hook runs afresh
	spec := runs.Spec{Scenario: &sc, Prompt: enabledHooks{s.set, maps.Clone(s.disabled)}, Fresh: true,
		Model: model, Backend: backend, MaxRounds: cmpOr(opts.MaxRounds, 20), Tokens: s.cfg.Tokens,
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
	hooks.attach(&spec)
	if spec.Profiles, err = s.cfg.Agents.runProfiles("", &sc); err != nil {
		cancel()
		return err
	}
	w := s.watchRun(&spec, view, exec.NotRun) // approvals.go: the event stream, control, approvals, budget
	run, err := runs.Assemble(spec)
	if err != nil {
		w.abandon()
		cancel()
		return fmt.Errorf("load executable hooks: %w", err)
	}
	s.run = r
	started, root := time.Now(), s.root
	ctx = w.context(ctx)
	s.workers.Add(1) // Close waits for the run and its hooks to end
	go func() {
		defer s.workers.Done()
		defer close(r.done)
		defer cancel()
		// Execute closes the hooks when the run ends, killing whatever
		// they still run: a cancelled run leaves no process behind.
		tr, runErr := run.Execute(ctx)
		exec = hooks.ran(run.Metrics(), time.Since(started))
		w.finish()
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
	if err := s.writeOwn(root, file, data); err != nil {
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
