// Package runs assembles a run — the scenario, seed 000's prompt hooks, the
// folder's executable hooks, the model, the event stream — in the one way
// the app (its live simulation, controlled runs and real runs) and hookctl
// (simulate, test) all play a scenario, so that one scenario gives one
// trace wherever it runs.
package runs

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/answers"
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/platform/workspace"
)

// Hooks is a folder's executable hooks as parsed (app/hooks/hooksets.Set).
type Hooks interface {
	Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error)
}

// Spec is what a run is made of. Only Scenario is required: without the
// rest it is the scenario on its mock model with no hook at all.
type Spec struct {
	Scenario *scenario.Scenario
	// Prompt is seed 000's prompt hooks (the folder's skills, less any the
	// user switched off); nil: none.
	Prompt engine.HookSource
	// Hooks are the folder's executable hooks (nil: prompt hooks only);
	// HookScenario is the scenario as they see it (the skills switched off
	// left out of every request; nil: Scenario). Trusted says the user
	// trusted the folder's commands; Fresh runs every hook afresh (no
	// result of an earlier run is reused).
	Hooks        Hooks
	HookScenario *scenario.Scenario
	Trusted      bool
	Fresh        bool
	// Model is a real model (nil: the scenario's scripted mock). Backend
	// names it for the request hooks and the history ("PROVIDER:PROFILE");
	// Email is its account, shown masked. A real run's llm hooks ask the
	// model (through the request hooks), the mock's answer from the
	// scenario's hook_answers.
	Model   engine.Model
	Backend string
	Email   string
	// Tools answers a real model's tool calls (nil: the scenario's
	// scripted results); MaxRounds ends a runaway loop (0: none).
	Tools     engine.ToolRunner
	MaxRounds int
	// Tokens counts the mock's usage (budgets, request hooks).
	Tokens registry.TokenCounter
	// Events is the event stream with whoever answers its approvals and
	// steers it (a person, a --control file); nil: the scenario's approval
	// policy answered by its scripted decisions and its budget, nobody
	// asked (Events then returns what was kept).
	Events *events.Options
	// BeforeFinish runs after the run and before its event stream says how
	// it ended.
	BeforeFinish func()
	// Callbacks of the engine (engine.Config).
	BeforeCall func(ctx context.Context, t *engine.Trace, call int) error
	AfterCall  func(t *engine.Trace, call int)
	OnStream   func(call int, text string)
	// Wrap wraps each hook system's handler (the app follows a run's
	// progress through it); the event stream is never wrapped.
	Wrap func(engine.Handler) engine.Handler
	// Profiles gives the rendering profile chosen for an agent (issue 27);
	// nil: each system's own renderings.
	Profiles func(agent string) registry.Profile
	// Requests finds the request model of the agent whose hooks the run
	// reaches (the version its rendering profile names): a run under an
	// agent is that agent's loop and request. nil: seed 000's flow for
	// every run. Dir is the folder the run simulates (the agent's working
	// folder) and Home the home folder the agent reports ("": the user's).
	Requests *request.Catalog
	Dir      string
	Home     string
}

// Run is one assembled run. Execute it once, or Close it unexecuted.
type Run struct {
	spec     Spec
	diags    []diag.Diagnostic
	cfg      engine.Config
	hooks    registry.Attached
	headless *events.Headless
	mon      *events.Monitor
	metrics  []engine.HookMetric
	events   []events.Event
}

// Assemble puts a run together: the model (the mock unless given), the
// executable hooks the run reaches in the registry's order (request hooks
// innermost, around the model), then the event stream, last among the
// handlers. A run that would start commands in a folder nobody trusted is
// an error wrapping hooksets.ErrNotTrusted, and nothing was attached.
func Assemble(spec Spec) (*Run, error) {
	sc := spec.Scenario
	r := &Run{spec: spec, metrics: []engine.HookMetric{}}
	r.cfg = engine.Config{Model: spec.Model, Tools: spec.Tools, MaxRounds: spec.MaxRounds,
		BeforeCall: spec.BeforeCall, AfterCall: spec.AfterCall, OnStream: spec.OnStream,
		ModelName: sc.Model, Session: sc.Name}
	backend := spec.Backend
	var asker *answers.Model // a real run's llm hooks ask its model
	var mock *llm.Mock
	if r.cfg.Model == nil {
		mock = llm.NewMock(sc)
		r.cfg.Model, backend = mock, "mock"
	} else {
		asker = &answers.Model{}
	}
	if spec.Hooks != nil {
		hsc := spec.HookScenario
		if hsc == nil {
			hsc = sc
		}
		run := registry.Run{Scenario: hsc, Trusted: spec.Trusted, Fresh: spec.Fresh, Backend: backend, Email: spec.Email, Tokens: spec.Tokens,
			Profiles: spec.Profiles}
		if asker != nil {
			run.Completer = asker
		}
		att, err := spec.Hooks.Attach(&r.cfg, run)
		if err != nil {
			return nil, fmt.Errorf("executable hooks: %w", err)
		}
		r.hooks = att
		if asker != nil {
			asker.Model = r.cfg.Model // through the request hooks, as the run's own calls
		}
		if spec.Wrap != nil {
			for i, h := range r.cfg.Handlers {
				r.cfg.Handlers[i] = spec.Wrap(h)
			}
		}
	}
	if err := r.agentRequest(); err != nil {
		_ = r.Close()
		return nil, err
	}
	// the scenario's placeholders take the run's values once the folder
	// its agent works in is known (the hooks found it): the model's
	// scripted answers and the tools' scripted results say that folder
	if x := sc.Expand(scenario.Values{Cwd: r.cwd()}); x != sc {
		sc, r.spec.Scenario = x, x
		if mock != nil {
			mock.Play(x)
		}
		if tr, ok := r.cfg.Tools.(*llm.ToolRunner); ok {
			tr.Results = llm.ScriptedToolResults(x)
		}
	}
	if spec.Events == nil {
		r.headless = events.AttachHeadless(&r.cfg, sc, spec.Tokens)
	} else {
		r.mon = events.Attach(&r.cfg, *spec.Events)
	}
	return r, nil
}

