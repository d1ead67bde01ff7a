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
)

// agentCase is one agent CLI run against hookctl capture from its recipe
// (app/agentdata/recipe), with a project hook of its own dialect that adds
// context when the prompt is submitted.
type agentCase struct {
	recipe string
	// bin is the CLI under tools/agents.
	bin string
	// hooksFile is where the project's hooks go; hooks its content, %s the
	// hook's command.
	hooksFile, hooks string
	// event is the hook's event as the agent names it; output what the
	// hook prints (%s the context).
	event, output string
	// toolCall is the answers file's call of the agent's shell tool running
	// the command %s.
	toolCall string
	// home are files of the throw-away HOME that keep the run offline
	// (telemetry, update checks), beside the recipe's own; env and args
	// what the test adds to the recipe's variables and command.
	home map[string]string
	env  []string
	args []string
	// side: the agent makes side requests of its own (Gemini CLI's router).
	side bool
}

var realAgents = []agentCase{
	{
		recipe: "codex", bin: "node_modules/.bin/codex",
		hooksFile: ".codex/hooks.json",
		hooks:     `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": %q}]}]}}`,
		event:     "UserPromptSubmit", output: `{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": %q}}`,
		toolCall: `{name: exec_command, arguments: {cmd: %q}}`,
		home:     map[string]string{".codex/config.toml": "[analytics]\nenabled = false\n[feedback]\nenabled = false\n"},
		// its sandbox helper is not made under a temporary folder: the
		// command runs unsandboxed, in the throw-away project
		args: []string{"--dangerously-bypass-approvals-and-sandbox"},
	},
	{
		recipe: "gemini-cli", bin: "node_modules/.bin/gemini",
		hooksFile: ".gemini/settings.json",
		hooks:     `{"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": %q}]}]}}`,
		event:     "BeforeAgent", output: `{"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": %q}}`,
		toolCall: `{name: run_shell_command, arguments: {command: %q}}`,
		env:      []string{"GEMINI_CLI_NO_RELAUNCH=true"},
		side:     true,
	},
	{
		recipe: "qwen-code", bin: "node_modules/.bin/qwen",
		hooksFile: ".qwen/settings.json",
		hooks:     `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": %q}]}]}}`,
		event:     "UserPromptSubmit", output: `{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": %q}}`,
		toolCall: `{name: run_shell_command, arguments: {command: %q, description: Write the marker}}`,
		home: map[string]string{".qwen/settings.json": `{"privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`},
	},
	{
		recipe: "copilot-cli", bin: "node_modules/.bin/copilot",
		hooksFile: ".github/hooks/capture-test.json",
		hooks:     `{"version": 1, "hooks": {"userPromptSubmitted": [{"type": "command", "bash": %q, "timeoutSec": 60}]}}`,
		event:     "userPromptSubmitted", output: `{"additionalContext": %q}`,
		toolCall: `{name: bash, arguments: {command: %q, description: Write the marker}}`,
	},
}

// TestRealAgents: each agent CLI, offline against hookctl capture with its
// recipe, runs its project hook (which wrote its stdin), the capture shows
// the hook's text as origin hook with its event, the agent ran the tool the
// answers asked for and sent its result back, and printed the scripted
// answer. The agents run side by side.
func TestRealAgents(t *testing.T) {
	t.Parallel() // beside the calibrations
	for _, ac := range realAgents {
		t.Run(ac.recipe, func(t *testing.T) {
			bin := agentTool(t, ac.bin)
			t.Parallel()
			ac.run(t, bin)
		})
	}
}

func (ac agentCase) run(t *testing.T, bin string) {
	rc, err := recipe.Find(ac.recipe)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "project"), filepath.Join(dir, "home")
	hookContext := "Context from the " + ac.recipe + " hook: the build folder is shared with CI"
	hook := filepath.Join(proj, "hooks", "context.sh")
	answer := "The " + ac.recipe + " run is done."
	toolCmd := "echo TOOL-RAN > tool-ran.txt; cat tool-ran.txt"
	// spare answers: agents make side calls of their own (Qwen's memory
	// extraction) and retry an error many times
	answers := fmt.Sprintf("answers:\n  - tool_calls: [%s]\n  - content: %q\n  - content: spare\n  - content: spare\n",
		fmt.Sprintf(ac.toolCall, toolCmd), answer)
	files := map[string]string{
		filepath.Join(proj, ac.hooksFile):  fmt.Sprintf(ac.hooks, "sh "+hook),
		hook:                               fmt.Sprintf("#!/bin/sh\ncat > %q\nprintf '%%s\\n' %s\n", filepath.Join(proj, "hook-stdin.json"), shellWord(fmt.Sprintf(ac.output, hookContext))),
		filepath.Join(dir, "answers.yaml"): answers,
	}
	for rel, text := range ac.home {
		files[filepath.Join(home, rel)] = text
	}
	writeFiles(t, "", files) // absolute paths

	// the capture ends when the agent is done (side calls make the number
	// of requests vary), or at the deadline
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute)
	defer stop()
	out := filepath.Join(dir, "capture.json")
	url, wait := startCaptureCtx(t, ctx, "--answers", filepath.Join(dir, "answers.yaml"), "--json", out, "--no-history")
	run := rc.For(url, "clean the build folder")
	run.Env = append(run.Env, envVars(ac.env)...)
	run.Run = slices.Insert(run.Run, len(run.Run)-1, ac.args...) // before the prompt
	printed := runRecipe(t, run, bin, proj, home)
	stop()
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}

	if data, err := os.ReadFile(filepath.Join(proj, "hook-stdin.json")); err != nil || !json.Valid(data) {
		t.Errorf("the %s hook did not run (or got no JSON): %v %s", ac.event, err, data)
	}
	if !strings.Contains(printed, answer) {
		t.Errorf("the agent did not print the scripted answer:\n%s", printed)
	}
	if _, err := os.Stat(filepath.Join(proj, "tool-ran.txt")); err != nil {
		t.Errorf("the agent did not run the tool: %v", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc capturedDoc
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("capture: %v\n%s", err, data)
	}
	var hookSeen, resultSent bool
	sides := 0
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			if c.API != rc.API || c.Status != 200 || len(c.Warnings) > 0 {
				t.Errorf("call %s %s: %d %q", c.API, c.Path, c.Status, c.Warnings)
			}
			if c.Side != "" {
				sides++
			}
			for _, m := range c.Messages {
				if m.Origin == "hook" && m.Hook == ac.event && strings.Contains(m.Content, hookContext) {
					hookSeen = true
				}
				if m.Role == "tool" && strings.Contains(m.Content, "TOOL-RAN") {
					resultSent = true
				}
			}
		}
	}
	if !hookSeen {
		t.Errorf("no message of origin hook, event %s, with the hook's context", ac.event)
	}
	if !resultSent {
		t.Error("the tool's result was not sent back to the model")
	}
	if ac.side && sides == 0 {
		t.Error("no side request: the agent's own calls (its model router) took scripted answers")
	}
}

// envVars reads NAME=VALUE pairs as a recipe's variables.
func envVars(kvs []string) []recipe.Var {
	var out []recipe.Var
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, recipe.Var{Name: k, Value: v})
	}
	return out
}

// shellWord quotes s for sh in single quotes.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
