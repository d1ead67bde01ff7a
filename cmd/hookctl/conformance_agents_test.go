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

	"go.yaml.in/yaml/v3"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/hooks/codexhook"
)

// agentConformance is how one agent CLI runs a conformance case: its
// recipe and binary, and what the test adds to keep it offline.
type agentConformance struct {
	system, recipe, bin string
	home                map[string]string
	args                []string
	// hookPart is the hook's part of a tool result the hook appended to
	// (Qwen Code's PostToolUse context after a blank line; "" none).
	hookPart func(text string) string
}

var codexConformance = agentConformance{
	system: "codex", recipe: "codex", bin: "node_modules/.bin/codex",
	home: map[string]string{".codex/config.toml": "[analytics]\nenabled = false\n[feedback]\nenabled = false\n"},
	// its sandbox helper is not made under a temporary folder
	args: []string{"--dangerously-bypass-approvals-and-sandbox"},
}

var qwenConformance = agentConformance{
	system: "qwen-code", recipe: "qwen-code", bin: "node_modules/.bin/qwen",
	home: map[string]string{".qwen/settings.json": `{"privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`},
	hookPart: func(text string) string {
		if _, after, ok := strings.Cut(text, "\n\n"); ok {
			return after
		}
		return ""
	},
}

// recognizer reads the agent's hook texts with its newest bundled profile.
func (ac agentConformance) recognizer(t *testing.T) *profile.Recognizer {
	t.Helper()
	prof, err := profile.NewCatalog("").NewestBundled(ac.system)
	if err != nil {
		t.Fatal(err)
	}
	return profile.NewRecognizer(prof)
}

// conformanceCases are the projects run through both: the example of
// the agent in skills/ and the cases in testdata/<agent>-conformance/, each
// a skill folder whose scenario is scenarios/case.yaml (the example's
// release.yaml).
func conformanceCases(t *testing.T, example, dir string) []string {
	t.Helper()
	out := []string{filepath.Join("..", "..", "skills", example)}
	more, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
	return append(out, more...)
}

// TestRealAgentCodexConformance: the same Codex hooks and scripted answers
// through the simulator and through the real codex exec against capture
// give the model the same hook text in the last call: developer messages
// (before the prompt, after it, between a command and its output), the
// blocked command's and the replaced output's words, the Stop hook's
// <hook_prompt> with Codex's run id.
func TestRealAgentCodexConformance(t *testing.T) {
	bin := agentTool(t, codexConformance.bin)
	t.Parallel()
	for _, c := range conformanceCases(t, "codex-guard", "codex-conformance") {
		t.Run(filepath.Base(c), func(t *testing.T) { codexConformance.check(t, bin, c) })
	}
}

// TestRealAgentQwenCodeConformance: the same for Qwen Code: SessionStart's
// block on the system prompt, the prompt's context parts (< and >
// escaped, again after tool results and on a Stop's reason), a denial's
// bare reason as the result, PostToolUse context appended to the output.
func TestRealAgentQwenCodeConformance(t *testing.T) {
	bin := agentTool(t, qwenConformance.bin)
	t.Parallel()
	for _, c := range conformanceCases(t, "qwen-guard", "qwen-conformance") {
		t.Run(filepath.Base(c), func(t *testing.T) { qwenConformance.check(t, bin, c) })
	}
}

func (ac agentConformance) check(t *testing.T, bin, src string) {
	// one copy for both runs: the hooks write nothing, and Codex's Stop
	// run id names the hooks file by its path
	root := filepath.Join(t.TempDir(), "skills")
	skill := filepath.Base(src)
	proj := filepath.Join(root, skill)
	if err := os.CopyFS(proj, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "scenarios", "case.yaml")
	if _, err := os.Stat(file); err != nil {
		file = filepath.Join(proj, "scenarios", "release.yaml")
	}
	rel, _ := filepath.Rel(proj, file)
	sc, _, err := scenario.LoadFile(proj, filepath.ToSlash(rel))
	if err != nil || sc == nil {
		t.Fatalf("scenario: %v", err)
	}
	simulated := ac.simulate(t, root, file, sc)
	real := ac.real(t, bin, proj, sc)
	norm := func(s []string) []string {
		out := make([]string, len(s))
		for i, x := range s {
			out[i] = strings.ReplaceAll(x, proj, "$PROJECT")
		}
		slices.Sort(out)
		return out
	}
	if got, want := norm(simulated.hooks), norm(real.hooks); !slices.Equal(got, want) {
		t.Errorf("hook text of the last call\nsimulator %q\n%s %q", got, ac.recipe, want)
	}
	for k, text := range simulated.written {
		r := at(real.results, k)
		if ac.hookPart != nil && strings.HasPrefix(text, "\n\n") {
			text, r = strings.TrimPrefix(text, "\n\n"), ac.hookPart(r)
		}
		if r != text {
			t.Errorf("tool result %d: simulator %q (a hook's), %s %q", k, text, ac.recipe, r)
		}
	}
	if len(simulated.hooks)+len(simulated.written) == 0 {
		t.Error("the case shows no hook text: it proves nothing")
	}
	t.Logf("hook text the model read: %q; tool results a hook wrote: %v", real.hooks, simulated.written)
}

