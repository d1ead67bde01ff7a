package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
	"hookstudio/app/platform/workspace"
)

// calibrated is each pinned CLI's request model, calibrated once per test
// binary into agentsData: the CLIs' words are learned from the installed
// CLIs, never kept in the repository.
var calibrated struct {
	mu     sync.Mutex
	once   map[string]*sync.Once
	err    map[string]error
	report map[string]string
}

// calibrateOnce runs `hookctl calibrate agent --cli cli --json` once for cli,
// into agentsData, and returns its report (stdout): the tests of calibration
// itself check the same run the others use.
func calibrateOnce(t *testing.T, agent, cli string) string {
	t.Helper()
	calibrated.mu.Lock()
	if calibrated.once == nil {
		calibrated.once, calibrated.err, calibrated.report = map[string]*sync.Once{}, map[string]error{}, map[string]string{}
	}
	once := calibrated.once[cli]
	if once == nil {
		once = &sync.Once{}
		calibrated.once[cli] = once
	}
	calibrated.mu.Unlock()
	once.Do(func() {
		out, errOut, code := runCLIEnv(t, []string{"HOOKSTUDIO_DATA_DIR=" + agentsData}, "calibrate", agent, "--cli", cli, "--json")
		var err error
		if code != exitOK {
			err = fmt.Errorf("calibrate %s: exit %d: %s%s", cli, code, out, errOut)
		}
		calibrated.mu.Lock()
		calibrated.err[cli], calibrated.report[cli] = err, out
		calibrated.mu.Unlock()
	})
	calibrated.mu.Lock()
	err, report := calibrated.err[cli], calibrated.report[cli]
	calibrated.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	return report
}

// simulateAgent runs hookctl simulate with the calibrated agents' data
// folder: a run under an agent sends the CLI's own words.
func simulateAgent(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLIEnv(t, []string{"HOOKSTUDIO_DATA_DIR=" + agentsData}, append([]string{"simulate"}, args...)...)
}

// simulatedCalls are a simulation's calls as capture reads them: each
// call's request body (the agent's, in its API's shape) read by the
// reader capture reads a real CLI's requests with.
func simulatedCalls(t *testing.T, out string) ([]capture.Call, *request.Model) {
	t.Helper()
	calls, m, err := readSimulated(out)
	if err != nil {
		t.Fatal(err)
	}
	return calls, m
}

