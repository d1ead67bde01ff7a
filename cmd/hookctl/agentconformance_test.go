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

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/capture"
)

// conformanceAgent is an agent CLI whose hooks the simulator hosts, run
// against capture to check that the simulator shows its model the same
// hook text.
type conformanceAgent struct {
	system string // the hook system, and the agent of its profiles and recipe
	bin    string // under tools/agents
	cases  string // testdata folder: one project per case
	env    []string
}

var (
	geminiConformance  = conformanceAgent{system: "gemini-cli", bin: "node_modules/.bin/gemini", cases: "gemini-conformance", env: []string{"GEMINI_CLI_NO_RELAUNCH=true"}}
	copilotConformance = conformanceAgent{system: "copilot-cli", bin: "node_modules/.bin/copilot", cases: "copilot-conformance"}
)

// TestRealAgentGeminiCLIConformance: the same Gemini CLI hooks and the
// same scripted answers, once through the simulator and once through the
// real `gemini -p` against hookctl capture (its model router answered by
// capture itself), give the model the same hook text in the last call, in
// the same order; a tool result a hook wrote is the CLI's too, and an
// answer a BeforeModel hook gave is what the CLI prints
// (testdata/gemini-conformance).
func TestRealAgentGeminiCLIConformance(t *testing.T) { geminiConformance.run(t) }

// TestRealAgentCopilotCLIConformance is the same against the real
// `copilot -p --trust-folder` (testdata/copilot-conformance).
func TestRealAgentCopilotCLIConformance(t *testing.T) { copilotConformance.run(t) }

func (ca conformanceAgent) run(t *testing.T) {
	bin := agentTool(t, ca.bin)
	t.Parallel()
	cases, err := os.ReadDir(filepath.Join("testdata", ca.cases))
	if err != nil {
		t.Fatal(err)
	}
	prof, err := profile.NewCatalog("").NewestBundled(ca.system)
	if err != nil {
		t.Fatal(err)
	}
	rc := profile.NewRecognizer(prof)
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("testdata", ca.cases, c.Name())
			sc := loadCase(t, src)
			sim := ca.simulate(t, rc, copyProject(t, src))
			real, printed := ca.real(t, bin, copyProject(t, src), sc)
			if sim.answeredBy != "" {
				// a hook answered in the model's place: no model call to compare
				if !strings.Contains(printed, sim.reply) {
					t.Errorf("the simulator's reply %q (answered by %s) is not what the CLI printed:\n%s", sim.reply, sim.answeredBy, printed)
				}
				return
			}
			ca.compare(t, sim, real)
		})
	}
}

// hookText is one message of a call as role: content, with its origin.
type hookText struct{ role, content, origin string }

func (h hookText) String() string { return h.role + ": " + h.content }

// simulated is what the simulator shows the model in the last call.
type simulated struct {
	hooks      []hookText // the system's words: hook messages, a tool result's hook suffix, a result in a hook's place
	reply      string
	answeredBy string
}