// simulate runs the case in the simulator: the last call's hook messages,
// the hook's part of the system prompt, the tool results a hook wrote
// (an appended part as "\n\n" and the part).
func (ac agentConformance) simulate(t *testing.T, root, file string, sc *scenario.Scenario) visible {
	t.Helper()
	out, errOut, code := runCLI(t, "simulate", "--skills", root, "--trust", "--no-history", "--json", file)
	if code != exitOK {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	var doc struct {
		Requests []struct {
			LLMCalls []struct {
				Messages []struct {
					Role, Content, Origin, System string
					EditedBy                      string `json:"edited_by"`
				} `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("simulate --json: %v", err)
	}
	calls := doc.Requests[0].LLMCalls
	var results []string
	for _, rd := range sc.Requests[0].Rounds {
		for _, tc := range rd.ToolCalls {
			results = append(results, tc.Result)
		}
	}
	v := visible{written: map[int]string{}}
	k := 0
	for _, m := range calls[len(calls)-1].Messages {
		switch {
		case m.Origin == "system_prompt" && m.EditedBy != "":
			// the hook's words after the system prompt: the scenario's, or
			// under the agent's request model the agent's own
			if hook, ok := strings.CutPrefix(m.Content, sc.SystemPrompt+"\n\n"); ok {
				v.hooks = append(v.hooks, "system: "+hook)
			} else if sp, ok := ac.recognizer(t).Affix(m.Content, profile.PlaceSystemSuffix); ok {
				v.hooks = append(v.hooks, "system: "+sp.Hook)
			}
		case m.Role == "tool":
			if m.System == ac.system && m.EditedBy != "" {
				if rest, ok := strings.CutPrefix(m.Content, at(results, k)+"\n\n"); ok && at(results, k) != "" {
					v.written[k] = "\n\n" + rest
				} else {
					v.written[k] = m.Content
				}
			}
			k++
		case m.Origin == "hook" && m.System == ac.system:
			v.hooks = append(v.hooks, m.Role+": "+m.Content)
		}
	}
	return v
}

// real runs the case through the agent CLI against capture, answering
// what the scenario's rounds script (and spares: the agents make calls of
// their own), and reads the last call of the turn.
func (ac agentConformance) real(t *testing.T, bin, proj string, sc *scenario.Scenario) visible {
	t.Helper()
	data, scripted := answersFile(t, sc, 3) // the agents make calls of their own
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	files := map[string]string{filepath.Join(dir, "answers.yaml"): string(data)}
	for rel, text := range ac.home {
		files[filepath.Join(home, rel)] = text
	}
	writeFiles(t, "", files)
	ctx, stop := context.WithTimeout(context.Background(), 4*time.Minute)
	defer stop()
	out := filepath.Join(dir, "capture.json")
	url, wait := startCaptureCtx(t, ctx, "--answers", filepath.Join(dir, "answers.yaml"), "--json", out, "--no-history")
	rc, err := recipe.Find(ac.recipe)
	if err != nil {
		t.Fatal(err)
	}
	run := rc.For(url, sc.Requests[0].User)
	run.Env = append(run.Env, recipe.Var{Name: "CODEX_HOME", Value: filepath.Join(home, ".codex")})
	run.Run = slices.Insert(run.Run, len(run.Run)-1, ac.args...) // before the prompt
	printed := runRecipe(t, run, bin, proj, home)
	stop()
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc capturedDoc
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("capture: %v", err)
	}
	var turn []int // the turn's calls, not the agent's side calls
	var all [][]struct {
		Role, Content, Origin, Hook string
		IsError                     bool `json:"is_error"`
	}
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			if c.Side == "" {
				all = append(all, c.Messages)
				turn = append(turn, len(all)-1)
			}
		}
	}
	if len(turn) < scripted {
		t.Fatalf("%s made %d model calls, the scenario scripts %d:\n%s", ac.recipe, len(turn), scripted, printed)
	}
	var v visible
	for _, m := range all[turn[scripted-1]] {
		if m.Role == "tool" {
			v.results = append(v.results, m.Content)
		}
		switch {
		case m.Origin == "hook" && m.Role != "tool":
			v.hooks = append(v.hooks, m.Role+": "+m.Content)
		case m.Origin == "user_input" && m.Content != sc.Requests[0].User:
			// a Stop hook's reason as the next prompt (Qwen Code): capture
			// cannot tell it from the user's words
			v.hooks = append(v.hooks, m.Role+": "+m.Content)
		}
	}
	return v
}

// TestRealAgentCodexTrust: Codex runs a hook whose hash Hook Studio
// computed and wrote to its [hooks.state] as trusted, and skips, without
// a word, the one left untrusted — exactly what validate says of each.
func TestRealAgentCodexTrust(t *testing.T) {
	bin := agentTool(t, codexConformance.bin)
	t.Parallel()
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "project"), filepath.Join(dir, "home")
	writeFiles(t, "", map[string]string{
		filepath.Join(proj, ".codex", "hooks.json"): `{"hooks": {
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo TRUSTED-HOOK-RAN"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "touch untrusted-ran", "timeout": 20}]}]
}}`,
		filepath.Join(dir, "answers.yaml"): "answers:\n  - content: done\n  - content: spare\n",
	})
	// the hashes as Hook Studio computes them: validate --json lists them
	out, _, _ := runCLI(t, "validate", proj, "--json")
	if !strings.Contains(out, "codex-untrusted") {
		t.Fatalf("validate does not say the hooks are untrusted:\n%s", out)
	}
	c := hashesOf(t, proj)
	config := filepath.Join(home, ".codex", "config.toml")
	writeFiles(t, "", map[string]string{config: fmt.Sprintf("[analytics]\nenabled = false\n[feedback]\nenabled = false\n[projects.%q]\ntrust_level = \"trusted\"\n[hooks.state.%q]\ntrusted_hash = %q\n",
		proj, c["UserPromptSubmit"][0], c["UserPromptSubmit"][1])})
	out, _, _ = runCLI(t, "validate", proj, "--json", "--codex-user-config", config)
	if strings.Count(out, "codex-untrusted") != 1 || strings.Contains(out, "codex-project-untrusted") {
		t.Fatalf("with the user config, validate says one hook (Stop) is untrusted:\n%s", out)
	}
	ctx, stop := context.WithTimeout(context.Background(), 4*time.Minute)
	defer stop()
	capOut := filepath.Join(dir, "capture.json")
	url, wait := startCaptureCtx(t, ctx, "--answers", filepath.Join(dir, "answers.yaml"), "--json", capOut, "--no-history")
	rc, _ := recipe.Find("codex")
	run := rc.For(url, "say hi")
	run.Env = append(run.Env, recipe.Var{Name: "CODEX_HOME", Value: filepath.Join(home, ".codex")})
	// without --dangerously-bypass-hook-trust: Codex's own trust decides
	var argv []string
	for _, a := range run.Run {
		if a != "--dangerously-bypass-hook-trust" {
			argv = append(argv, a)
		}
	}
	run.Run = slices.Insert(argv, len(argv)-1, codexConformance.args...)
	runRecipe(t, run, bin, proj, home)
	stop()
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	raw, _ := os.ReadFile(capOut)
	if !strings.Contains(string(raw), "TRUSTED-HOOK-RAN") {
		t.Error("the hook trusted by the hash Hook Studio computed did not run")
	}
	if _, err := os.Stat(filepath.Join(proj, "untrusted-ran")); err == nil {
		t.Error("Codex ran the hook it had not trusted")
	}
}

// hashesOf is each Codex hook's key and hash by event, as Hook Studio's
// loader computes them.
func hashesOf(t *testing.T, proj string) map[string][2]string {
	t.Helper()
	cfg, err := codexhook.Load(proj, codexhook.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][2]string{}
	for _, h := range cfg.Hooks {
		m[h.Event] = [2]string{h.Key, h.Hash}
	}
	return m
}

// answersFile is hookctl capture's answers file for sc's first request:
// its rounds' answers as scripted, then spares plain "spare" answers for
// the calls an agent CLI makes of its own (a retry, a side call); scripted
// counts the scenario's.
func answersFile(t *testing.T, sc *scenario.Scenario, spares int) (data []byte, scripted int) {
	t.Helper()
	type call struct {
		Name      string         `yaml:"name"`
		Arguments map[string]any `yaml:"arguments"`
	}
	type answer struct {
		Content   string `yaml:"content,omitempty"`
		ToolCalls []call `yaml:"tool_calls,omitempty"`
	}
	var answers []answer
	for _, rd := range sc.Requests[0].Rounds {
		a := answer{Content: rd.Content}
		for _, tc := range rd.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, call{Name: tc.Name, Arguments: tc.Arguments})
		}
		answers = append(answers, a)
	}
	scripted = len(answers)
	for range spares {
		answers = append(answers, answer{Content: "spare"})
	}
	data, err := yaml.Marshal(map[string]any{"answers": answers})
	if err != nil {
		t.Fatal(err)
	}
	return data, scripted
}
