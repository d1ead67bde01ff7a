package calibration

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agents/locate"
)

type events struct {
	mu     sync.Mutex
	states []State
	got    chan struct{}
}

func newEvents() *events { return &events{got: make(chan struct{}, 1000)} }

func (e *events) emit(name string, v any) {
	if name != EventState {
		return
	}
	e.mu.Lock()
	e.states = append(e.states, v.(State))
	e.mu.Unlock()
	e.got <- struct{}{}
}

// until waits for a state that matches (the calibration's own events, not
// a clock, say when).
func (e *events) until(t *testing.T, match func(State) bool) State {
	t.Helper()
	for {
		e.mu.Lock()
		for _, st := range e.states {
			if match(st) {
				e.mu.Unlock()
				return st
			}
		}
		e.mu.Unlock()
		select {
		case <-e.got:
		case <-time.After(time.Minute):
			t.Fatal("no such calibration state")
		}
	}
}

func fakeCLI(t *testing.T, dir, body string) string {
	t.Helper()
	cli := filepath.Join(dir, "claude")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + "2.1.332" + " (Claude Code)'; exit 0; fi\n" + body
	if err := os.WriteFile(cli, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cli
}

// Settings ▸ Agents lists each agent's CLI with its version and whether a
// profile exists for it.
func TestCLIs(t *testing.T) {
	bin := t.TempDir()
	fakeCLI(t, bin, "exit 0\n")
	t.Setenv("PATH", bin)
	s := New(func(string, any) {}, t.TempDir(), profile.NewCatalog(""), locate.NewFinder())
	clis, err := s.CLIs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range clis {
		switch c.Agent {
		case profile.ClaudeCode:
			if c.Path != filepath.Join(bin, "claude") || c.Version != "2.1.332" || c.Profile != ProfileBundled || !c.Calibratable {
				t.Errorf("claude: %+v", c)
			}
		default:
			if c.Path != "" || c.Profile != ProfileNone {
				t.Errorf("%s is not installed: %+v", c.Agent, c)
			}
		}
	}
}

// A calibration that fails says why and saves nothing; one cancelled ends
// its CLI at once and saves nothing either.
func TestCalibrationFailsOrIsCancelled(t *testing.T) {
	data := t.TempDir()
	ev := newEvents()
	s := New(ev.emit, data, profile.NewCatalog(data), locate.NewFinder())
	t.Cleanup(s.Close)

	bin := t.TempDir()
	cli := fakeCLI(t, bin, "echo 'no network' >&2; exit 1\n")
	if _, err := s.Start(profile.ClaudeCode, cli); err != nil {
		t.Fatal(err)
	}
	st := ev.until(t, func(st State) bool { return !st.Running && st.Error != "" })
	if st.Result != nil || !strings.Contains(st.Error, "nothing was saved") || len(st.Lines) == 0 {
		t.Errorf("failed calibration: %+v", st)
	}

	pidFile := filepath.Join(bin, "pid")
	cli = fakeCLI(t, bin, "echo $$ > "+pidFile+"\nexec sleep 300\n")
	if _, err := s.Start(profile.ClaudeCode, cli); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Start(profile.ClaudeCode, cli); !errors.Is(err, ErrRunning) {
		t.Errorf("a second calibration started: %v", err)
	}
	ev.until(t, func(st State) bool { return st.Running && strings.Contains(st.Progress.Message, "starting") })
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) { // the CLI runs once it wrote its pid
		if data, _ := os.ReadFile(pidFile); len(data) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake CLI never started")
		}
	}
	st = s.Cancel()
	if st.Running || !st.Cancelled || st.Result != nil {
		t.Errorf("cancelled calibration: %+v", st)
	}
	data2, _ := os.ReadFile(pidFile)
	pid := strings.TrimSpace(string(data2))
	if _, err := os.Stat("/proc/" + pid); err == nil {
		if stat, _ := os.ReadFile("/proc/" + pid + "/stat"); !strings.Contains(string(stat), ") Z") {
			t.Errorf("the CLI (pid %s) still runs after cancel", pid)
		}
	}
	if _, err := os.Stat(filepath.Join(data, profile.Folder)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a profile was saved: %v", err)
	}
}
