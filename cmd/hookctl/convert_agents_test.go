package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/hooks/convert"
)

// convertAgent is an agent CLI that runs a converted hook set: its recipe
// and binary, the answers' calls of its shell tool (%s: the command) and of
// its file-writing tool (%[1]s: the path, %[2]s: the content), and what
// keeps it offline.
type convertAgent struct {
	to, recipe, bin string
	shell, write    string
	home            map[string]string
	env, args       []string
}

var convertAgents = []convertAgent{
	{to: convert.ClaudeCode, recipe: "claude-code", bin: "node_modules/.bin/claude",
		shell: `{name: Bash, arguments: {command: %q, description: Run it}}`,
		write: `{name: Write, arguments: {file_path: %q, content: %q}}`,
		env:   []string{"DISABLE_AUTOUPDATER=1"},
		// claude -p refuses a tool not allowed
		args: []string{"--allowedTools=Bash,Write"}},
	{to: convert.GeminiCLI, recipe: "gemini-cli", bin: "node_modules/.bin/gemini",
		shell: `{name: run_shell_command, arguments: {command: %q}}`,
		write: `{name: write_file, arguments: {file_path: %q, content: %q}}`,
		env:   []string{"GEMINI_CLI_NO_RELAUNCH=true"}},
	{to: convert.CopilotCLI, recipe: "copilot-cli", bin: "node_modules/.bin/copilot",
		shell: `{name: bash, arguments: {command: %q, description: Run it}}`,
		write: `{name: create, arguments: {path: %q, file_text: %q}}`},
	{to: convert.QwenCode, recipe: "qwen-code", bin: "node_modules/.bin/qwen",
		shell: `{name: run_shell_command, arguments: {command: %q, description: Run it}}`,
		write: `{name: write_file, arguments: {file_path: %q, content: %q}}`,
		home: map[string]string{".qwen/settings.json": `{"privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`}},
}

// convertedGuard is a Claude Code hook set whose hooks must do under each
// agent what they do under Claude Code: the model asks to delete the build
// folder recursively, then to write secrets.env and notes.txt, then stops
// (twice, for a Stop hook that blocks once).
type convertedGuard struct {
	src string
	// read are words the model must get from the hooks, under every agent.
	read []string
}

var convertedGuards = []convertedGuard{
	// a shell guard (exit 2, stderr the reason), a context after each
	// edit (hookSpecificOutput), a Stop hook that blocks once
	{"../../skills/claude-guard", []string{
		"Recursive deletes are blocked here",
		"This project checks every change with: npm test",
		"Run the tests (npm test) before you finish",
	}},
	// a Node guard that compares tool_name with "Bash" and "Write" and
	// reads tool_input's command and file_path: it answers with
	// permissionDecision
	{"testdata/convert-guards/node-guard", []string{
		"node guard: no recursive deletes",
		"node guard: no .env files",
	}},
}

// TestRealAgentConvertedGuards: a Claude Code guard converted for Gemini
// CLI, Copilot CLI and Qwen Code (hookctl convert) blocks the same
// dangerous calls under the real CLI against hookctl capture as under
// Claude Code itself (converted to Claude Code's project settings): the
// build folder and no secrets.env are left, and the model reads each
// hook's words.
func TestRealAgentConvertedGuards(t *testing.T) {
	t.Parallel()
	for _, g := range convertedGuards {
		for _, ac := range convertAgents {
			t.Run(filepath.Base(g.src)+"/"+ac.to, func(t *testing.T) {
				bin := agentTool(t, ac.bin)
				t.Parallel()
				ac.run(t, bin, g)
			})
		}
	}
}

func (ac convertAgent) run(t *testing.T, bin string, g convertedGuard) {
	rc, err := recipe.Find(ac.recipe)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "project"), filepath.Join(dir, "home")
	if err := os.CopyFS(proj, os.DirFS(g.src)); err != nil {
		t.Fatal(err)
	}
	// a source in Claude Code's project settings runs as it is there
	if _, err := os.Stat(filepath.Join(proj, ".claude", "settings.json")); ac.to != convert.ClaudeCode || err != nil {
		if out, errOut, code := runCLI(t, "convert", "--to", ac.to, "--layout", "project", proj); code != exitOK {
			t.Fatalf("convert --to %s: exit %d\n%s%s", ac.to, code, out, errOut)
		}
	}
	secret, notes := filepath.Join(proj, "secrets.env"), filepath.Join(proj, "notes.txt")
	answers := fmt.Sprintf("answers:\n  - tool_calls: [%s]\n  - tool_calls: [%s]\n  - tool_calls: [%s]\n"+
		"  - content: Done.\n  - content: No tests here.\n  - content: spare\n  - content: spare\n",
		fmt.Sprintf(ac.shell, "rm -rf build"), fmt.Sprintf(ac.write, secret, "KEY=1"), fmt.Sprintf(ac.write, notes, "notes"))
	files := map[string]string{
		filepath.Join(proj, "build", "out.txt"): "built\n",
		filepath.Join(dir, "answers.yaml"):      answers,
	}
	for rel, text := range ac.home {
		files[filepath.Join(home, rel)] = text
	}
	writeFiles(t, "", files)

	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute)
	defer stop()
	out := filepath.Join(dir, "capture.json")
	url, wait := startCaptureCtx(t, ctx, "--answers", filepath.Join(dir, "answers.yaml"), "--json", out, "--no-history")
	run := rc.For(url, "clean the build folder")
	// the CLIs leave folders in TMPDIR: the test's own
	run.Env = append(run.Env, envVars(append([]string{"TMPDIR=" + t.TempDir()}, ac.env...))...)
	run.Run = slices.Insert(run.Run, len(run.Run)-1, ac.args...)
	printed := runRecipe(t, run, bin, proj, home)
	stop()
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}

	if _, err := os.Stat(filepath.Join(proj, "build", "out.txt")); err != nil {
		t.Errorf("the recursive delete ran: %v\n%s", err, printed)
	}
	if _, err := os.Stat(notes); err != nil {
		t.Errorf("notes.txt was not written: the run did not get that far: %v\n%s", err, printed)
	}
	guardsWrites := slices.ContainsFunc(g.read, func(s string) bool { return strings.Contains(s, ".env") })
	if _, err := os.Stat(secret); guardsWrites && err == nil {
		t.Errorf("secrets.env was written: the guard of writes did not hold\n%s", printed)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc capturedDoc
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("capture: %v\n%s", err, data)
	}
	var texts []string
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			for _, m := range c.Messages {
				texts = append(texts, m.Content)
			}
		}
	}
	for _, want := range g.read {
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("under %s the model never read %q", convert.Title(ac.to), want)
		}
	}
}
