// Package process runs the user's hook programs for every hook system:
// each in a process group of its own, its output capped, the whole group
// killed at its deadline, when it exits (whatever it left running dies
// with it) and when the run ends; and the environments hooks get, which
// never hold Hook Studio's API keys.
package process

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

// readersGrace is how long the output readers may go on after a program
// and its process group were killed: a grandchild that left the group
// (setsid) may still hold the pipes; after this they are closed.
const readersGrace = 2 * time.Second

// Spec is one program to run to its end.
type Spec struct {
	Argv  []string // a shell line is {"/bin/sh", "-c", line}
	Dir   string
	Env   []string
	Stdin []byte
	// MaxStdout and MaxStderr are how much output is kept; the rest is
	// read and dropped (the program never blocks on a full pipe) and the
	// result marked Truncated.
	MaxStdout, MaxStderr int
}

// What is kept of a hook's output, for every hook system that runs hook
// programs: a hook answers in a small JSON object or a few lines, so more
// is a mistake the step says was cut.
const (
	HookStdout = 1 << 20
	HookStderr = 64 << 10
)

// Result is how one program ended.
type Result struct {
	Stdout, Stderr []byte
	ExitCode       int // -1: killed by a signal or never started
	Truncated      bool
	TimedOut       bool  // ctx's deadline passed
	Err            error // could not start, or ctx was cancelled
	Duration       time.Duration
}

// Group owns every process group it started, so Close can kill them all.
// It is safe for concurrent use.
type Group struct {
	mu     sync.Mutex
	groups map[int]bool
	closed bool
}

// NewGroup returns an empty Group; Close it when the run ends.
func NewGroup() *Group { return &Group{groups: map[int]bool{}} }

func (g *Group) add(pgid int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.groups[pgid] = true
	return true
}

func (g *Group) remove(pgid int) {
	g.mu.Lock()
	delete(g.groups, pgid)
	g.mu.Unlock()
}

// Close kills every running group and refuses new ones (they are killed
// as soon as they start).
func (g *Group) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for pgid := range g.groups {
		killGroup(pgid)
	}
}

// Run executes s in its own process group with stdin fed from a
// goroutine, output capped, and the whole group killed at ctx's end and as
// soon as the program exits. Every goroutine it starts has ended when it
// returns.
func (g *Group) Run(ctx context.Context, s Spec) Result {
	start := time.Now()
	res := Result{ExitCode: -1}
	inR, inW, err := os.Pipe()
	if err != nil {
		res.Err = fmt.Errorf("stdin pipe: %w", err)
		return res
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeFiles(inR, inW)
		res.Err = fmt.Errorf("stdout pipe: %w", err)
		return res
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeFiles(inR, inW, outR, outW)
		res.Err = fmt.Errorf("stderr pipe: %w", err)
		return res
	}
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	OwnGroup(cmd)
	err = cmd.Start()
	// The child holds its ends now; ours go, so EOF and EPIPE work.
	closeFiles(inR, outW, errW)
	if err != nil {
		closeFiles(inW, outR, errR)
		res.Err = fmt.Errorf("start %s: %w", startName(s.Argv), err)
		return res
	}
	pgid := cmd.Process.Pid
	if !g.add(pgid) {
		killGroup(pgid)
	}

	var feed sync.WaitGroup
	feed.Go(func() {
		// A program that never reads stdin must not block us: the write
		// ends with EPIPE when it exits, or when its group is killed.
		_, _ = inW.Write(s.Stdin)
		inW.Close()
	})
	var readers sync.WaitGroup
	var errTrunc bool
	readers.Go(func() { res.Stdout, res.Truncated = readCapped(outR, s.MaxStdout) })
	readers.Go(func() { res.Stderr, errTrunc = readCapped(errR, s.MaxStderr) })

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
	killGroup(pgid) // whatever the program left running in its group
	g.remove(pgid)

	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }() // ends when the readers do, which the timer below guarantees
	timer := time.NewTimer(readersGrace)
	select {
	case <-done:
	case <-timer.C:
		closeFiles(outR, errR) // unblocks the reads
		<-done
	}
	timer.Stop()
	closeFiles(outR, errR, inW)
	feed.Wait()

	res.Truncated = res.Truncated || errTrunc
	res.Duration = time.Since(start)
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.TimedOut = true
		} else {
			res.Err = ctx.Err()
		}
	} else if waitErr != nil && cmd.ProcessState == nil {
		res.Err = waitErr
	}
	return res
}

// startName is what a failed start names: the shell for a shell line.
func startName(argv []string) string {
	if len(argv) == 3 && argv[0] == "/bin/sh" && argv[1] == "-c" {
		return "sh"
	}
	return argv[0]
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
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

// Kill ends cmd's whole process group (on Windows, the process itself).
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		killGroup(cmd.Process.Pid)
	}
}
