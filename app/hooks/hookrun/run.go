// Package hookrun is what the hook systems of agent CLIs (Codex, Qwen
// Code, Gemini CLI, Copilot CLI) share when their hooks run in the
// simulated agent: the run's processes, folder and session id, a command
// started as the agent starts it (its shell, its folder, a timeout), the
// stdin object with its keys in the order the agent's CLI writes them
// (per event, as data: Stdin), the transcript a hook may read, each
// hook's record in the trace and its counters. What a hook's answer does
// is each agent's own.
package hookrun

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/metrics"
	"hookstudio/app/hooks/process"
)

// Run is one run of an agent's hooks.
type Run struct {
	// System names the hook system in the trace ("codex").
	System string
	// Dir is the run's own folder (transcripts), removed by Close.
	Dir string
	// Session is the session id the hooks see.
	Session string
	procs   *process.Group
	book    *metrics.Book
}

// NewRun starts a run of system's hooks; what names the system in errors
// ("codex hooks"), session its session id. Close it when the run ends.
func NewRun(system, what, session string) (*Run, error) {
	dir, err := os.MkdirTemp("", "hookstudio-"+system+"-")
	if err != nil {
		return nil, fmt.Errorf("%s: run folder: %w", what, err)
	}
	return &Run{System: system, Dir: dir, Session: session, procs: process.NewGroup(), book: metrics.NewBook(system)}, nil
}

// Close kills whatever hook still runs and removes the run's folder.
func (r *Run) Close() error {
	r.procs.Close()
	return os.RemoveAll(r.Dir)
}

// Metrics are every hook's counters so far.
func (r *Run) Metrics() []engine.HookMetric { return r.book.List() }

// Exec starts a command hook: argv in dir with env and stdin, killed after
// timeout, its output capped as every hook's is.
func (r *Run) Exec(ctx context.Context, timeout time.Duration, argv []string, dir string, env []string, stdin []byte) process.Result {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return r.procs.Run(cctx, process.Spec{Argv: argv, Dir: dir, Env: env, Stdin: stdin, MaxStdout: process.HookStdout, MaxStderr: process.HookStderr})
}

// Parallel runs each of n hooks with do at once (the ones run says run),
// and waits for all.
func Parallel(n int, run func(i int) bool, do func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		if run != nil && !run(i) {
			continue
		}
		wg.Go(func() { do(i) })
	}
	wg.Wait()
}

// Call is the trace's record of one hook's run: what it was handed, how
// long it took, how it exited (ok unless the agent reads it otherwise).
func (r *Run) Call(event, hook, source string, input []byte, res process.Result) engine.HookCall {
	code := res.ExitCode
	return engine.HookCall{System: r.System, Event: event, Hook: hook, Source: source, Input: input,
		DurationMS: float64(res.Duration.Microseconds()) / 1000, Outcome: engine.OutcomeOK, Truncated: res.Truncated,
		ExitCode: &code, Stderr: string(res.Stderr)}
}

// Skipped is the record of a hook the simulated agent does not run.
func (r *Run) Skipped(event, hook, source, why string, input []byte) engine.HookCall {
	return engine.HookCall{System: r.System, Event: event, Hook: hook, Source: source, Input: input,
		Outcome: engine.OutcomeSkipped, Error: "not run: " + why}
}

// Apply counts a hook's call and applies it, with its effect, to ev.
func (r *Run) Apply(ev *engine.Event, event, hook, source string, call engine.HookCall, eff engine.Effect) {
	m := metrics.Hook{Event: event, Name: hook, Source: source}
	if call.Outcome == engine.OutcomeSkipped {
		r.book.Skipped(m)
	} else {
		r.book.Ran(m, &call)
	}
	ev.Apply(call, eff)
}

// UUID is a random id in a UUID's form.
func UUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// UUID7 is a random id shaped as a version 7 UUID (Codex's thread ids).
func UUID7() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Options start an agent's handler for a run.
type Options[C any] struct {
	Config   C
	Scenario *scenario.Scenario
	// Profile is how the agent's version words and places hook output (nil:
	// its newest bundled profile).
	Profile *profile.Profile
}

// NewestOr is p, else agent's newest bundled profile.
func NewestOr(p *profile.Profile, agent string) (*profile.Profile, error) {
	if p != nil {
		return p, nil
	}
	p, err := profile.NewCatalog("").NewestBundled(agent)
	if err != nil {
		return nil, fmt.Errorf("%s hooks: %w", agent, err)
	}
	return p, nil
}
