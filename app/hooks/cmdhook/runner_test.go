package cmdhook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/process"
)

// TestFailures: every way a hook can fail is a visible outcome, never a
// failed run, and on_error decides whether the chain goes on.
func TestFailures(t *testing.T) {
	tests := []struct {
		name    string
		hook    string // one hook entry under pre_llm_request (after "- ")
		outcome engine.Outcome
		check   func(t *testing.T, hc engine.HookCall)
	}{
		{"non-zero exit", `command: "echo oops >&2; exit 3"`, engine.OutcomeError, func(t *testing.T, hc engine.HookCall) {
			if hc.ExitCode == nil || *hc.ExitCode != 3 || hc.Stderr != "oops\n" {
				t.Errorf("exit %v stderr %q", hc.ExitCode, hc.Stderr)
			}
		}},
		{"invalid JSON", `command: "echo not json"`, engine.OutcomeError, func(t *testing.T, hc engine.HookCall) {
			if hc.OutputText != "not json\n" || hc.Output != nil {
				t.Errorf("output %q / %s", hc.OutputText, hc.Output)
			}
		}},
		{"timeout", `{command: "sleep 5", timeout: 0.2}`, engine.OutcomeTimeout, func(t *testing.T, hc engine.HookCall) {
			if hc.DurationMS > 3000 || hc.ExitCode != nil {
				t.Errorf("duration %v exit %v", hc.DurationMS, hc.ExitCode)
			}
		}},
		{"never reads stdin", `command: "echo '{}'"`, engine.OutcomeOK, nil},
		{"never reads stdin and sleeps", `command: "sleep 0.2; echo '{}'"`, engine.OutcomeOK, nil},
		{"megabytes of output", `command: "cat >/dev/null; head -c 5000000 /dev/zero | tr '\\0' x; head -c 300000 /dev/zero >&2"`, engine.OutcomeError, func(t *testing.T, hc engine.HookCall) {
			if !hc.Truncated || len(hc.OutputText) != process.HookStdout || len(hc.Stderr) != process.HookStderr {
				t.Errorf("truncated %v stdout %d stderr %d", hc.Truncated, len(hc.OutputText), len(hc.Stderr))
			}
		}},
	}
	// A 300 KB user message: more than a pipe buffer, so a hook that never
	// reads stdin would block a naive writer.
	big := strings.Repeat("x", 300_000)
	sc := parseScenario(t, "enable_tools: false\nrequests:\n  - user: "+big+"\n    reply: ok\n")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, onErr := range []OnError{OnErrorSkip, OnErrorAbort} {
				yaml := "pre_llm_request:\n  - " + tt.hook + "\n  - command: \"echo '{\\\"additional_context\\\": \\\"second\\\"}'\"\n"
				yaml = strings.Replace(yaml, "\n  - command: \"echo '{\\\"add", "\n  - command: \"echo '{\\\"add", 1)
				if onErr == OnErrorAbort {
					yaml = "pre_llm_request:\n  - " + withOnError(tt.hook) + "\n  - command: \"echo '{\\\"additional_context\\\": \\\"second\\\"}'\"\n"
				}
				tr := run(t, yaml, sc)
				calls := callsOf(tr, "pre_llm_request")
				if len(calls) == 0 || calls[0].Outcome != tt.outcome {
					t.Fatalf("%s: calls %+v", onErr, calls)
				}
				if tt.check != nil {
					tt.check(t, calls[0])
				}
				failed := tt.outcome == engine.OutcomeError || tt.outcome == engine.OutcomeTimeout
				wantCalls := 2
				if failed && onErr == OnErrorAbort {
					wantCalls = 1
				}
				if len(calls) != wantCalls {
					t.Errorf("%s: %d calls, want %d", onErr, len(calls), wantCalls)
				}
				if tr.Status != engine.StatusOK {
					t.Errorf("run status %s", tr.Status)
				}
			}
		})
	}
}

// withOnError adds on_error: abort to a hook entry written inline or as
// one key.
func withOnError(entry string) string {
	if strings.HasPrefix(entry, "{") {
		return "{on_error: abort, " + entry[1:]
	}
	return "{on_error: abort, " + entry + "}"
}

// TestChainTimeout: the chain's own deadline kills the running hook and
// the rest are shown as not run.
func TestChainTimeout(t *testing.T) {
	root := writeTree(t, map[string]string{ProjectFile: `
pre_llm_request:
  - command: "sleep 0.1; echo '{}'"
  - command: "sleep 5"
  - command: "echo '{}'"
`})
	sc := parseScenario(t, direct)
	start := time.Now()
	tr, h, err := simulate(t, root, sc, func(o *Options) { o.ChainTimeout = 500 * time.Millisecond })
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("run took %s", d)
	}
	calls := callsOf(tr, "pre_llm_request")
	want := []engine.Outcome{engine.OutcomeOK, engine.OutcomeTimeout, engine.OutcomeSkipped}
	if len(calls) != len(want) {
		t.Fatalf("calls %+v", calls)
	}
	for i, w := range want {
		if calls[i].Outcome != w {
			t.Errorf("call %d outcome %s, want %s", i, calls[i].Outcome, w)
		}
	}
	var skips int
	for _, m := range h.Metrics() {
		skips += m.Skips
	}
	if skips != 1 {
		t.Errorf("metrics skips = %d, want 1", skips)
	}
}

