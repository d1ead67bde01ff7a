package cmdhook

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/process"
	"hookstudio/app/hooks/skills"
)

// BenchmarkSpawnTrue is the floor a bash hook costs: os/exec starting
// `sh -c true` and waiting for it.
func BenchmarkSpawnTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunnerTrue is `sh -c true` through the hook runner: pipes,
// process group, stdin writer, capped readers, group kill.
func BenchmarkRunnerTrue(b *testing.B) {
	p := process.NewGroup()
	stdin := []byte(`{"event":"pre_llm_request","messages":[],"session_id":"s","cwd":"/"}`)
	for b.Loop() {
		if res := p.Run(context.Background(), process.Spec{Argv: []string{"/bin/sh", "-c", "true"}, Dir: os.TempDir(),
			Env: []string{"PATH=/usr/bin:/bin"}, Stdin: stdin, MaxStdout: process.HookStdout, MaxStderr: process.HookStderr}); res.ExitCode != 0 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkHandlerOverhead is what the handler and the engine add per
// bash hook invocation, with the process replaced by a fake that answers a
// small change at once: the HookContext JSON (with a realistic message
// list), the chain, decoding the HookResult, the hook_call step and its
// effect. Compare it with BenchmarkSpawnTrue (target: ≤ 5 %).
func BenchmarkHandlerOverhead(b *testing.B) {
	const hooks = 50
	var y strings.Builder
	y.WriteString("pre_llm_request:\n")
	for range hooks {
		y.WriteString("  - command: \"cat >/dev/null; echo '{}'\"\n")
	}
	root := writeTree(b, map[string]string{ProjectFile: y.String()})
	sc := parseScenario(b, `
enable_tools: false
system_prompt: You are a careful coding agent. Follow the repository's conventions and explain each change.
requests:
  - user: Rename the function parseConfig to loadConfig everywhere and update the tests that call it.
    reply: Done.
`)
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	model := llm.NewMock(sc)
	for _, tt := range []struct{ name, answer string }{
		{"no-change", `{}`},
		{"modify", `{"additional_context": "Current git branch: main"}`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			answer := []byte(tt.answer)
			fake := func(context.Context, process.Spec) process.Result {
				return process.Result{Stdout: answer}
			}
			var invocations int
			b.ReportAllocs()
			for b.Loop() {
				h, err := New(Options{Root: root, Config: cfg, Scenario: sc, Trusted: true})
				if err != nil {
					b.Fatal(err)
				}
				h.exec = fake
				tr, err := engine.Run(context.Background(), sc, noPromptHooks{}, engine.Config{Model: model, Handlers: []engine.Handler{h}})
				if err != nil {
					b.Fatal(err)
				}
				invocations = len(tr.HookCalls)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*invocations), "ns/invocation")
		})
	}
}

// resimTree is a skill with a prompt hook (.md) and 10 command hooks over
// a scenario of 20 LLM calls (planning + 19 agent rounds, one tool call
// each): 3 pre_llm_request hooks read the messages, 4 pre_tool_execution
// and 3 post_tool_execution hooks read only the tool call.
func resimTree(b testing.TB) (string, *scenario.Scenario) {
	b.Helper()
	var y strings.Builder
	for event, n := range map[string]int{"pre_llm_request": 3, "pre_tool_execution": 4, "post_tool_execution": 3} {
		y.WriteString(event + ":\n")
		for range n {
			y.WriteString("  - command: \"cat >/dev/null; echo '{}'\"\n")
		}
	}
	var sc strings.Builder
	sc.WriteString("name: resim\nenabled_skills: [bench]\ntools:\n  - name: run_tests\nrequests:\n  - user: Make the tests pass.\n    rounds:\n")
	for i := range 19 {
		if i == 18 {
			sc.WriteString("      - content: All green.\n")
			break
		}
		fmt.Fprintf(&sc, "      - tool_calls:\n          - {name: run_tests, arguments: {pass: %d}, result: \"%d failing\"}\n", i, 18-i)
	}
	root := writeTree(b, map[string]string{
		"bench/hooks/hooks.yaml": y.String(),
		"bench/hooks/hooks.json": `{"hooks": [{"name": "style", "file": "style.md", "timing": "before_each_agent", "role": "system", "persistent": false}]}`,
		"bench/hooks/style.md":   "Keep changes small.",
	})
	return root, parseScenario(b, sc.String())
}

// resimulate is one re-simulation as the app does it after a save: load
// the skills and hooks again, run with the cache kept between runs.
func resimulate(b testing.TB, root string, sc *scenario.Scenario, cache *Cache) *engine.Trace {
	set, err := skills.Load(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	h, err := New(Options{Root: root, Scenario: sc, Cache: cache, Trusted: true})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	tr, err := engine.Run(context.Background(), sc, set, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkResimulateAfterMDSave: 10 command hooks × 20 LLM calls; each
// iteration saves the .md (new text) and re-simulates. With the cache the
// tool hooks (whose input did not change) are reused and only the
// pre_llm_request hooks, which see the edited message, run again.
func BenchmarkResimulateAfterMDSave(b *testing.B) {
	for _, cached := range []bool{false, true} {
		name := "no-cache"
		if cached {
			name = "cache"
		}
		b.Run(name, func(b *testing.B) {
			root, sc := resimTree(b)
			var cache *Cache
			if cached {
				cache = NewCache()
				resimulate(b, root, sc, cache) // the run before the save
			}
			md := filepath.Join(root, "bench", "hooks", "style.md")
			var ran, reused int
			i := 0
			for b.Loop() {
				i++
				if err := os.WriteFile(md, []byte(fmt.Sprintf("Keep changes small (%d).", i)), 0o644); err != nil {
					b.Fatal(err)
				}
				tr := resimulate(b, root, sc, cache)
				ran, reused = 0, 0
				for _, hc := range tr.HookCalls {
					if hc.Reused {
						reused++
					} else {
						ran++
					}
				}
			}
			b.ReportMetric(float64(ran), "hooks-run")
			b.ReportMetric(float64(reused), "hooks-reused")
		})
	}
}

// TestResimulationReusesUnchangedHooks pins the benchmark's premise: after
// a .md save only the hooks whose input holds the edited message run again.
func TestResimulationReusesUnchangedHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns about 300 processes")
	}
	root, sc := resimTree(t)
	cache := NewCache()
	resimulate(t, root, sc, cache)
	if err := os.WriteFile(filepath.Join(root, "bench", "hooks", "style.md"), []byte("Edited."), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := resimulate(t, root, sc, cache)
	reused := 0
	for _, hc := range tr.HookCalls {
		// Tool hooks read only the call; a pre_llm_request hook reads the
		// messages, which hold the edited text from the first agent round.
		same := hc.Event != "pre_llm_request" || !strings.Contains(string(hc.Input), "Edited.")
		if hc.Reused != same {
			t.Errorf("%s %s: reused %v, input unchanged %v", hc.Event, hc.Hook, hc.Reused, same)
		}
		if hc.Reused {
			reused++
		}
	}
	if reused == 0 {
		t.Error("nothing was reused")
	}
}
