package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// chatRequests is an agent CLI that speaks Chat Completions, whose every
// call the simulator must send as the CLI does.
type chatRequests struct {
	agent, version, bin string
	// example is its guard in skills/, cases its folder of conformance
	// projects in testdata.
	example, cases string
	// home are files of the throw-away HOME that keep it offline; args
	// what a project adds to its command (a plugin it loads).
	home map[string]string
	args func(proj string) []string
}

var (
	qwenRequests = chatRequests{agent: "qwen-code", version: "0.24.4", bin: qwenConformance.bin, example: "qwen-guard", cases: "qwen-conformance",
		home: qwenConformance.home}
	copilotRequests = chatRequests{agent: "copilot-cli", version: "1.0.102", bin: copilotConformance.bin, example: "copilot-guard", cases: "copilot-conformance",
		// the example is a plugin: Copilot CLI loads it from its folder
		args: func(proj string) []string {
			if _, err := os.Stat(filepath.Join(proj, "plugin.json")); err == nil {
				return []string{"--plugin-dir", proj}
			}
			return nil
		}}
)

// TestRealAgentQwenCodeRequests: every conformance project of Qwen Code
// (its guard example and testdata/qwen-conformance), through the real
// `qwen --yolo` against capture and through the simulator with the CLI's
// calibrated request model, gives the same calls — as many (its memory
// extraction after a turn the prompt's own call answered included), each
// with the same messages (its system prompt with the project's QWEN.md,
// its context parts with the folder's tree, the hooks' words, the tool
// results as it writes them) and the same tools.
func TestRealAgentQwenCodeRequests(t *testing.T) { qwenRequests.run(t) }

// TestRealAgentCopilotRequests is the same for Copilot CLI (`copilot -p
// --allow-all-tools --trust-folder`): its system prompt with the
// project's instruction files, the prompt in its <current_datetime>
// wrapper with the prompt hook's words joined after it, its shell's
// results with their shell ids.
func TestRealAgentCopilotRequests(t *testing.T) { copilotRequests.run(t) }

func (ca chatRequests) run(t *testing.T) {
	bin := agentTool(t, ca.bin)
	t.Parallel()
	calibrateOnce(t, ca.agent, bin)
	for _, src := range conformanceCases(t, ca.example, ca.cases) {
		t.Run(filepath.Base(src), func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			simRoot, simProj, file, projectScoped := caseCopy(t, src)
			skillsRoot := simRoot
			if projectScoped {
				skillsRoot = simProj
			}
			out, errOut, code := simulateAgent(t, "--skills", skillsRoot, "--dir", simProj, "--trust", "--no-history", "--json",
				"--agent", ca.agent+"@"+ca.version, "--home", home, filepath.Join(simProj, file))
			if code != exitOK {
				t.Fatalf("simulate: exit %d: %s", code, errOut)
			}
			sim, m := simulatedCalls(t, out)
			sc, _, err := scenario.LoadFile(simProj, file)
			if err != nil || sc == nil {
				t.Fatalf("scenario: %v", err)
			}
			realProj, real := ca.calls(t, bin, src, home, sc, m)
			compareRequests(t, sim, real, requestNorm(m, simProj, realProj))
			t.Logf("%d calls simulated (%d side calls), %d made by the CLI", len(sim), sideCount(out), len(real))
		})
	}
}

// caseCopy copies a conformance project to a skills folder of its own:
// the project's folder under it, the scenario's file in the project, and
// whether the scenario is the project's (.hookstudio) rather than its
// skill's.
func caseCopy(t *testing.T, src string) (root, proj, file string, projectScoped bool) {
	t.Helper()
	root = filepath.Join(t.TempDir(), "skills")
	proj = filepath.Join(root, filepath.Base(src))
	if err := os.CopyFS(proj, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".hookstudio/scenarios/case.yaml", "scenarios/case.yaml", "scenarios/release.yaml"} {
		if _, err := os.Stat(filepath.Join(proj, f)); err == nil {
			return root, proj, f, strings.HasPrefix(f, ".hookstudio")
		}
	}
	t.Fatalf("%s holds no scenario", src)
	return
}

