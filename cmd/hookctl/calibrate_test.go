package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agentdata/profile"
)

// pinnedClaude are the Claude Code CLIs tools/agents pins, each the source
// of the bundled profile of its version.
var pinnedClaude = []struct{ version, rel string }{
	{"2.1.197", "node_modules/.bin/claude"},
	{"2.1.332", "node_modules/claude-code-2.1.332/bin/claude.exe"},
}

func bundledProfileFile(version string) string {
	return filepath.Join("..", "..", "app", "agentdata", "profile", "bundled", profile.ClaudeCode, version+".json")
}

// TestRealAgentCalibrate: calibrating each pinned CLI gives its bundled
// profile back, byte for byte (-update writes them: that is how the bundled
// profiles are made).
func TestRealAgentCalibrate(t *testing.T) {
	for _, c := range pinnedClaude {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			cli := agentTool(t, c.rel)
			data := t.TempDir()
			out, errOut, code := runCLIEnv(t, []string{"HOOKSTUDIO_DATA_DIR=" + data}, "calibrate", profile.ClaudeCode, "--cli", cli, "--json")
			if code != exitOK {
				t.Fatalf("calibrate: exit %d\n%s", code, errOut)
			}
			var res struct {
				File     string `json:"file"`
				Nearest  string `json:"nearest"`
				Changes  []profile.Change
				Requests int `json:"requests"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if res.File != profile.Path(data, profile.ClaudeCode, c.version) {
				t.Errorf("saved to %s", res.File)
			}
			got, err := os.ReadFile(res.File)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(bundledProfileFile(c.version), got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(bundledProfileFile(c.version))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("calibrating %s gives another profile than the bundled one (go test -run RealAgentCalibrate -update rewrites it): %v", c.version, res.Changes)
			}
			if res.Nearest != profile.ClaudeCode+"@"+c.version || len(res.Changes) != 0 {
				t.Errorf("compared with %s: %v", res.Nearest, res.Changes)
			}
		})
	}
}

// TestRealAgentCalibrateInterrupted: Ctrl+C in the middle of a calibration
// leaves no profile, no probe folder and no process behind.
func TestRealAgentCalibrateInterrupted(t *testing.T) {
	cli := agentTool(t, pinnedClaude[len(pinnedClaude)-1].rel)
	root := t.TempDir()
	data, tmp := filepath.Join(root, "data"), filepath.Join(root, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(hookctl, "calibrate", profile.ClaudeCode, "--cli", cli)
	cmd.Env = append(os.Environ(), "HOOKSTUDIO_DATA_DIR="+data, "TMPDIR="+tmp)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// interrupt once the CLI is mid-run: its third request answered
	lines := bufio.NewScanner(stderr)
	var seen []string
	for lines.Scan() {
		seen = append(seen, lines.Text())
		if strings.Contains(lines.Text(), "request 3 answered") {
			break
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitProblems {
		t.Fatalf("exit %v after %q\n%s", err, seen, rest)
	}
	if !strings.Contains(string(rest), "nothing was saved") {
		t.Errorf("stderr %s", rest)
	}
	if _, err := os.Stat(filepath.Join(data, profile.Folder)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a profile folder was written: %v", err)
	}
	// no process runs in or from the probe folders, and they are gone
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := processesUnder(tmp)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left in TMPDIR: %v", entries)
	}
}

// processesUnder lists the processes whose working directory or command
// line is under dir.
func processesUnder(dir string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cwd, _ := os.Readlink(filepath.Join(p, "cwd"))
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		if strings.HasPrefix(cwd, dir) || bytes.Contains(cmdline, []byte(dir)) {
			if stat, _ := os.ReadFile(filepath.Join(p, "stat")); isZombieStat(stat) {
				continue
			}
			out = append(out, p+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

func isZombieStat(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