// readSimulated is simulatedCalls for a caller off the test's goroutine.
func readSimulated(out string) (calls []capture.Call, model *request.Model, err error) {
	var doc struct {
		Agent *struct {
			Agent, Version, Request string
		} `json:"agent"`
		Requests []struct {
			Subagent *struct {
				AgentID string `json:"agent_id"`
			} `json:"subagent"`
			LLMCalls []struct {
				Request    json.RawMessage `json:"body"`
				AnsweredBy string          `json:"answered_by"`
				Phase      string          `json:"phase"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		return nil, nil, fmt.Errorf("simulate --json: %w", err)
	}
	if doc.Agent == nil || doc.Agent.Request != string(request.Calibrated) {
		return nil, nil, fmt.Errorf("the simulation is no calibrated agent's run: %+v", doc.Agent)
	}
	m, err := request.NewCatalog(agentsData).Find(doc.Agent.Agent, doc.Agent.Version)
	if err != nil {
		return nil, nil, err
	}
	reader := capture.NewAgentReader(profile.NewCatalog(agentsData))
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			if c.AnsweredBy != "" {
				continue // a hook answered in the model's place: nothing was sent
			}
			if len(c.Request) == 0 {
				return nil, nil, fmt.Errorf("a simulated call of an agent's run carries no request body")
			}
			call := capture.ReadBody(capture.API(apiOfModel(m)), c.Request, m.Headers, reader)
			if c.Phase == "side" { // the agent's own side call, as capture marks the CLI's
				call.Side = c.Phase
			}
			if r.Subagent != nil { // a sub-agent's call, as the CLI's header names it
				call.Headers = map[string]string{capture.SubagentHeader: r.Subagent.AgentID}
			}
			calls = append(calls, call)
		}
	}
	return calls, m, nil
}

func apiOfModel(m *request.Model) string {
	if m.API == request.Chat {
		return string(capture.OpenAI)
	}
	return string(m.API)
}

// projectNorm replaces a project folder's path, in each form an agent
// writes it (as is, its letters and digits only, its slashes as dashes),
// by one name: the two runs have a folder each.
func projectNorm(dirs ...string) func(string) string {
	var pairs []string
	for _, d := range dirs {
		pairs = append(pairs, d, "$PROJECT", workspace.Slug(d), "$PROJECT_SLUG", strings.ReplaceAll(d, "/", "-"), "$PROJECT_DASHED")
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}

// a date, and the moment of the day an agent may write after it (Copilot
// CLI's <current_datetime>)
var dateRe = regexp.MustCompile(`\b20[0-9]{2}-[01][0-9]-[0-3][0-9](?:T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?\b`)

// agentIDRe is a sub-agent's id as Claude Code writes it ("a" and 16 hex
// digits, as the simulator's): the CLI draws it at random, so the Agent
// tool's result of the two runs names another.
var agentIDRe = regexp.MustCompile(`\ba[0-9a-f]{16}\b`)

// requestNorm is what a comparison of two requests of the same scenario
// leaves aside: the project folder (the same name in both), the date,
// UUIDs, the opaque values of the agent's own (Claude Code's billing
// line suffix: Model.MaskOpaque) and the order of what an agent lists in
// an order it does not fix (Gemini CLI's skills: request.CanonicalOrder).
func requestNorm(m *request.Model, dirs ...string) func(string) string {
	project := projectNorm(dirs...)
	mask := m.MaskOpaque()
	return func(s string) string {
		s = project(s)
		s = uuidRe.ReplaceAllString(s, "$$UUID")
		s = agentIDRe.ReplaceAllString(s, "$$AGENT_ID")
		s = dateRe.ReplaceAllString(s, "$$DATE")
		return request.CanonicalOrder(mask(s))
	}
}

// compareRequests says where a simulation's calls and a real CLI's part
// (requestProblems), each an error of t.
func compareRequests(t *testing.T, sim, real []capture.Call, norm func(string) string) {
	t.Helper()
	for _, p := range requestProblems(sim, real, norm) {
		t.Error(p)
	}
}

// requestProblems is where a simulation's calls and a real CLI's part: as
// many calls, each with the same messages (role and text, the agent's
// system prompt and context included) and the same tools offered. Tool
// call ids are not texts of a message, so they are not compared.
func requestProblems(sim, real []capture.Call, norm func(string) string) []string {
	sim, real = byConversation(sim), byConversation(real)
	var out []string
	if len(sim) != len(real) {
		out = append(out, fmt.Sprintf("%d calls simulated, %d made by the CLI", len(sim), len(real)))
	}
	for i := range min(len(sim), len(real)) {
		s, r := byCallOrder(sim[i].Messages), byCallOrder(real[i].Messages)
		if !slices.Equal(sim[i].Tools, real[i].Tools) {
			out = append(out, fmt.Sprintf("call %d: tools offered\nsimulator %v\nCLI       %v", i, sim[i].Tools, real[i].Tools))
		}
		if len(s) != len(r) {
			out = append(out, fmt.Sprintf("call %d: %d messages simulated, %d sent\nsimulator %s\nCLI       %s", i, len(s), len(r), outlineCalls(s), outlineCalls(r)))
			continue
		}
		for k := range s {
			a, b := norm(s[k].Content), norm(r[k].Content)
			if s[k].Role != r[k].Role || a != b {
				p := commonPrefixLen(a, b)
				out = append(out, fmt.Sprintf("call %d message %d (%s/%s, CLI's %s/%s) differs at byte %d:\nsimulator %q\nCLI       %q", i, k, s[k].Role, s[k].Origin,
					r[k].Role, r[k].Origin, p, window(a, p), window(b, p)))
			}
			if sn, rn := callNames(s[k]), callNames(r[k]); !slices.Equal(sn, rn) {
				out = append(out, fmt.Sprintf("call %d message %d: tool calls %v simulated, %v sent", i, k, sn, rn))
			}
		}
	}
	return out
}

// byConversation is calls with the session's first, then each
// sub-agent's (capture.SubagentHeader) in the order they began, each
// conversation's in order: the CLI sends a sub-agent's calls while the
// session waits on its tool, the simulator lays a sub-agent's request out
// after the session's (as a capture's trace does).
func byConversation(calls []capture.Call) []capture.Call {
	first := map[string]int{"": -1}
	for k, c := range calls {
		if _, ok := first[c.Headers[capture.SubagentHeader]]; !ok {
			first[c.Headers[capture.SubagentHeader]] = k
		}
	}
	out := slices.Clone(calls)
	slices.SortStableFunc(out, func(a, b capture.Call) int {
		return first[a.Headers[capture.SubagentHeader]] - first[b.Headers[capture.SubagentHeader]]
	})
	return out
}

// byCallOrder puts each batch of tool results in the order of the calls
// that asked for them, and each run of one event's hook words in the
// order of their texts: an agent runs a batch's tools, and an event's
// hooks, side by side and sends what they said in the order they finished.
func byCallOrder(ms []capture.Message) []capture.Message {
	out := slices.Clone(ms)
	event := func(m capture.Message) string {
		e, _, _ := strings.Cut(m.Hook, ":")
		return e
	}
	for i := 0; i < len(out); {
		j := i + 1
		if out[i].Origin == capture.OriginHook {
			for j < len(out) && out[j].Origin == capture.OriginHook && out[j].Role == out[i].Role && event(out[j]) == event(out[i]) {
				j++
			}
			// the framing a place gives (2.1.197's "\n" after a block another
			// follows) stays with the place
			tails := make([]string, j-i)
			for k := i; k < j; k++ {
				body := strings.TrimRight(out[k].Content, "\n")
				tails[k-i], out[k].Content = out[k].Content[len(body):], body
			}
			slices.SortStableFunc(out[i:j], func(a, b capture.Message) int { return strings.Compare(a.Content, b.Content) })
			for k := i; k < j; k++ {
				out[k].Content += tails[k-i]
			}
		}
		i = j
	}
	for i := 0; i < len(out); i++ {
		if len(out[i].ToolCalls) == 0 {
			continue
		}
		pos := map[string]int{}
		for k, tc := range out[i].ToolCalls {
			pos[tc.ID] = k
		}
		j := i + 1
		for j < len(out) && out[j].Role == "tool" {
			j++
		}
		slices.SortStableFunc(out[i+1:j], func(a, b capture.Message) int { return pos[a.ToolCallID] - pos[b.ToolCallID] })
	}
	return out
}

func callNames(m capture.Message) []string {
	var out []string
	for _, tc := range m.ToolCalls {
		out = append(out, tc.Name)
	}
	return out
}

func outlineCalls(ms []capture.Message) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		c := m.Content
		if len(c) > 40 {
			c = c[:40] + "…"
		}
		parts[i] = fmt.Sprintf("%s/%s %q", m.Role, m.Origin, c)
	}
	return strings.Join(parts, ", ")
}

func commonPrefixLen(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func window(s string, at int) string {
	from, to := max(0, at-60), min(len(s), at+100)
	return s[from:to]
}

// claudeCalls runs the real CLI in proj with home against an in-process
// capture answering what the scenario's rounds script: its calls, and
// what it printed.
func claudeCalls(t *testing.T, claude, proj, home string, sc *scenario.Scenario) ([]capture.Call, string) {
	t.Helper()
	answers, sub, allowed := scriptedAnswers(sc)
	srv, err := capture.Listen(capture.Options{Answerer: &scriptedSub{main: answers, sub: sub, n: map[bool]int{}},
		Agents: capture.NewAgentReader(profile.NewCatalog(agentsData))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	args := []string{"-p", sc.Requests[0].User}
	if len(allowed) > 0 {
		args = append(args, "--allowedTools", strings.Join(allowed, " "))
	}
	// the project's plugins, which the simulator reads as it reads the
	// project: the CLI loads them when told
	plugins, _ := filepath.Glob(filepath.Join(proj, "*", ".claude-plugin", "plugin.json"))
	for _, p := range plugins {
		args = append(args, "--plugin-dir", filepath.Dir(filepath.Dir(p)))
	}
	printed := runClaude(t, claude, proj, home, srv.URL(), "sk-ant-test", args...)
	_ = srv.Close() // every answered call recorded
	return srv.Calls(), strings.TrimSuffix(string(printed), "\n")
}

// scriptedAnswers are the answers the scenario's first request scripts,
// those of the sub-agent a call of it starts (one), and the tools they
// call.
func scriptedAnswers(sc *scenario.Scenario) (answers, sub []capture.Answer, tools []string) {
	var rounds func(rds []scenario.Round) []capture.Answer
	rounds = func(rds []scenario.Round) []capture.Answer {
		var out []capture.Answer
		for _, rd := range rds {
			a := capture.Answer{Content: rd.Content}
			for _, tc := range rd.ToolCalls {
				args, _ := json.Marshal(tc.Arguments)
				a.ToolCalls = append(a.ToolCalls, capture.ToolCall{Name: tc.Name, Arguments: args})
				if !slices.Contains(tools, tc.Name) {
					tools = append(tools, tc.Name)
				}
				if tc.Subagent != nil {
					sub = rounds(tc.Subagent.Rounds)
				}
			}
			out = append(out, a)
		}
		return out
	}
	answers = rounds(sc.Requests[0].Rounds)
	return answers, sub, tools
}

// TestRealAgentCodexRequests: every conformance project of Codex, through
// the real `codex exec` against capture and through the simulator with
// the CLI's calibrated request model, gives the same calls: as many, each
// with the same messages — Codex's developer prompt, its skills and
// permissions, the AGENTS.md it quotes, its environment context, the
// hooks' words, its shell tool's outputs as it words them — and the same
// tools.
func TestRealAgentCodexRequests(t *testing.T) {
	bin := agentTool(t, codexConformance.bin)
	t.Parallel()
	rc, err := recipe.Find(codexConformance.recipe)
	if err != nil {
		t.Fatal(err)
	}
	calibrateOnce(t, rc.Agent, bin)
	for _, c := range conformanceCases(t, "codex-guard", "codex-conformance") {
		t.Run(filepath.Base(c), func(t *testing.T) {
			// a copy each, of the same name: the hooks run in both
			simRoot, simProj, simFile, _ := copyCase(t, c)
			_, realProj, _, sc := copyCase(t, c)
			home := filepath.Join(t.TempDir(), "home")
			real, _, printed := codexConformance.realCalls(t, bin, realProj, home, sc)
			out, errOut, code := simulateAgent(t, "--skills", simRoot, "--trust", "--no-history", "--json", "--agent", rc.Agent+"@"+rc.Version,
				"--home", home, simFile)
			if code != exitOK {
				t.Fatalf("simulate: exit %d: %s", code, errOut)
			}
			sim, m := simulatedCalls(t, out)
			compareRequests(t, sim, real, requestNorm(m, simProj, realProj))
			for i := range min(len(sim), len(real)) {
				if s, r := responsesLayout(sim[i].Body), responsesLayout(real[i].Body); !slices.Equal(s, r) {
					t.Errorf("call %d: input items\nsimulator %v\nCLI       %v", i, s, r)
				}
			}
			if t.Failed() {
				t.Logf("codex printed:\n%s", printed)
			}
		})
	}
}

// TestRealAgentRequestShapes: calibrating each pinned Claude Code CLI,
// Codex, Gemini CLI, Qwen Code and Copilot CLI gives the request model
// whose shape the repository bundles (slots, sizes, hashes: never the
// CLI's words): -update writes them.
func TestRealAgentRequestShapes(t *testing.T) {
	type pinned struct{ agent, version, rel string }
	clis := []pinned{{"qwen-code", qwenRequests.version, qwenRequests.bin}, {"copilot-cli", copilotRequests.version, copilotRequests.bin}}
	for _, cli := range pinnedClaude {
		clis = append(clis, pinned{profile.ClaudeCode, cli.version, cli.rel})
	}
	for _, cli := range clis {
		t.Run(cli.agent+"@"+cli.version, func(t *testing.T) {
			t.Parallel()
			bin := agentTool(t, cli.rel)
			calibrateOnce(t, cli.agent, bin)
			checkShape(t, cli.agent, cli.version)
		})
	}
	for _, a := range []struct{ recipe, bin string }{{codexConformance.recipe, codexConformance.bin}, {geminiConformance.system, geminiConformance.bin}} {
		t.Run(a.recipe, func(t *testing.T) {
			t.Parallel()
			rc, err := recipe.Find(a.recipe)
			if err != nil {
				t.Fatal(err)
			}
			calibrateOnce(t, rc.Agent, agentTool(t, a.bin))
			checkShape(t, rc.Agent, rc.Version)
		})
	}
}

// responsesLayout is a Responses body's input as the agent lays it out:
// each item's type (a message's role and number of parts), and whether it
// has instructions.
func responsesLayout(body json.RawMessage) []string {
	in, ok := request.ReadResponsesInput(body)
	if !ok {
		return []string{"unreadable"}
	}
	var out []string
	if in.Instructions {
		out = append(out, "instructions")
	}
	for _, it := range in.Items {
		if it.Type == "message" {
			out = append(out, fmt.Sprintf("%s×%d", it.Role, it.Parts))
		} else {
			out = append(out, it.Type)
		}
	}
	return out
}

// checkShape compares the shape of agent@version's calibrated model with
// the bundled one (-update: writes it).
func checkShape(t *testing.T, agent, version string) {
	t.Helper()
	m, err := request.NewCatalog(agentsData).Find(agent, version)
	if err != nil || m.Origin != request.Calibrated {
		t.Fatalf("no calibrated model of %s@%s: %v", agent, version, err)
	}
	// the CLIs are installed in the repository (tools/agents), and an
	// agent may send where (Gemini CLI lists its built-in skills by their
	// files): the same shape wherever the repository is cloned
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	// a worktree links its CLIs in: Node names their files by where the link leads
	agents := filepath.Join(root, "tools", "agents", "node_modules")
	linked, _ := filepath.EvalSymlinks(agents)
	reshape := func(p *request.Piece) {
		skel := p.Text.Skeleton()
		if linked != "" && linked != agents {
			skel = strings.ReplaceAll(skel, linked+"/", agents+"/")
		}
		if !strings.Contains(skel, root+"/") {
			return
		}
		skel = strings.ReplaceAll(skel, root+"/", "/hookstudio/")
		p.Shape = request.Shape{Chars: len([]rune(skel)), Tokens: counter.Count(skel), SHA256: request.Hash(skel), Slots: p.Text.Slots()}
	}
	for i := range m.System {
		reshape(&m.System[i])
	}
	for i := range m.Turn {
		if m.Turn[i].Piece != nil {
			reshape(m.Turn[i].Piece)
		}
	}
	got := request.Encode(request.ShapeOf(m))
	file := filepath.Join("..", "..", "app", "agentdata", "request", filepath.FromSlash(request.BundledPath(agent, version)))
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (write it: go test ./cmd/hookctl -run TestRealAgentRequestShapes -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("calibrating %s@%s gives another shape than %s: the CLI changed, or calibration did (-update after checking the diff):\n%s",
			agent, version, file, strings.Join(jsonDiff(want, got, 20), "\n"))
	}
}

// jsonDiff lists where two JSON texts differ, by path, at most n places:
// which piece of a shape changed and how (its size, its slots).
func jsonDiff(a, b []byte, n int) []string {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return []string{"(not JSON)"}
	}
	var out []string
	var walk func(path string, x, y any)
	walk = func(path string, x, y any) {
		if len(out) >= n {
			return
		}
		switch xv := x.(type) {
		case map[string]any:
			if yv, ok := y.(map[string]any); ok {
				keys := slices.Sorted(maps.Keys(xv))
				for k := range yv {
					if _, ok := xv[k]; !ok {
						keys = append(keys, k)
					}
				}
				for _, k := range keys {
					walk(path+"."+k, xv[k], yv[k])
				}
				return
			}
		case []any:
			if yv, ok := y.([]any); ok {
				for i := range max(len(xv), len(yv)) {
					var xi, yi any
					if i < len(xv) {
						xi = xv[i]
					}
					if i < len(yv) {
						yi = yv[i]
					}
					walk(fmt.Sprintf("%s[%d]", path, i), xi, yi)
				}
				return
			}
		}
		if !reflect.DeepEqual(x, y) {
			xs, _ := json.Marshal(x)
			ys, _ := json.Marshal(y)
			out = append(out, fmt.Sprintf("  %s: bundled %s, calibrated %s", path, xs, ys))
		}
	}
	walk("", x, y)
	return out
}