func (ca conformanceAgent) simulate(t *testing.T, rc *profile.Recognizer, proj string) simulated {
	t.Helper()
	out, errOut, code := runCLI(t, "simulate", "--skills", proj, "--trust", "--no-history", "--json",
		filepath.Join(proj, ".hookstudio", "scenarios", "case.yaml"))
	if code != exitOK {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	var doc struct {
		Requests []struct {
			Reply    string `json:"reply"`
			LLMCalls []struct {
				AnsweredBy string `json:"answered_by"`
				Messages   []struct {
					Role, Content, Origin, System string
					EditedBy                      string `json:"edited_by"`
					InPlace                       bool   `json:"in_place"`
				} `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("simulate --json: %v", err)
	}
	calls := doc.Requests[0].LLMCalls
	last := calls[len(calls)-1]
	s := simulated{reply: doc.Requests[0].Reply, answeredBy: last.AnsweredBy}
	for _, m := range last.Messages {
		switch {
		case m.Origin == "hook" && m.System == ca.system:
			s.hooks = append(s.hooks, hookText{m.Role, m.Content, m.Origin})
		case m.Role == "tool" && m.System == ca.system && m.InPlace:
			s.hooks = append(s.hooks, hookText{"tool", m.Content, "hook"})
		case m.Role == "tool" && m.System == ca.system && m.EditedBy != "":
			// a hook's words joined to the tool's result: split as capture splits them
			if sp, ok := rc.Affix(m.Content, profile.PlaceResultSuffix); ok {
				s.hooks = append(s.hooks, hookText{"tool", sp.Hook, "hook"})
			} else {
				s.hooks = append(s.hooks, hookText{"tool", m.Content, "hook"}) // a result a hook put in place of the tool's
			}
		}
	}
	return s
}

// real runs the agent CLI from its recipe in proj against hookctl capture
// answering what the scenario's rounds script, and returns its last model
// call's messages and what it printed.
func (ca conformanceAgent) real(t *testing.T, bin, proj string, sc *scenario.Scenario) ([]hookText, string) {
	t.Helper()
	calls, printed := ca.realCalls(t, bin, proj, filepath.Join(t.TempDir(), "home"), sc)
	var main []hookText
	for _, c := range calls {
		if c.Side != "" {
			continue
		}
		main = main[:0]
		for _, m := range c.Messages {
			main = append(main, hookText{m.Role, m.Content, string(m.Origin)})
		}
	}
	return main, printed
}

// realCalls runs the agent CLI from its recipe in proj with home against
// hookctl capture answering what the scenario's rounds script, and
// returns every call it made (its side calls too), as capture read them,
// and what it printed.
func (ca conformanceAgent) realCalls(t *testing.T, bin, proj, home string, sc *scenario.Scenario) ([]capture.Call, string) {
	t.Helper()
	sc = sc.Expand(scenario.Values{Cwd: proj}) // the folder the CLI runs in, as the simulator's run writes its own
	data, scripted := answersFile(t, sc, 2)    // a retry of the CLI's own
	dir := t.TempDir()
	file := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rc, err := recipe.Find(ca.system)
	if err != nil {
		t.Fatal(err)
	}
	// the capture ends when the agent is done (side calls vary), or at the deadline
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute)
	defer stop()
	out := filepath.Join(dir, "capture.json")
	url, wait := startCaptureCtx(t, ctx, "--answers", file, "--json", out, "--no-history")
	run := rc.For(url, sc.Requests[0].User)
	run.Env = append(run.Env, envVars(ca.env)...)
	printed := runRecipe(t, run, bin, proj, home)
	stop()
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Requests []struct {
			LLMCalls []capture.Call `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("capture: %v", err)
	}
	var calls []capture.Call
	n := 0
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			calls = append(calls, c)
			if c.Side == "" {
				n++
			}
		}
	}
	if n > scripted {
		t.Fatalf("%s made %d model calls, the scenario scripts %d", ca.system, n, scripted)
	}
	return calls, printed
}

// compare: the simulator's hook texts appear in the CLI's last call in the
// same order — as a message, a part or a tool result of their own (capture
// splits a hook's suffix off a result), or as the end of a prompt the CLI
// prefixed with words of its own (Copilot CLI's <current_datetime>) — and
// every text capture reads as a hook's is one of them.
func (ca conformanceAgent) compare(t *testing.T, sim simulated, real []hookText) {
	t.Helper()
	for _, p := range conformanceProblems(sim.hooks, real) {
		t.Error(p)
	}
	t.Logf("hook text the model read: %s", list(sim.hooks))
}

func conformanceProblems(sim, real []hookText) []string {
	var out []string
	at := 0
	for _, h := range sim {
		found := false
		for k := at; k < len(real); k++ {
			r := real[k]
			if r.role == h.role && (r.content == h.content || r.origin == "user_input" && strings.HasSuffix(r.content, "\n\n"+h.content)) {
				at, found = k+1, true
				break
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("the simulator's %q is not in the CLI's last call (in order):\n%s", h, list(real)))
		}
	}
	for _, r := range real {
		if r.origin == "hook" && !slices.ContainsFunc(sim, func(h hookText) bool { return h.role == r.role && h.content == r.content }) {
			out = append(out, fmt.Sprintf("the CLI's hook text %q is not the simulator's:\n%s", r, list(sim)))
		}
	}
	if len(sim) == 0 {
		out = append(out, "the case shows no hook text: it proves nothing")
	}
	return out
}

// TestConformanceProblems: the comparison finds a text missing, out of
// order or only on the CLI's side, and lets the agent's own prefix pass.
func TestConformanceProblems(t *testing.T) {
	real := []hookText{{"user", "<ctx>A</ctx>", "hook"}, {"user", "<date>T</date>\n\nB", "user_input"}, {"tool", "R", "hook"}}
	for _, c := range []struct {
		name string
		sim  []hookText
		n    int
	}{
		{"same", []hookText{{"user", "<ctx>A</ctx>", "hook"}, {"user", "B", "hook"}, {"tool", "R", "hook"}}, 0},
		{"out of order", []hookText{{"tool", "R", "hook"}, {"user", "<ctx>A</ctx>", "hook"}}, 1},
		{"missing on the CLI", []hookText{{"user", "<ctx>A</ctx>", "hook"}, {"tool", "R", "hook"}, {"user", "C", "hook"}}, 1},
		{"the CLI's own hook text", []hookText{{"user", "<ctx>A</ctx>", "hook"}}, 1},
		{"nothing", nil, 3},
	} {
		if got := conformanceProblems(c.sim, real); len(got) != c.n {
			t.Errorf("%s: %d problems, want %d: %q", c.name, len(got), c.n, got)
		}
	}
}

func list(hs []hookText) string {
	var b strings.Builder
	for _, h := range hs {
		b.WriteString("  [" + h.origin + "] " + h.String() + "\n")
	}
	return b.String()
}
