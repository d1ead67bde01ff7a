// Package locate finds the agent CLIs installed on this machine and their
// versions (the rendering profile of a run follows the installed CLI's
// version; Settings ▸ Agents lists them).
package locate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"hookstudio/app/hooks/process"
)

// CLI is an agent CLI found on this machine.
type CLI struct {
	Agent   string `json:"agent"`
	Path    string `json:"path"`
	Version string `json:"version"`
}

// commands are the executables agents install, by agent name.
var commands = map[string]string{
	"claude-code": "claude",
	"codex":       "codex",
	"gemini-cli":  "gemini",
	"qwen-code":   "qwen",
	"copilot-cli": "copilot",
}

// Command is the executable an agent installs ("claude"), or "".
func Command(agent string) string { return commands[agent] }

// ErrNotFound is returned when an agent's CLI is not on PATH.
var ErrNotFound = errors.New("not found on PATH")

// versionTimeout bounds `--version`: a CLI that hangs there is not usable.
// Generous: Gemini CLI's --version loads its whole bundle, which took more
// than 20 s on two busy cores (a CI job running the tests beside it).
const versionTimeout = 90 * time.Second

var versionRe = regexp.MustCompile(`\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b`)

// Finder runs `--version` of CLIs, remembering each answer by the file's
// path, size and time, so a run that asks again costs no process.
type Finder struct {
	mu    sync.Mutex
	known map[string]string
}

// NewFinder returns a Finder.
func NewFinder() *Finder { return &Finder{known: map[string]string{}} }

// Find looks agent's CLI up on PATH and asks its version.
func (f *Finder) Find(ctx context.Context, agent string) (CLI, error) {
	cmd := Command(agent)
	if cmd == "" {
		return CLI{}, fmt.Errorf("%s: no known command for this agent", agent)
	}
	p, err := exec.LookPath(cmd)
	if err != nil {
		return CLI{Agent: agent}, fmt.Errorf("%s (%s): %w", agent, cmd, ErrNotFound)
	}
	v, err := f.Version(ctx, p)
	return CLI{Agent: agent, Path: p, Version: v}, err
}

// Version runs `path --version` and reads the version it prints.
func (f *Finder) Version(ctx context.Context, path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", path, fi.Size(), fi.ModTime().UnixNano())
	f.mu.Lock()
	v, ok := f.known[key]
	f.mu.Unlock()
	if ok {
		return v, nil
	}
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	r := process.NewGroup()
	defer r.Close()
	res := r.Run(ctx, process.Spec{Argv: []string{path, "--version"}, Env: append(os.Environ(), "DISABLE_AUTOUPDATER=1"), MaxStdout: 64 << 10, MaxStderr: 64 << 10})
	switch {
	case res.TimedOut || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("%s --version did not answer within %s", path, versionTimeout)
	case res.Err != nil:
		return "", fmt.Errorf("%s --version: %w", path, res.Err)
	case res.ExitCode != 0:
		return "", fmt.Errorf("%s --version: exit %d: %s", path, res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	m := versionRe.FindStringSubmatch(string(res.Stdout))
	if m == nil {
		return "", fmt.Errorf("%s --version printed no version: %q", path, strings.TrimSpace(string(res.Stdout)))
	}
	f.mu.Lock()
	f.known[key] = m[1]
	f.mu.Unlock()
	return m[1], nil
}
