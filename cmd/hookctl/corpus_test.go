package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/agents/calibrate"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/claudehook"
)

// The corpus (testdata/corpus): hook projects written in the patterns the
// public hook collections use — guards in Python and Node, plugins with
// skills, Stop loops that read the transcript, session-start loaders,
// async hooks, matchers that must not fire, formatters and loggers, and
// each other agent's own hook files — one project per folder
// testdata/corpus/<agent>/<case>, its scenario (the model's answers) in
// .hookstudio/scenarios/case.yaml, the pattern it follows in
// testdata/corpus/README.md, what validate says of it in <case>.validate
// beside it, and the cases that differ today, with the issue item that
// will make them match, in testdata/corpus/known-differences.txt.
const corpusDir = "testdata/corpus"

// corpusAgent is one pinned agent CLI the corpus runs under.
type corpusAgent struct {
	dir     string // its cases: testdata/corpus/<dir>
	system  string // the hook system, its recipe and its profiles' agent
	version string // the pinned CLI's version (simulate --agent system@version)
	bin     string // under tools/agents
	// home are files of the throw-away HOME that keep the run offline;
	// homeVars variables naming a folder under it (CODEX_HOME).
	home     map[string]string
	homeVars map[string]string
	env      []string
	args     []string // before the prompt
}

// name is the agent as the test and the known differences name it:
// claude@2.1.332, codex.
func (ca corpusAgent) name() string {
	if ca.system == claudehook.System {
		return ca.dir + "@" + ca.version
	}
	return ca.dir
}

func corpusAgents(t *testing.T) []corpusAgent {
	t.Helper()
	pinned := func(system string) string {
		rc, err := recipe.Find(system)
		if err != nil {
			t.Fatal(err)
		}
		return rc.Version
	}
	var out []corpusAgent
	for _, c := range pinnedClaude {
		out = append(out, corpusAgent{dir: "claude", system: claudehook.System, version: c.version, bin: c.rel,
			env: []string{"DISABLE_AUTOUPDATER=1"}})
	}
	return append(out,
		corpusAgent{dir: "codex", system: "codex", version: pinned("codex"), bin: codexConformance.bin,
			home: codexConformance.home, homeVars: map[string]string{"CODEX_HOME": ".codex"}, args: codexConformance.args},
		corpusAgent{dir: "gemini", system: "gemini-cli", version: pinned("gemini-cli"), bin: geminiConformance.bin,
			env: geminiConformance.env},
		corpusAgent{dir: "qwen", system: "qwen-code", version: pinned("qwen-code"), bin: qwenConformance.bin,
			home: qwenConformance.home},
		corpusAgent{dir: "copilot", system: "copilot-cli", version: pinned("copilot-cli"), bin: copilotConformance.bin},
	)
}

// corpusCases are the case folders of one agent.
func corpusCases(t *testing.T, agent string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(corpusDir, agent))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// corpusSlots bounds the CLIs the corpus runs at once (each beside its
// capture and a simulation) on a machine of two shared cores; go test's
// -parallel (GOMAXPROCS by default) bounds the parallel subtests too.
var corpusSlots = make(chan struct{}, 4)

// TestRealAgentCorpus: every corpus case, through the pinned CLI against
// hookctl capture and through hookctl simulate with the same answers,
// gives the model the same calls — as many, each with the same hook
// messages (role, text, event) and the same tool results where a hook
// wrote, replaced or added to one (compareCalls). A case listed in
// known-differences.txt must still differ (the list cannot rot), any other
// must match. Both pinned Claude Code CLIs run every Claude case.
func TestRealAgentCorpus(t *testing.T) {
	t.Parallel()
	known := readKnownDifferences(t)
	for _, ca := range corpusAgents(t) {
		t.Run(ca.name(), func(t *testing.T) {
			bin := agentTool(t, ca.bin)
			t.Parallel()
			for _, c := range corpusCases(t, ca.dir) {
				t.Run(c, func(t *testing.T) {
					t.Parallel()
					corpusSlots <- struct{}{}
					defer func() { <-corpusSlots }()
					problems := ca.check(t, bin, filepath.Join(corpusDir, ca.dir, c))
					item, listed := known.lookup(ca, c)
					switch {
					case listed && len(problems) == 0:
						t.Errorf("%s/%s now matches the CLI: take it off known-differences.txt (%s)", ca.name(), c, item)
					case listed:
						t.Logf("a known difference (%s):\n%s", item, strings.Join(problems, "\n"))
					default:
						for _, p := range problems {
							t.Error(p)
						}
					}
				})
			}
		})
	}
}

