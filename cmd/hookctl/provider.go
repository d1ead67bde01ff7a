package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/services/runs"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/profiles"
)

// maxProviderRounds ends a runaway agent loop of a real model.
const maxProviderRounds = 25

// providerFlags are the flags of a run against a real model.
type providerFlags struct {
	provider *string
	profiles *string
}

func addProviderFlags(fs *flag.FlagSet) *providerFlags {
	return &providerFlags{
		provider: fs.String("provider", "", "run against the real model of this endpoint profile instead of the mock"),
		profiles: fs.String("profiles", "", "profiles file (default: profiles.json in the data folder)"),
	}
}

// providerRun is how a simulation calls its model: spec holds the model
// and its tool results (nothing for the mock).
type providerRun struct {
	ctx     context.Context
	spec    runs.Spec
	cancel  context.CancelCauseFunc
	backend string // for the history: "mock" or "PROVIDER:PROFILE"
}

// explain turns a run stopped for want of a tool result into that reason.
func (r *providerRun) explain(err error) error {
	if cause := context.Cause(r.ctx); err != nil && errors.Is(cause, llm.ErrNoToolResult) {
		return cause
	}
	return err
}

// setup returns the mock run, or with --provider the profile's model:
// tool results come from the scenario's scripted calls (by arguments,
// else by name); an unknown one ends the run, as nobody can be asked.
// The scenario gets llm.PlanningPrompt when it does not set its own, so
// the real model answers the planning round in a form that can be parsed.
func (pf *providerFlags) setup(ctx context.Context, sc *scenario.Scenario, stderr io.Writer) (*providerRun, error) {
	if *pf.provider == "" {
		if *pf.profiles != "" {
			return nil, fmt.Errorf("%w: --profiles needs --provider", errUsage)
		}
		return &providerRun{ctx: ctx, cancel: func(error) {}, backend: "mock"}, nil
	}
	path := *pf.profiles
	if path == "" {
		dir, err := studio.DefaultDataDir()
		if err != nil {
			return nil, err
		}
		path = profiles.DefaultPath(dir)
	}
	store := profiles.NewStore(path)
	p, err := store.Get(*pf.provider)
	if err != nil {
		return nil, fmt.Errorf("%w (profiles file %s)", err, path)
	}
	model, err := store.Model(p, func(o *llm.Options) {
		o.OnRetry = func(attempt int, wait time.Duration, err error) {
			fmt.Fprintf(stderr, "hookctl: attempt %d failed (%v); retrying in %s\n", attempt, err, wait.Round(time.Millisecond))
		}
	})
	if err != nil {
		return nil, err
	}
	if sc.Prompts.Planning == "" {
		sc.Prompts.Planning = llm.PlanningPrompt
	}
	ctx, cancel := context.WithCancelCause(ctx)
	results := llm.ScriptedToolResults(sc)
	runner := &llm.ToolRunner{Results: results, AskUser: func(_ context.Context, tc engine.ToolCall) (string, error) {
		err := fmt.Errorf("%w %s(%s): the scenario scripts no call of %s, and a headless run cannot ask; script one under rounds: tool_calls", llm.ErrNoToolResult, tc.Name, llm.CanonicalJSON(tc.Arguments), tc.Name)
		cancel(err)
		return "", err
	}}
	// An answer with neither text nor tool calls is warned about on its call.
	backend := fmt.Sprintf("%s:%s", p.Provider, p.Name)
	spec := runs.Spec{Model: model, Backend: backend, Tools: runner, MaxRounds: maxProviderRounds, AfterCall: llm.MarkWarnings(nil)}
	return &providerRun{ctx: ctx, spec: spec, cancel: cancel, backend: backend}, nil
}