// TestNoOrphans: a child the hook forks into the background dies with the
// hook, both when the hook exits and when it times out.
func TestNoOrphans(t *testing.T) {
	for _, tt := range []struct{ name, tail string }{
		{"hook exits", "echo '{}'"},
		{"hook times out", "sleep 10"},
		{"child detaches its output", "exec >/dev/null 2>&1; echo"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			root := writeTree(t, map[string]string{ProjectFile: "pre_llm_request:\n  - command: \"sleep 30 & echo $! > " + pidFile + "; " + strings.ReplaceAll(tt.tail, `"`, `\"`) + "\"\n    timeout: 0.5\n"})
			start := time.Now()
			if _, _, err := simulate(t, root, parseScenario(t, direct), nil); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("run took %s", d)
			}
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			assertDead(t, pid)
		})
	}
}

// assertDead waits briefly for pid to be gone (or a zombie awaiting its
// reaper, which is dead too).
func assertDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) || isZombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d outlived the hook (kill 0: %v)", pid, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func isZombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// TestCloseKillsRunningHooks: Close ends a run's hooks at once.
func TestCloseKillsRunningHooks(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	root := writeTree(t, map[string]string{ProjectFile: "pre_llm_request:\n  - command: \"echo $$ > " + pidFile + "; sleep 20\"\n"})
	sc := parseScenario(t, direct)
	h, err := New(Options{Root: root, Scenario: sc, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *engine.Trace)
	go func() {
		tr, _ := engine.Run(context.Background(), sc, noPromptHooks{}, engine.Config{Model: mockFor(sc), Handlers: []engine.Handler{h}})
		done <- tr
	}()
	var pid int
	for deadline := time.Now().Add(5 * time.Second); pid == 0; {
		if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		if time.Now().After(deadline) {
			t.Fatal("the hook never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.Close()
	select {
	case tr := <-done:
		if c := callsOf(tr, "pre_llm_request"); len(c) != 1 || c[0].Outcome != engine.OutcomeError {
			t.Errorf("calls %+v", c)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not end after Close")
	}
	assertDead(t, pid)
}

// TestCancelledRun: cancelling the run's context kills the hook and ends
// the run with the context's error.
func TestCancelledRun(t *testing.T) {
	root := writeTree(t, map[string]string{ProjectFile: "pre_llm_request:\n  - command: \"sleep 20\"\n"})
	sc := parseScenario(t, direct)
	h, err := New(Options{Root: root, Scenario: sc, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = engine.Run(ctx, sc, noPromptHooks{}, engine.Config{Model: mockFor(sc), Handlers: []engine.Handler{h}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

// TestEnvironment: hooks get jcli's variables and never the parent's API
// keys; as seed 001 describes, nothing else of the parent's either, while
// jcli's code passes the rest of it on.
func TestEnvironment(t *testing.T) {
	for _, mode := range []hostmode.Mode{hostmode.Code, hostmode.Document} {
		t.Run(string(mode), func(t *testing.T) { testEnvironment(t, mode) })
	}
}

func testEnvironment(t *testing.T, mode hostmode.Mode) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("HOOKSTUDIO_SECRET_THING", "x")
	t.Setenv("SOME_USER_SETTING", "inherited")
	out := filepath.Join(t.TempDir(), "env")
	root := writeTree(t, map[string]string{"guard/hooks/hooks.yaml": "pre_send_message:\n  - command: \"env > " + out + "; pwd >> " + out + "\"\n"})
	tr, _, err := simulate(t, root, parseScenario(t, direct), func(o *Options) { o.Mode = mode })
	if err != nil {
		t.Fatal(err)
	}
	if c := callsOf(tr, "pre_send_message"); len(c) != 1 || !strings.Contains(c[0].Other, "environment") {
		t.Errorf("calls %+v: want a note on the environment", c)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, l := range lines[:len(lines)-1] {
		if k, v, ok := strings.Cut(l, "="); ok {
			env[k] = v
		}
	}
	for k := range env {
		if strings.Contains(k, "API_KEY") || strings.HasPrefix(k, "HOOKSTUDIO_") {
			t.Errorf("the hook sees %s", k)
		}
	}
	if inherited := env["SOME_USER_SETTING"] == "inherited"; inherited != (mode == hostmode.Code) {
		t.Errorf("the parent's SOME_USER_SETTING reached the hook: %v", inherited)
	}
	hookDir := filepath.Join(root, "guard", "hooks")
	if env["JCLI_HOOK_EVENT"] != "pre_send_message" || env["JCLI_CWD"] != root || env["JCLI_HOOK_DIR"] != hookDir {
		t.Errorf("jcli variables %q %q %q", env["JCLI_HOOK_EVENT"], env["JCLI_CWD"], env["JCLI_HOOK_DIR"])
	}
	if !strings.HasPrefix(env["PATH"], hookDir+":") {
		t.Errorf("PATH %q does not start with the hook's folder", env["PATH"])
	}
	if pwd := lines[len(lines)-1]; pwd != root {
		t.Errorf("working directory %q, want %q", pwd, root)
	}
}