// check runs one case both ways, side by side, and returns where they
// part. Each run has a copy of the project of its own (hooks write files),
// both named project: paths end up in what the model reads.
func (ca corpusAgent) check(t *testing.T, bin, src string) []string {
	sc := loadCase(t, src)
	copyOf := func() (dir, proj string) {
		dir = t.TempDir()
		proj = filepath.Join(dir, "project")
		if err := os.CopyFS(proj, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		return dir, proj
	}
	prof, err := profile.NewCatalog("").Get(ca.system, ca.version)
	if err != nil {
		t.Fatal(err)
	}
	rc := profile.NewRecognizer(prof)
	// each copy with its home beside it, as the CLI's: an agent may name
	// its home relative to the project (Qwen Code's ../home)
	simDir, simProj := copyOf()
	simHome := filepath.Join(simDir, "home")
	dir, proj := copyOf()
	// an agent whose request calibration learns: the whole request, every call
	whole := slices.Contains(calibrate.RequestAgents(), ca.system)
	if whole {
		calibrateOnce(t, ca.system, bin)
	}
	// the simulation runs beside the CLI: a case's wall time is the
	// slower of the two, and the CLIs' waits leave the cores to it
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	var sim corpusRun
	done := make(chan struct{})
	go func() {
		defer close(done)
		sim = ca.simulate(ctx, rc, simProj, simHome, whole, sc)
	}()
	t.Cleanup(func() { cancel(); <-done }) // before the copies go, whatever ends the test
	real := ca.real(t, rc, bin, dir, proj, sc)
	<-done
	if sim.err != nil {
		t.Fatal(sim.err)
	}
	sim.normalize(strings.NewReplacer(simProj, "$PROJECT", simHome, "$HOME"))
	real.normalize(strings.NewReplacer(proj, "$PROJECT", filepath.Join(dir, "home"), "$HOME"))
	if sim.refused != "" {
		return []string{fmt.Sprintf("simulate refused the project (%s); the CLI made %d call(s) and printed %q", sim.refused, len(real.calls), real.printed)}
	}
	var problems []string
	if sim.notice != "" || len(sim.calls) == 0 && len(real.calls) == 0 {
		// a prompt a hook blocked: no call, its words printed to the user
		if !strings.Contains(real.printed, sim.notice) || len(real.calls) != 0 {
			problems = append(problems, fmt.Sprintf("a blocked prompt: the simulator says %q, the CLI printed %q after %d call(s)", sim.notice, real.printed, len(real.calls)))
		}
		if sim.notice == "" {
			problems = append(problems, "no call on either side and no notice: the case proves nothing")
		}
		return problems
	}
	if whole {
		return requestProblems(sim.requests, real.requests, requestNorm(sim.model, simProj, proj, simHome, filepath.Join(dir, "home")))
	}
	problems = compareCalls(sim.calls, real.calls)
	if !slices.ContainsFunc(sim.calls, corpusCall.shows) && !slices.ContainsFunc(real.calls, corpusCall.shows) {
		problems = append(problems, "no hook text in any call on either side: the case proves nothing")
	}
	if len(problems) > 0 {
		problems = append(problems, "simulator:\n"+listCalls(sim.calls)+ca.name()+":\n"+listCalls(real.calls))
	} else {
		t.Logf("%d call(s) alike:\n%s", len(sim.calls), listCalls(sim.calls))
	}
	return problems
}

// corpusRun is what one run showed the model: its calls in order (the
// agent's own, not its side calls), a blocked prompt's notice, what the
// CLI printed, or why the simulator refused to run.
type corpusRun struct {
	calls []corpusCall
	// requests are the calls whole, as capture reads them (an agent whose
	// request model is calibrated), model the simulation's request model
	requests []capture.Call
	model    *request.Model
	notice   string
	printed  string
	refused  string // why simulate refused the project
	err      error  // simulate could not run
}

// corpusCall is what the hooks put before the model in one call. It is the
// part of a call the simulator renders in the agent's place today; when
// the simulator sends the agent's whole request (issue 33), it grows into
// the whole call.
type corpusCall struct {
	Hooks []hookMessage
	// Results are the tool results by the position of their call in the
	// conversation (of a result a hook added to: appended and the hook's
	// part); Written marks those a hook wrote, replaced or added to.
	Results map[int]string
	Written map[int]bool
}

// hookMessage is one message a hook's output became. Event is "" where
// capture cannot tell (a Stop reason sent as the next prompt).
type hookMessage struct{ Role, Event, Text string }

func (h hookMessage) String() string { return fmt.Sprintf("[%s] %s: %q", h.Event, h.Role, h.Text) }

func (c corpusCall) shows() bool { return len(c.Hooks)+len(c.Written) > 0 }

func (r *corpusRun) normalize(rp *strings.Replacer) {
	for i := range r.calls {
		c := &r.calls[i]
		for j := range c.Hooks {
			// a block another block follows ends with a newline (Claude
			// Code 2.1.197): the separator, not the hook's
			c.Hooks[j].Text = strings.TrimRight(normalizeText(rp, c.Hooks[j].Text), "\n")
		}
		for k, s := range c.Results {
			c.Results[k] = normalizeText(rp, s)
		}
	}
	r.notice = normalizeText(rp, r.notice)
	r.printed = normalizeText(rp, r.printed)
}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// normalizeText: the project's and home's paths, UUIDs — what differs
// between two runs of one project.
func normalizeText(rp *strings.Replacer, s string) string {
	return uuidRe.ReplaceAllString(rp.Replace(s), "$$UUID")
}

// compareCalls says where two runs' calls part: their number, and call by
// call the hook messages (as a multiset: an event's handlers run in
// parallel and finish in any order; the event where both sides know it)
// and every tool result a hook touched on either side.
func compareCalls(sim, real []corpusCall) []string {
	var out []string
	if len(sim) != len(real) {
		out = append(out, fmt.Sprintf("%d call(s) in the simulator, %d by the CLI", len(sim), len(real)))
	}
	for i := range min(len(sim), len(real)) {
		s, r := sim[i], real[i]
		left := slices.Clone(r.Hooks)
		for _, h := range s.Hooks {
			j := slices.IndexFunc(left, func(x hookMessage) bool { return x.Role == h.Role && x.Text == h.Text })
			if j < 0 {
				out = append(out, fmt.Sprintf("call %d: the simulator's hook message %s is not the CLI's", i+1, h))
				continue
			}
			if !hookEventsAgree(h.Event, left[j].Event) {
				out = append(out, fmt.Sprintf("call %d: %q is %s's in the simulator, %s's in the CLI", i+1, h.Text, h.Event, left[j].Event))
			}
			left = slices.Delete(left, j, j+1)
		}
		for _, h := range left {
			out = append(out, fmt.Sprintf("call %d: the CLI's hook message %s is not the simulator's", i+1, h))
		}
		var touched []int
		for k := range s.Written {
			touched = append(touched, k)
		}
		for k := range r.Written {
			if !s.Written[k] {
				touched = append(touched, k)
			}
		}
		slices.Sort(touched)
		for _, k := range touched {
			sv, sok := s.Results[k]
			rv, rok := r.Results[k]
			if sok != rok || !sameResult(sv, rv) {
				out = append(out, fmt.Sprintf("call %d: tool result %d (a hook's): simulator %q, CLI %q", i+1, k+1, sv, rv))
			}
		}
	}
	return out
}

// sameResult: one tool result on both sides; of a result a hook added
// to, the hook's part, which capture may have left joined to the CLI's own
// result (the tools' own output is the agent's, which the simulator only
// scripts).
func sameResult(sim, real string) bool {
	hook, ok := strings.CutPrefix(sim, appended)
	if !ok || strings.HasPrefix(real, appended) {
		return sim == real
	}
	return len(real) > len(hook) && strings.HasSuffix(real, hook)
}

// hookEventsAgree: the simulator's event is the CLI's, where capture can tell
// ("" where it cannot; "A/B" where the text could be either's).
func hookEventsAgree(sim, real string) bool {
	return sim == "" || real == "" || slices.Contains(strings.Split(real, "/"), sim)
}

func listCalls(calls []corpusCall) string {
	var b strings.Builder
	for i, c := range calls {
		fmt.Fprintf(&b, "  call %d\n", i+1)
		for _, h := range c.Hooks {
			fmt.Fprintf(&b, "    %s\n", h)
		}
		var ks []int
		for k := range c.Written {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			fmt.Fprintf(&b, "    tool result %d (a hook's): %q\n", k+1, c.Results[k])
		}
	}
	return b.String()
}

// corpusMessage is a message as simulate --json and capture --json write
// it (hook is the command in the one, the event in the other).
type corpusMessage struct {
	Role, Content, Origin, System, Hook string
	EditedBy                            string `json:"edited_by"`
	InPlace                             bool   `json:"in_place"`
	HookCall                            *int   `json:"hook_call"`
	ToolCallID                          string `json:"tool_call_id"`
	ToolCalls                           []struct {
		ID string `json:"id"`
	} `json:"tool_calls"`
}

// toolPositions numbers the tool calls of a conversation in order and
// gives each tool result the number of its call (its own order where its
// call is unknown): the CLIs send parallel results in the order they end.
func toolPositions(msgs []corpusMessage) func(m corpusMessage) int {
	pos := map[string]int{}
	n := 0
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			pos[tc.ID] = n
			n++
		}
	}
	seen := 0
	return func(m corpusMessage) int {
		seen++
		if k, ok := pos[m.ToolCallID]; ok && m.ToolCallID != "" {
			return k
		}
		return seen - 1
	}
}