// Execute plays the run: the trace (whatever happened, every step up to
// an error) and the error that ended it. The hooks are closed when it
// ends (a process still running is killed; a failure to close is the
// trace's error if it has none), then the event stream says how it ended.
func (r *Run) Execute(ctx context.Context) (*engine.Trace, error) {
	tr, runErr := engine.Run(ctx, r.spec.Scenario, r.prompt(), r.cfg)
	if r.hooks != nil {
		r.metrics = r.hooks.Metrics()
		if err := r.hooks.Close(); err != nil && tr.Error == "" {
			tr.Error = fmt.Sprintf("closing the hooks: %v", err)
		}
	}
	if r.spec.BeforeFinish != nil {
		r.spec.BeforeFinish()
	}
	if r.headless != nil {
		r.events = r.headless.Finish(tr, runErr)
	} else {
		r.mon.Finish(tr, runErr)
	}
	return tr, runErr
}

// agentRequest gives a run under an agent that agent's request model and
// its slots' values: the calibrated model (with the CLI's words), else the
// bundled shape (placeholders of the right size), else none — the agent's
// loop without its own words, and the trace says how to calibrate.
func (r *Run) agentRequest() error {
	a := r.cfg.Agent
	if a == nil || r.spec.Requests == nil {
		return nil
	}
	m, err := r.spec.Requests.Find(a.Agent, a.Version)
	switch {
	case errors.Is(err, request.ErrNone):
		m = request.Bare(a.Agent, a.Version)
		a.Request = request.OriginNone
	case err != nil:
		return fmt.Errorf("request model: %w", err)
	default:
		a.Request = string(m.Origin)
	}
	r.cfg.Request = m
	r.diags = scenario.CheckAgentTools(r.spec.Scenario, a.Agent+" "+a.Version, m.ToolNames())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dir := r.folder()
	r.cfg.Facts = workspace.Facts(ctx, dir, workspace.Options{Home: r.spec.Home})
	folder, notes := workspace.AgentFolder(ctx, dir, m)
	for k, v := range folder {
		r.cfg.Facts[k] = v
	}
	a.Notes = notes
	for k, v := range m.ListValues(r.cfg.AgentEntries) {
		r.cfg.Facts[k] = v
	}
	for k, v := range request.SkillValues(r.cfg.AgentEntries) {
		r.cfg.Facts[k] = v
	}
	r.cfg.Facts[request.SlotSession] = hookrun.UUID()
	return nil
}

// folder is the folder the run's agent works in: its hooks' folder when
// that is a project of its own, else the run's ("": none given).
func (r *Run) folder() string {
	if r.cfg.AgentDir != "" {
		return r.cfg.AgentDir
	}
	return r.spec.Dir
}

// cwd is the run's folder as an agent names it: absolute (the process's
// folder when the run names none).
func (r *Run) cwd() string {
	abs, err := filepath.Abs(r.folder()) // "": the process's folder
	if err != nil {
		return r.folder()
	}
	return abs
}

// prompt is the run's prompt hooks, none when the spec has none.
func (r *Run) prompt() engine.HookSource {
	if r.spec.Prompt == nil {
		return noPromptHooks{}
	}
	return r.spec.Prompt
}

// Close releases a run that will not be executed (its hooks' processes,
// if any started).
func (r *Run) Close() error {
	if r.hooks == nil {
		return nil
	}
	return r.hooks.Close()
}

// Diagnostics are what the run's agent says of the scenario: the tools it
// calls or declares that the agent does not have (errors: the run would
// not be the agent's).
func (r *Run) Diagnostics() []diag.Diagnostic { return r.diags }

// Metrics are the executable hooks' counters of the executed run.
func (r *Run) Metrics() []engine.HookMetric { return r.metrics }

// Events are the events a headless run kept (Spec.Events nil).
func (r *Run) Events() []events.Event { return r.events }

// Hooked says whether executable hooks take part in the run.
func (r *Run) Hooked() bool { return r.hooks != nil }

type noPromptHooks struct{}

func (noPromptHooks) Hooks([]string) []skills.Hook { return nil }
