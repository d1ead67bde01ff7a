package process

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sh(line string) []string { return []string{"/bin/sh", "-c", line} }

func TestRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("hooks run through /bin/sh")
	}
	g := NewGroup()
	defer g.Close()
	big := strings.Repeat("x", 300_000) // more than a pipe buffer
	tests := []struct {
		name  string
		spec  Spec
		ctx   func() (context.Context, context.CancelFunc)
		check func(t *testing.T, r Result)
	}{
		{"stdin to stdout", Spec{Argv: sh("cat"), Stdin: []byte("hello"), MaxStdout: 100, MaxStderr: 100}, nil, func(t *testing.T, r Result) {
			if string(r.Stdout) != "hello" || r.ExitCode != 0 || r.Err != nil || r.Truncated {
				t.Errorf("%+v", r)
			}
		}},
		{"exit status and stderr", Spec{Argv: sh("echo oops >&2; exit 3"), MaxStdout: 100, MaxStderr: 100}, nil, func(t *testing.T, r Result) {
			if r.ExitCode != 3 || string(r.Stderr) != "oops\n" {
				t.Errorf("%+v", r)
			}
		}},
		{"never reads stdin", Spec{Argv: sh("echo ok"), Stdin: []byte(big), MaxStdout: 100, MaxStderr: 100}, nil, func(t *testing.T, r Result) {
			if string(r.Stdout) != "ok\n" || r.ExitCode != 0 {
				t.Errorf("%+v", r)
			}
		}},
		{"output capped", Spec{Argv: sh("head -c 5000 /dev/zero; head -c 300 /dev/zero >&2"), MaxStdout: 1000, MaxStderr: 10}, nil, func(t *testing.T, r Result) {
			if len(r.Stdout) != 1000 || len(r.Stderr) != 10 || !r.Truncated {
				t.Errorf("stdout %d stderr %d truncated %v", len(r.Stdout), len(r.Stderr), r.Truncated)
			}
		}},
		{"deadline", Spec{Argv: sh("sleep 30"), MaxStdout: 100, MaxStderr: 100}, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, func(t *testing.T, r Result) {
			if !r.TimedOut || r.ExitCode != -1 {
				t.Errorf("%+v", r)
			}
		}},
		{"cancelled", Spec{Argv: sh("sleep 30"), MaxStdout: 100, MaxStderr: 100}, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, func() {}
		}, func(t *testing.T, r Result) {
			if !errors.Is(r.Err, context.Canceled) || r.TimedOut {
				t.Errorf("%+v", r)
			}
		}},
		{"no such program", Spec{Argv: []string{"/no/such/program"}, MaxStdout: 100, MaxStderr: 100}, nil, func(t *testing.T, r Result) {
			if r.Err == nil || !strings.Contains(r.Err.Error(), "/no/such/program") || r.ExitCode != -1 {
				t.Errorf("%+v", r)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			tt.check(t, g.Run(ctx, tt.spec))
		})
	}
}

// TestLeftBehindChildDies: what a program starts in the background dies
// with it when it exits, and Close kills a running one.
func TestLeftBehindChildDies(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	g := NewGroup()
	r := g.Run(context.Background(), Spec{Argv: sh("sleep 60 >/dev/null 2>&1 & echo $! > " + pidFile), MaxStdout: 10, MaxStderr: 10})
	if r.ExitCode != 0 {
		t.Fatalf("%+v", r)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitGone(t, pid)

	done := make(chan Result)
	go func() {
		done <- g.Run(context.Background(), Spec{Argv: sh("echo $$ > " + pidFile + ".2; sleep 60"), MaxStdout: 10, MaxStderr: 10})
	}()
	for {
		if data, err := os.ReadFile(pidFile + ".2"); err == nil && strings.HasSuffix(string(data), "\n") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	g.Close()
	if r := <-done; r.ExitCode != -1 {
		t.Errorf("closed: %+v", r)
	}
	if r := g.Run(context.Background(), Spec{Argv: sh("sleep 60"), MaxStdout: 10, MaxStderr: 10}); r.ExitCode != -1 {
		t.Errorf("a run after Close: %+v", r)
	}
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // only for failing
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEnvironments(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("HOOKSTUDIO_DATA_DIR", "/tmp/x")
	t.Setenv("KEEP_ME", "1")
	t.Setenv("DROP_ME", "1")
	env := strings.Join(Inherited("DROP_ME"), "\n")
	if strings.Contains(env, "sk-secret") || strings.Contains(env, "HOOKSTUDIO_") || strings.Contains(env, "DROP_ME") || !strings.Contains(env, "KEEP_ME=1") {
		t.Errorf("inherited: %s", env)
	}
	if got := Pick("KEEP_ME", "NOT_SET_ANYWHERE", "OPENAI_API_KEY"); len(got) != 2 || got[0] != "KEEP_ME=1" {
		t.Errorf("picked: %v", got)
	}
}

// zombie says whether pid has ended and waits to be reaped (by a PID 1
// that may never do it in a container).
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(data), ") ")
	return strings.HasPrefix(rest, "Z")
}
