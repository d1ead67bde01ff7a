package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agentdata/recipe"
)

// agentTimeout bounds one agent CLI's run: a few seconds on an idle
// machine, far more beside a busy build.
const agentTimeout = 4 * time.Minute

// runRecipe runs a filled-in recipe as its user would: its files written
// (~/ under home, others in proj), its variables set, its commands run in
// proj with bin for the agent's CLI — offline, with a throw-away HOME. It
// returns what the last command printed. Each process is the test's: in a
// process group of its own, killed whole at the timeout or when the test
// ends.
func runRecipe(t *testing.T, r recipe.Recipe, bin, proj, home string) string {
	t.Helper()
	files := map[string]string{}
	for _, f := range r.Files {
		path := filepath.Join(proj, f.Path)
		if rest, ok := strings.CutPrefix(f.Path, "~/"); ok {
			path = filepath.Join(home, rest)
		}
		files[path] = f.Content
	}
	writeFiles(t, "", files) // absolute paths
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	// PWD: opencode finds its project from it, not from the working directory
	env := append(os.Environ(), "HOME="+home, "PWD="+proj, "NO_COLOR=1")
	for _, v := range r.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	var printed []byte
	for _, argv := range append(r.Before, r.Run) {
		printed = runOwned(t, proj, env, bin, argv[1:]...)
	}
	return string(printed)
}

// runOwned runs bin with args in dir and returns its output; a failure or
// a timeout fails the test with what it printed.
func runOwned(t *testing.T, dir string, env []string, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = nil // no terminal: the agents' headless mode
	ownGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	t.Cleanup(func() { killGroup(cmd) }) // a daemon it left behind (Cline's hub)
	printed, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: no end after %s\n%s", filepath.Base(bin), strings.Join(args, " "), agentTimeout, printed)
	}
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, printed)
	}
	return printed
}