// appended marks a hook's words added after a tool's own result (the
// result itself is the tool's, told apart by the agent's profile).
const appended = "…"

// nth is list[k], "" past its end.
func nth(list []string, k int) string {
	if k < len(list) {
		return list[k]
	}
	return ""
}

func newCall() corpusCall { return corpusCall{Results: map[int]string{}, Written: map[int]bool{}} }

// simulate runs the case in hookctl simulate under the agent's pinned
// profile (its calibrated request when whole).
// It runs beside the test's goroutine: it reports what fails in err,
// never through t.
func (ca corpusAgent) simulate(ctx context.Context, rc *profile.Recognizer, proj, home string, whole bool, sc *scenario.Scenario) corpusRun {
	args := []string{"simulate", "--skills", proj, "--trust", "--no-history", "--json", "--agent", ca.system + "@" + ca.version}
	if whole {
		args = append(args, "--home", home)
	}
	cmd := exec.CommandContext(ctx, hookctl, append(args, filepath.Join(proj, ".hookstudio", "scenarios", "case.yaml"))...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	if whole { // the CLI's words, calibrated
		cmd.Env = append(cmd.Env, "HOOKSTUDIO_DATA_DIR="+agentsData)
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return corpusRun{err: fmt.Errorf("simulate: %w", err)}
	}
	out, errOut, code := stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	if code != exitOK {
		var refused struct{ Diagnostics []jsonDiag }
		_ = json.Unmarshal([]byte(out), &refused)
		why := strings.TrimSpace(errOut)
		for _, d := range refused.Diagnostics {
			why += fmt.Sprintf("\n%s:%d:%d: %s [%s]", d.File, d.Line, d.Column, d.Severity, d.Code)
		}
		return corpusRun{refused: fmt.Sprintf("exit %d: %s", code, strings.TrimSpace(why))}
	}
	var doc struct {
		Steps []struct {
			HookCall *struct{ System, Event, Outcome, Notice string } `json:"hook_call"`
		} `json:"steps"`
		Requests []struct {
			LLMCalls []struct {
				Phase    string          `json:"phase"`
				Messages []corpusMessage `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) == 0 {
		return corpusRun{err: fmt.Errorf("simulate --json: %v (%d requests)", err, len(doc.Requests))}
	}
	var run corpusRun
	if whole {
		var err error
		var calls []capture.Call
		if calls, run.model, err = readSimulated(out); err != nil {
			return corpusRun{err: err}
		}
		for _, c := range calls { // the agent's own calls, as the CLI's are read
			if c.Side == "" {
				run.requests = append(run.requests, c)
			}
		}
	}
	var events []string // by hook call, as messages number them
	for _, st := range doc.Steps {
		if hc := st.HookCall; hc != nil {
			events = append(events, hc.Event)
			if hc.System == ca.system && hc.Outcome == "blocked" && hc.Notice != "" && strings.HasPrefix(hc.Event, "UserPromptSubmit") {
				run.notice = hc.Notice
			}
		}
	}
	eventOf := func(m corpusMessage) string {
		if m.HookCall == nil || *m.HookCall >= len(events) {
			return ""
		}
		event, _, _ := strings.Cut(events[*m.HookCall], ":")
		return event
	}
	var scripted []string // the scenario's tool results, by call
	for _, rd := range sc.Requests[0].Rounds {
		for _, tc := range rd.ToolCalls {
			scripted = append(scripted, tc.Result)
		}
	}
	for _, call := range doc.Requests[0].LLMCalls {
		if call.Phase == "side" {
			continue // the agent's own side calls, left aside as the CLI's are
		}
		c := newCall()
		at := toolPositions(call.Messages)
		for _, m := range call.Messages {
			switch {
			case m.Role == "tool":
				k := at(m)
				c.Results[k] = m.Content
				if m.System != ca.system || m.EditedBy == "" && !m.InPlace {
					break
				}
				c.Written[k] = true
				if sp, ok := rc.Affix(m.Content, profile.PlaceResultSuffix); ok && !m.InPlace {
					c.Results[k] = appended + sp.Hook
				} else if own := nth(scripted, k); !m.InPlace && own != "" && strings.HasPrefix(m.Content, own) && len(m.Content) > len(own) {
					// a rendering the profile cannot tell apart alone (the
					// hook's words bare): the scripted result is the tool's
					c.Results[k] = appended + strings.TrimLeft(m.Content[len(own):], "\n")
				}
			case m.Origin == "hook" && m.System == ca.system:
				c.Hooks = append(c.Hooks, hookMessage{m.Role, eventOf(m), m.Content})
			case m.Origin == "system_prompt" && m.EditedBy != "":
				// a hook's words joined to the system prompt (Qwen Code's
				// SessionStart): capture tells them apart as a message
				if sp, ok := rc.Affix(m.Content, profile.PlaceSystemSuffix); ok {
					c.Hooks = append(c.Hooks, hookMessage{m.Role, eventOf(m), sp.Hook})
				} else if !whole {
					// no system prompt of the agent's known: the hook's words alone
					c.Hooks = append(c.Hooks, hookMessage{m.Role, eventOf(m), m.Content})
				}
			}
		}
		run.calls = append(run.calls, c)
	}
	return run
}

// real runs the case through the agent's CLI from its recipe against
// hookctl capture answering the scenario's rounds (and spares: a call the
// CLI makes beyond them is a difference, not a hang).
func (ca corpusAgent) real(t *testing.T, rc *profile.Recognizer, bin, dir, proj string, sc *scenario.Scenario) corpusRun {
	t.Helper()
	sc = sc.Expand(scenario.Values{Cwd: proj}) // the folder the CLI runs in, as the simulator's run writes its own
	data, _ := answersFile(t, sc, 2)
	home, tmp := filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	files := map[string]string{filepath.Join(dir, "answers.yaml"): string(data)}
	for rel, text := range ca.home {
		files[filepath.Join(home, rel)] = text
	}
	writeFiles(t, "", files)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	// hookctl capture as a process of its own, built without the race
	// detector: under -race the in-process one (startCaptureCtx) costs a
	// run some 15% more CPU, and other tests keep its goroutines under it
	out := filepath.Join(dir, "capture.json")
	var stderr strings.Builder
	url, capProc := captureProcess(t, &stderr, "--answers", filepath.Join(dir, "answers.yaml"), "--json", out, "--no-history")
	rcp, err := recipe.Find(ca.system)
	if err != nil {
		t.Fatal(err)
	}
	prompt := sc.Requests[0].User
	run := rcp.For(url, prompt)
	// the CLIs leave folders in TMPDIR: the test's own
	run.Env = append(run.Env, recipe.Var{Name: "TMPDIR", Value: tmp})
	for name, rel := range ca.homeVars {
		run.Env = append(run.Env, recipe.Var{Name: name, Value: filepath.Join(home, rel)})
	}
	run.Env = append(run.Env, envVars(ca.env)...)
	if ca.system == claudehook.System {
		// after the prompt: --allowedTools takes every word after it
		run.Run = append(run.Run, claudeArgs(proj, sc)...)
	} else {
		run.Run = slices.Insert(run.Run, len(run.Run)-1, ca.args...)
	}
	printed := runRecipe(t, run, bin, proj, home)
	// the agent is done (its side calls vary): interrupted, capture
	// writes its file and ends
	if err := capProc.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(agentTimeout, func() { _ = capProc.Process.Kill() })
	_ = capProc.Wait()
	hung.Stop()
	if code := capProc.ProcessState.ExitCode(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Requests []struct {
			LLMCalls []struct {
				Side     string          `json:"side"`
				Messages []corpusMessage `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("capture: %v", err)
	}
	res := corpusRun{printed: strings.TrimSpace(printed)}
	var whole struct {
		Requests []struct {
			LLMCalls []capture.Call `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(raw, &whole); err != nil {
		t.Fatalf("capture: %v", err)
	}
	for _, r := range whole.Requests {
		for _, c := range r.LLMCalls {
			if c.Side == "" {
				res.requests = append(res.requests, c)
			}
		}
	}
	for _, r := range doc.Requests {
		for _, call := range r.LLMCalls {
			if call.Side != "" {
				continue
			}
			c := newCall()
			at := toolPositions(call.Messages)
			own, hook := map[int]string{}, map[int]string{}
			for _, m := range call.Messages {
				switch {
				case m.Role == "tool" && m.Origin == "hook":
					hook[at(m)] += m.Content
				case m.Role == "tool":
					own[at(m)] += m.Content
				case m.Origin == "hook":
					event, _, _ := strings.Cut(m.Hook, ":")
					c.Hooks = append(c.Hooks, hookMessage{m.Role, event, m.Content})
				case m.Origin == "user_input" && !strings.HasSuffix(m.Content, prompt):
					// a hook's words sent as a prompt (Qwen Code's Stop
					// reason): capture cannot tell them from the user's (whose
					// prompt an agent may prefix: Copilot CLI's date)
					c.Hooks = append(c.Hooks, hookMessage{m.Role, "", m.Content})
				}
			}
			for k, text := range own {
				c.Results[k] = text
				if sp, ok := rc.Affix(text, profile.PlaceResultSuffix); ok && hook[k] == "" {
					// a hook's words joined to the result, which capture left whole
					c.Results[k], c.Written[k] = appended+sp.Hook, true
				}
			}
			for k, text := range hook {
				c.Results[k], c.Written[k] = text, true
				if _, ok := own[k]; ok {
					c.Results[k] = appended + text
				}
			}
			res.calls = append(res.calls, c)
		}
	}
	return res
}

// claudeArgs lets claude -p use the tools the scenario calls and loads the
// project as a plugin when it is one.
func claudeArgs(proj string, sc *scenario.Scenario) []string {
	var tools []string
	for _, rd := range sc.Requests[0].Rounds {
		for _, tc := range rd.ToolCalls {
			if !slices.Contains(tools, tc.Name) {
				tools = append(tools, tc.Name)
			}
		}
	}
	var args []string
	if claudehook.IsPlugin(proj) {
		args = append(args, "--plugin-dir", proj)
	}
	if len(tools) > 0 {
		args = append(args, "--allowedTools", strings.Join(tools, " "))
	}
	return args
}

// knownDifferences maps a run (agent/case, or agent@version/case for one
// Claude Code version) to the issue item that will make it match.
type knownDifferences map[string]string

func (k knownDifferences) lookup(ca corpusAgent, c string) (string, bool) {
	if item, ok := k[ca.name()+"/"+c]; ok {
		return item, true
	}
	item, ok := k[ca.dir+"/"+c]
	return item, ok
}

func readKnownDifferences(t *testing.T) knownDifferences {
	t.Helper()
	k, err := parseKnownDifferences(filepath.Join(corpusDir, "known-differences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// parseKnownDifferences reads lines "run  item" (# comments).
func parseKnownDifferences(file string) (knownDifferences, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	k := knownDifferences{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		run, item, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(item) == "" {
			return nil, fmt.Errorf("%s:%d: want a run and the issue item that will make it match", file, n)
		}
		if _, dup := k[run]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", file, n, run)
		}
		k[run] = strings.TrimSpace(item)
	}
	return k, sc.Err()
}

// TestCorpusKnownDifferences: every listed run is a case of an agent the
// corpus runs (at a version it runs), so the list cannot name what is gone.
func TestCorpusKnownDifferences(t *testing.T) {
	known := readKnownDifferences(t)
	runs := map[string]bool{}
	for _, ca := range corpusAgents(t) {
		for _, c := range corpusCases(t, ca.dir) {
			runs[ca.dir+"/"+c], runs[ca.name()+"/"+c] = true, true
		}
	}
	for run := range known {
		if !runs[run] {
			t.Errorf("known-differences.txt lists %s, which the corpus does not run", run)
		}
	}
}

// TestCorpusReadme: testdata/corpus/README.md says, for every case, the
// public pattern it follows, and names no case that is gone.
func TestCorpusReadme(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpusDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^- `([a-z]+/[a-z0-9-]+)`").FindAllStringSubmatch(string(data), -1) {
		listed[m[1]] = true
	}
	n := 0
	for _, agent := range []string{"claude", "codex", "gemini", "qwen", "copilot"} {
		for _, c := range corpusCases(t, agent) {
			n++
			if !listed[agent+"/"+c] {
				t.Errorf("README.md has no line for %s/%s", agent, c)
			}
			delete(listed, agent+"/"+c)
		}
	}
	for c := range listed {
		t.Errorf("README.md names %s, which is not a case", c)
	}
	if n < 25 {
		t.Errorf("the corpus holds %d cases, want at least 25", n)
	}
}

// TestCorpusValidate: what hookctl validate says of each case, pinned
// (-update rewrites <case>.validate).
func TestCorpusValidate(t *testing.T) {
	for _, agent := range []string{"claude", "codex", "gemini", "qwen", "copilot"} {
		for _, c := range corpusCases(t, agent) {
			t.Run(agent+"/"+c, func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join(corpusDir, agent, c)
				out, errOut, code := runCLI(t, "validate", dir)
				got := fmt.Sprintf("exit %d\n%s%s", code, out, errOut)
				golden := dir + ".validate"
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test -run TestCorpusValidate -update writes it)", err)
				}
				if got != string(want) {
					t.Errorf("validate %s:\n%s\nwant (%s):\n%s", dir, got, golden, want)
				}
			})
		}
	}
}

// TestCompareCalls: the comparison finds a call too many, a hook message
// on one side only, the same text under another event, a tool result a
// hook wrote on either side that differs and other words a hook added to
// one; it lets the order of an event's messages, an event capture cannot
// tell and the CLI's own framing of a result a hook added to pass.
func TestCompareCalls(t *testing.T) {
	call := func(hooks []hookMessage, results map[int]string, written ...int) corpusCall {
		c := newCall()
		c.Hooks = hooks
		for k, v := range results {
			c.Results[k] = v
		}
		for _, k := range written {
			c.Written[k] = true
		}
		return c
	}
	a := hookMessage{"system", "SessionStart", "A"}
	b := hookMessage{"system", "SessionStart", "B"}
	real := []corpusCall{
		call([]hookMessage{a, b}, nil),
		call([]hookMessage{a, b, {"user", "", "Stop reason"}}, map[int]string{0: "denied", 1: "ok"}, 0),
	}
	for _, c := range []struct {
		name string
		sim  []corpusCall
		n    int
	}{
		{"same, another order", []corpusCall{
			call([]hookMessage{b, a}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "denied", 1: "ok"}, 0),
		}, 0},
		{"a call too many", []corpusCall{
			call([]hookMessage{a, b}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "denied", 1: "ok"}, 0),
			call(nil, nil),
		}, 1},
		{"one message only on each side", []corpusCall{
			call([]hookMessage{a, {"system", "SessionStart", "C"}}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "denied", 1: "ok"}, 0),
		}, 2},
		{"another event", []corpusCall{
			call([]hookMessage{a, {"system", "UserPromptSubmit", "B"}}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "denied", 1: "ok"}, 0),
		}, 1},
		{"a hook's result differs", []corpusCall{
			call([]hookMessage{a, b}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "Denied.", 1: "ok"}, 0),
		}, 1},
		{"a result only the CLI's hook wrote", []corpusCall{
			call([]hookMessage{a, b}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "rm: done", 1: "ok"}),
		}, 1},
		{"a hook's words added to a result the CLI frames its own way", []corpusCall{
			call([]hookMessage{a, b}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "denied", 1: appended + "Lint it."}, 0, 1),
		}, 0},
		{"other words added", []corpusCall{
			call([]hookMessage{a, b}, nil),
			call([]hookMessage{a, b, {"user", "Stop", "Stop reason"}}, map[int]string{0: "denied", 1: appended + "Format it."}, 0, 1),
		}, 1},
	} {
		real := slices.Clone(real)
		real[1].Results = map[int]string{0: "denied", 1: "Output: ok\nExit: 0\n\nLint it."}
		if got := compareCalls(c.sim, real); len(got) != c.n {
			t.Errorf("%s: %d problems, want %d: %q", c.name, len(got), c.n, got)
		}
	}
}
