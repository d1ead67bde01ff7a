package main

import (
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/agent/scenario"
)

// TestRealAgentGeminiRequests: every Gemini CLI conformance project,
// through the real `gemini -p` against capture and through the simulator
// with the CLI's calibrated request model, gives the same calls: as many
// (its model router's first), each with the same messages — the router's
// and the agent's system prompt, the session context with the folder's
// listing, the hooks' words, the conversation, the shell tool's words
// around its output — and the same tools.
func TestRealAgentGeminiRequests(t *testing.T) {
	bin := agentTool(t, geminiConformance.bin)
	t.Parallel()
	calibrateOnce(t, geminiConformance.system, bin)
	cases, err := os.ReadDir(filepath.Join("testdata", geminiConformance.cases))
	if err != nil {
		t.Fatal(err)
	}
	type project struct{ name, src, scenario string }
	var projects []project
	for _, c := range cases {
		src := filepath.Join("testdata", geminiConformance.cases, c.Name())
		projects = append(projects, project{c.Name(), src, filepath.Join(".hookstudio", "scenarios", "case.yaml")})
	}
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			sc, _, err := scenario.LoadFile(p.src, p.scenario)
			if err != nil || sc == nil {
				t.Fatalf("scenario: %v", err)
			}
			home := filepath.Join(t.TempDir(), "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			simProj := copyProject(t, p.src)
			out, errOut, code := runCLI(t, "simulate", "--skills", simProj, "--trust", "--no-history", "--json", "--agent", "gemini-cli@0.61.0",
				"--home", home, filepath.Join(simProj, p.scenario))
			if code != exitOK {
				t.Fatalf("simulate: exit %d: %s", code, errOut)
			}
			sim, m := simulatedCalls(t, out)
			realProj := copyProject(t, p.src)
			real, _ := geminiConformance.realCalls(t, agentTool(t, geminiConformance.bin), realProj, home, sc)
			compareCalls(t, sim, real, requestNorm(m, simProj, realProj))
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