// calls runs the agent's CLI from its recipe in proj with home against an
// in-process capture answering what the scenario's rounds script, then
// what the request model's side calls assume (and spares: a CLI retries
// a failed call), and returns every call it made, read as capture reads
// them with the calibrated profiles. Qwen Code 0.24.4 now and then reads
// a quick command's exit before its output (its result then says the
// command printed nothing): such a run is run again, at most twice, in a
// fresh copy of the project.
func (ca chatRequests) calls(t *testing.T, bin, src, home string, sc *scenario.Scenario, m *request.Model) (string, []capture.Call) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		_, proj, _, _ := caseCopy(t, src)
		sc := sc.Expand(scenario.Values{Cwd: proj}) // the folder the CLI runs in, as the simulator's run writes its own
		calls := ca.callsOnce(t, bin, proj, home, sc, m)
		if attempt == 2 || !lostOutput(m, sc, calls) {
			return proj, calls
		}
		t.Logf("%s lost a command's output: run again", ca.agent)
	}
}

func (ca chatRequests) callsOnce(t *testing.T, bin, proj, home string, sc *scenario.Scenario, m *request.Model) []capture.Call {
	t.Helper()
	answers, _, _ := scriptedAnswers(sc)
	for _, s := range m.Loop.Sides {
		if s.Answer != nil && s.When == request.SideAfterTurn {
			answers = append(answers, capture.Answer{Content: *s.Answer})
		}
	}
	answers = append(answers, capture.Answer{Content: "spare"}, capture.Answer{Content: "spare"})
	srv, err := capture.Listen(capture.Options{Answerer: scripted(answers), Agents: capture.NewAgentReader(profile.NewCatalog(agentsData))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	files := map[string]string{}
	for rel, text := range ca.home {
		files[filepath.Join(home, rel)] = text
	}
	writeFiles(t, "", files)
	rc, err := recipe.Find(ca.agent)
	if err != nil {
		t.Fatal(err)
	}
	run := rc.For(srv.URL(), sc.Requests[0].User)
	if ca.args != nil {
		run.Run = slices.Insert(run.Run, len(run.Run)-1, ca.args(proj)...) // before the prompt
	}
	runRecipe(t, run, bin, proj, home)
	_ = srv.Close() // every answered call recorded
	return srv.Calls()
}

// lostOutput says the CLI sent a scripted call's result as the agent
// writes a command that printed nothing, where the scenario scripts words.
func lostOutput(m *request.Model, sc *scenario.Scenario, calls []capture.Call) bool {
	if len(calls) == 0 {
		return false
	}
	printed := map[string]bool{} // the commands the scenario says print words
	for _, rd := range sc.Requests[0].Rounds {
		for _, tc := range rd.ToolCalls {
			if tc.Result != "" {
				printed[tc.Name+"\x00"+fmt.Sprint(tc.Arguments)] = true
			}
		}
	}
	asked := map[string]capture.ToolCall{}
	for _, c := range calls {
		for _, msg := range c.Messages {
			for _, tc := range msg.ToolCalls {
				asked[tc.ID] = tc
			}
			tc, ok := asked[msg.ToolCallID]
			res := m.Framing.Result(tc.Name)
			if msg.Role != "tool" || !ok || res == nil {
				continue
			}
			var args map[string]any
			_ = json.Unmarshal(tc.Arguments, &args)
			if !printed[tc.Name+"\x00"+fmt.Sprint(args)] {
				continue
			}
			for k := range 16 {
				if strings.HasPrefix(msg.Content, res.Fill(request.ToolRun{Args: args, Count: k})) {
					return true
				}
			}
		}
	}
	return false
}

// sideCount is how many of a simulation's calls are side calls.
func sideCount(out string) int {
	var doc struct {
		Requests []struct {
			LLMCalls []struct {
				Phase string `json:"phase"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	_ = json.Unmarshal([]byte(out), &doc)
	n := 0
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			if c.Phase == "side" {
				n++
			}
		}
	}
	return n
}
