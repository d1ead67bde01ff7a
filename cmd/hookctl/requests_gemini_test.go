package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/capture"
)

// geminiRequestCase is a project run through the real CLI and the
// simulator: the folder both open, the scenario in it, and what the real
// run needs besides (an extension installed in its home, a git
// repository, commands on its PATH printing what the scenario scripts).
type geminiRequestCase struct {
	name, scenario string
	// project lays the project out in dir (a copy of the case).
	project func(t *testing.T, dir string)
	// extension is a folder of the project the real CLI loads as an
	// installed extension (the simulator loads it from the project).
	extension string
	git       bool
	// path are commands the real run finds first on its PATH (name →
	// what it prints).
	path map[string]string
}

func geminiRequestCases(t *testing.T) []geminiRequestCase {
	cases, err := os.ReadDir(filepath.Join("testdata", geminiConformance.cases))
	if err != nil {
		t.Fatal(err)
	}
	var out []geminiRequestCase
	for _, c := range cases {
		src := filepath.Join("testdata", geminiConformance.cases, c.Name())
		out = append(out, geminiRequestCase{name: c.Name(), scenario: filepath.Join(".hookstudio", "scenarios", "case.yaml"),
			project: func(t *testing.T, dir string) { copyTree(t, src, dir) }})
	}
	// the example extension on its release scenario: the version file its
	// edit changes, a repository to tag, tests that print what it scripts
	out = append(out, geminiRequestCase{name: "gemini-guard", scenario: filepath.Join("gemini-guard", "scenarios", "release.yaml"),
		project: func(t *testing.T, dir string) {
			copyTree(t, filepath.Join("..", "..", "skills", "gemini-guard"), filepath.Join(dir, "gemini-guard"))
			writeFiles(t, dir, map[string]string{"src/version.js": "export const version = \"1.1.9\";\n"})
		},
		extension: "gemini-guard", git: true, path: map[string]string{"npm": "12 passing"}})
	return out
}

// TestRealAgentGeminiRequests: every Gemini CLI conformance project and the
// gemini-guard example, through the real `gemini -p` against capture and
// through the simulator with the CLI's calibrated request model, give the
// same calls: as many (its model router's first), each with the same
// messages — the router's and the agent's system prompt, the session
// context with the folder's listing, the hooks' words, the conversation,
// the shell tool's words around its output — and the same tools.
func TestRealAgentGeminiRequests(t *testing.T) {
	bin := agentTool(t, geminiConformance.bin)
	t.Parallel()
	calibrateOnce(t, geminiConformance.system, bin)
	for _, c := range geminiRequestCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := filepath.Join(t.TempDir(), "home")
			simProj, realProj := filepath.Join(t.TempDir(), "project"), filepath.Join(t.TempDir(), "project")
			for _, dir := range []string{simProj, realProj} {
				c.project(t, dir)
				if c.git {
					gitInit(t, dir)
				}
			}
			sc, _, err := scenario.LoadFile(realProj, c.scenario)
			if err != nil || sc == nil {
				t.Fatalf("scenario: %v", err)
			}
			ca := geminiConformance
			ca.env = slices.Clone(ca.env)
			if len(c.path) > 0 {
				bins := t.TempDir()
				files := map[string]string{}
				for name, out := range c.path {
					files[name] = "#!/bin/sh\nprintf '%s\\n' " + shellWord(out) + "\n"
				}
				writeFiles(t, bins, files)
				for name := range c.path {
					if err := os.Chmod(filepath.Join(bins, name), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				ca.env = append(ca.env, "PATH="+bins+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			if c.extension != "" {
				copyTree(t, filepath.Join(realProj, c.extension), filepath.Join(home, ".gemini", "extensions", c.extension))
			}
			real, _ := ca.realCalls(t, bin, realProj, home, sc)
			// the tools the simulated agent does not run print, in the
			// scenario, what the real tool printed in this project
			scriptResults(t, filepath.Join(simProj, c.scenario), real, realProj, simProj)
			out, errOut, code := simulateAgent(t, "--skills", simProj, "--trust", "--no-history", "--json", "--agent", "gemini-cli@0.61.0",
				"--home", home, filepath.Join(simProj, c.scenario))
			if code != exitOK && code != exitProblems {
				t.Fatalf("simulate: exit %d: %s", code, errOut)
			}
			sim, m := simulatedCalls(t, out)
			compareRequests(t, sim, real, requestNorm(m, simProj, realProj))
			sides, chars := 0, 0
			for _, c := range real {
				if c.Side != "" {
					sides++
				}
				for _, msg := range c.Messages {
					chars += len(msg.Content)
				}
			}
			t.Logf("%d calls (%d side), %d characters of messages", len(real), sides, chars)
		})
	}
}

// scriptResults writes into the scenario file, for each scripted call of
// a tool other than the shell (whose output the simulated agent wraps as
// the CLI does), the result the real CLI's tool gave it in its project
// (its path as the simulated project's).
func scriptResults(t *testing.T, file string, real []capture.Call, realProj, simProj string) {
	t.Helper()
	results := map[string]string{} // call id → result
	var calls []capture.ToolCall
	for _, c := range real {
		for _, m := range c.Messages {
			calls = append(calls, m.ToolCalls...)
			if m.Role == "tool" {
				if _, ok := results[m.ToolCallID]; !ok {
					results[m.ToolCallID] = m.Content
				}
			}
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	k := 0 // the scripted calls, in order, are the CLI's
	var order []capture.ToolCall
	for _, tc := range calls {
		if !seen[tc.ID] {
			seen[tc.ID] = true
			order = append(order, tc)
		}
	}
	changed := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			name, result := "", (*yaml.Node)(nil)
			for i := 0; i+1 < len(n.Content); i += 2 {
				switch n.Content[i].Value {
				case "name":
					name = n.Content[i+1].Value
				case "result":
					result = n.Content[i+1]
				}
			}
			if result != nil && name != "" {
				if k < len(order) && order[k].Name == name && name != "run_shell_command" {
					if r, ok := results[order[k].ID]; ok {
						own, _, _ := strings.Cut(r, "\n\n<hook_context>") // the hook's words are the simulation's own
						result.Value, result.Style, changed = strings.ReplaceAll(own, realProj, simProj), yaml.DoubleQuotedStyle, true
					}
				}
				k++
				return
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	if !changed {
		return
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitInit makes dir a git repository with one commit of its files.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, argv := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.name=Hook Studio", "-c", "user.email=test@hookstudio.invalid", "commit", "-q", "-m", "initial"}} {
		runOwned(t, dir, os.Environ(), "git", argv...)
	}
}
