package cmdhook

import (
	"context"
	"time"
)

// Runner runs hook processes for another hook system (Claude Code's hooks)
// with command hooks' ownership: own process group, capped output, the
// whole group killed at the deadline, when the shell exits and at Close.
type Runner struct{ p *procs }

// NewRunner returns a Runner; Close it when the run ends.
func NewRunner() *Runner { return &Runner{p: newProcs()} }

// RunResult is how one process ended.
type RunResult struct {
	Stdout, Stderr []byte
	ExitCode       int // -1: killed by a signal or never started
	Truncated      bool
	TimedOut       bool
	Err            error // could not start, or the run was cancelled
	Duration       time.Duration
}

// Run executes argv (a shell line is {"/bin/sh", "-c", line}) in dir.
func (r *Runner) Run(ctx context.Context, argv []string, dir string, env []string, stdin []byte) RunResult {
	res := r.p.runArgv(ctx, argv, dir, env, stdin)
	return RunResult{Stdout: res.stdout, Stderr: res.stderr, ExitCode: res.exitCode, Truncated: res.truncated,
		TimedOut: res.timedOut, Err: res.err, Duration: res.duration}
}

// Close kills every process still running and refuses new ones.
func (r *Runner) Close() { r.p.closeAll() }
