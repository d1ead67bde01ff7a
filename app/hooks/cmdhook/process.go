package cmdhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Output caps: what is kept of a hook's stdout and stderr. The rest is read
// and dropped (so the hook never blocks on a full pipe) and the invocation
// is marked truncated.
const (
	MaxStdout = 1 << 20
	MaxStderr = 64 << 10
)

// readersGrace is how long the output readers may go on after the hook
// and its process group were killed: a grandchild that left the group
// (setsid) may still hold the pipes; after this they are closed.
const readersGrace = 2 * time.Second

// ErrClosed is returned for an invocation after the handler was closed.
var ErrClosed = errors.New("command hooks closed")

// procResult is how one process ended.
type procResult struct {
	stdout, stderr []byte
	exitCode       int // -1: killed by a signal or never started
	truncated      bool
	timedOut       bool  // the hook's (or the chain's) deadline passed
	err            error // could not start, or the run was cancelled
	duration       time.Duration
}

// procs owns every running hook process group, so Close can kill them all.
type procs struct {
	mu     sync.Mutex
	groups map[int]bool
	closed bool
}

func newProcs() *procs { return &procs{groups: map[int]bool{}} }

func (p *procs) add(pgid int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.groups[pgid] = true
	return true
}

func (p *procs) remove(pgid int) {
	p.mu.Lock()
	delete(p.groups, pgid)
	p.mu.Unlock()
}

// closeAll kills every running group and refuses new ones.
func (p *procs) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for g := range p.groups {
		killGroup(g)
	}
}

// run executes `sh -c command` in its own process group with stdin fed
// from a goroutine, output capped, and the whole group killed at ctx's end
// and as soon as the shell exits (a child it left behind dies with it).
// Every goroutine it starts has ended when it returns.
func (p *procs) run(ctx context.Context, command, dir string, env []string, stdin []byte) procResult {
	return p.runArgv(ctx, []string{"/bin/sh", "-c", command}, dir, env, stdin)
}

// runArgv is run for a program and its arguments, without a shell.
func (p *procs) runArgv(ctx context.Context, argv []string, dir string, env []string, stdin []byte) procResult {
	start := time.Now()
	res := procResult{exitCode: -1}
	inR, inW, err := os.Pipe()
	if err != nil {
		res.err = fmt.Errorf("stdin pipe: %w", err)
		return res
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		res.err = fmt.Errorf("stdout pipe: %w", err)
		return res
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		res.err = fmt.Errorf("stderr pipe: %w", err)
		return res
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = ownGroup()
	err = cmd.Start()
	// The child holds its ends now; ours go, so EOF and EPIPE work.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		res.err = fmt.Errorf("start sh: %w", err)
		return res
	}
	pgid := cmd.Process.Pid
	if !p.add(pgid) {
		killGroup(pgid)
	}

	var io sync.WaitGroup
	io.Go(func() {
		// A hook that never reads stdin must not block us: the write ends
		// with EPIPE when it exits, or when its group is killed.
		_, _ = inW.Write(stdin)
		inW.Close()
	})
	var readers sync.WaitGroup
	var errTrunc bool
	readers.Go(func() { res.stdout, res.truncated = readCapped(outR, MaxStdout) })
	readers.Go(func() { res.stderr, errTrunc = readCapped(errR, MaxStderr) })

	exited := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		select {
		case <-ctx.Done():
			killGroup(pgid)
		case <-exited:
		}
	})
	waitErr := cmd.Wait()
	close(exited)
	watch.Wait()
	killGroup(pgid) // whatever the hook left running in its group
	p.remove(pgid)

	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }() // ends when the readers do, which the timer below guarantees
	timer := time.NewTimer(readersGrace)
	select {
	case <-done:
	case <-timer.C:
		outR.Close() // unblocks the reads
		errR.Close()
		<-done
	}
	timer.Stop()
	outR.Close()
	errR.Close()
	inW.Close()
	io.Wait()

	res.truncated = res.truncated || errTrunc
	res.duration = time.Since(start)
	if cmd.ProcessState != nil {
		res.exitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.timedOut = true
		} else {
			res.err = ctx.Err()
		}
	} else if waitErr != nil && cmd.ProcessState == nil {
		res.err = waitErr
	}
	return res
}

// readCapped reads r to EOF, keeping the first limit bytes.
func readCapped(r *os.File, limit int) ([]byte, bool) {
	var buf bytes.Buffer
	truncated := false
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			room := limit - buf.Len()
			if room >= n {
				buf.Write(chunk[:n])
			} else {
				if room > 0 {
					buf.Write(chunk[:room])
				}
				truncated = true
			}
		}
		if err != nil {
			return buf.Bytes(), truncated
		}
	}
}
