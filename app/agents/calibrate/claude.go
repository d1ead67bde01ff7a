package calibrate

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/process"
)

// A probe is one outcome: the hook that produces it, with words of its own
// (and a second hook's, for how several outputs join).
type probe struct {
	id      string // outcome id
	event   string
	command string // the handler's command as written in settings.json
	words   string // what the hook says
	second  string // a second handler's words, "" when the outcome has one output
	run     string // which CLI run shows it
	tool    string // the tool of a tool event
	call    string // for words of the CLI's own (no words): what the probe's tool call holds
	// same is the outcome this probe must render as (another tool's call
	// of it): a check that the CLI words it alike for every tool, not an
	// outcome of its own.
	same string
}

// A cliRun is one `claude -p` with its own project.
type cliRun struct {
	name     string
	prompt   string
	settings map[string][]group
	answers  []capture.Answer
	notice   bool // the outcome is what the CLI prints (no request is made)
	// sub answers a sub-agent's requests (by their rounds) in a run whose
	// session asks the Agent tool for one; tools are the tools allowed
	// ("": Bash)
	sub       []capture.Answer
	subPrompt string
	tools     string
}

type group struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []handler `json:"hooks"`
}

type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// script is the probe project's one hook program: it logs that it ran and
// answers by its role (its argument) and what the tool call or prompt is.
const script = `#!/bin/sh
# A hookctl calibrate probe: prints what the role asks for this input.
role=$1
in=$(cat)
echo "$role" >> "$CLAUDE_PROJECT_DIR/.probe-ran"
ctx() { printf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"%s"}}\n' "$1" "$2"; }
case "$role" in
@ARMS@
esac
exit 0
`

const scriptPath = `"$CLAUDE_PROJECT_DIR"/.claude/hooks/probe.sh`

// claudeProbes lays out the probe project of Claude Code: one main run
// (every outcome a request shows) and one run per outcome that stops the
// prompt before any request (its notice is what the CLI prints).
func claudeProbes(nonce string) ([]probe, []cliRun, string) {
	w := func(id, side string) string { // words no agent would write
		s := "HSP" + nonce + " " + strings.ReplaceAll(id, ".", " ") + " " + side
		if strings.HasSuffix(id, ".context") {
			s += " <m>" // so an agent that escapes the context shows it
		}
		return s
	}
	cmd := func(role string) string { return scriptPath + " " + role }
	var probes []probe
	add := func(id, role, second, run, tool string) {
		event, _ := profile.SplitID(id)
		p := probe{id: id, event: event, command: cmd(role), words: w(id, "A"), run: run, tool: tool}
		if second != "" {
			p.second = w(id, "B")
		}
		probes = append(probes, p)
	}
	two := "two"
	add("SessionStart.stdout", "ss-out-a", two, "main", "")
	add("SessionStart.context", "ss-ctx-a", two, "main", "")
	add("UserPromptSubmit.stdout", "ups-out-a", two, "main", "")
	add("UserPromptSubmit.context", "ups-ctx-a", two, "main", "")
	add("UserPromptSubmit.exit2", "ups-exit2", "", "prompt-exit2", "")
	add("UserPromptSubmit.block", "ups-block", "", "prompt-block", "")
	add("PreToolUse.exit2", "pre-a", "", "main", "Bash")
	add("PreToolUse.deny", "pre-a", "", "main", "Bash")
	add("PreToolUse.deny_no_reason", "pre-a", "", "main", "Bash")
	probes[len(probes)-1].words, probes[len(probes)-1].call = "", "hsp-pre-deny-bare" // the CLI words it
	// a Read of a relative path: the hook reads it resolved, and 2.1.332
	// words the deny apart
	add("PreToolUse.deny_resolved", "pre-a", "", "main", "Read")
	add("PreToolUse.deny_resolved_no_reason", "pre-a", "", "main", "Read")
	probes[len(probes)-1].words, probes[len(probes)-1].call = "", "hsp-pre-rdeny-bare"
	// the same outcomes of other tools: a Read of an absolute path is any
	// deny, a Write of a relative one a resolved deny
	add("PreToolUse.deny", "pre-a", "", "main", "Read")
	probes[len(probes)-1].words, probes[len(probes)-1].same = w("PreToolUse.deny", "Read"), "PreToolUse.deny"
	add("PreToolUse.deny_resolved", "pre-a", "", "main", "Write")
	probes[len(probes)-1].words, probes[len(probes)-1].same = w("PreToolUse.deny_resolved", "Write"), "PreToolUse.deny_resolved"
	add("PreToolUse.ask", "pre-a", "", "main", "Bash")
	add("PreToolUse.ask_no_reason", "pre-a", "", "main", "Bash")
	probes[len(probes)-1].words, probes[len(probes)-1].call = "", "hsp-pre-ask-bare" // the CLI words it
	add("PreToolUse.context", "pre-a", two, "main", "Bash")
	add("PostToolUse.context", "post-a", two, "main", "Bash")
	add("PostToolUse.exit2", "post-a", "", "main", "Bash")
	add("PostToolUse.block", "post-a", "", "main", "Bash")
	add("PostToolUseFailure.context", "fail-a", two, "main", "Bash")
	add("PostToolBatch.context", "batch-a", two, "main", "")
	add("Stop.exit2", "stop", "", "main", "")
	add("Stop.block", "stop", "", "main", "")
	// a sub-agent's: its SubagentStart context, its SubagentStop blocks
	add("SubagentStart.context", "sub-start-a", two, "subagent", "")
	add("SubagentStop.block", "substop", "", "subagent", "")
	add("SubagentStop.exit2", "substop", "", "subagent", "")
	json1 := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	quote := func(s string) string { return "'" + s + "'" } // the words hold no quote
	by := map[string]probe{}
	for _, p := range probes {
		if p.same == "" {
			by[p.id] = p
		} else {
			by[p.id+"@"+p.tool] = p
		}
	}
	deny := func(words string) string {
		out := map[string]string{"hookEventName": "PreToolUse", "permissionDecision": "deny"}
		if words != "" {
			out["permissionDecisionReason"] = words
		}
		return quote(json1(map[string]any{"hookSpecificOutput": out}))
	}
	ctxOut := func(id string, words string) string {
		return fmt.Sprintf("ctx %s %s", by[id].event, quote(words))
	}
	// each role's case arm; a tool event's arms match the tool call's words
	arms := []string{
		fmt.Sprintf("ss-out-a) printf '%%s\\n' %s;;", quote(by["SessionStart.stdout"].words)),
		fmt.Sprintf("ss-out-b) printf '%%s\\n' %s;;", quote(by["SessionStart.stdout"].second)),
		"ss-ctx-a) " + ctxOut("SessionStart.context", by["SessionStart.context"].words) + ";;",
		"ss-ctx-b) " + ctxOut("SessionStart.context", by["SessionStart.context"].second) + ";;",
		fmt.Sprintf("ups-out-a) printf '%%s\\n' %s;;", quote(by["UserPromptSubmit.stdout"].words)),
		fmt.Sprintf("ups-out-b) printf '%%s\\n' %s;;", quote(by["UserPromptSubmit.stdout"].second)),
		"ups-ctx-a) " + ctxOut("UserPromptSubmit.context", by["UserPromptSubmit.context"].words) + ";;",
		"ups-ctx-b) " + ctxOut("UserPromptSubmit.context", by["UserPromptSubmit.context"].second) + ";;",
		fmt.Sprintf("ups-exit2) printf '%%s' %s >&2; exit 2;;", quote(by["UserPromptSubmit.exit2"].words)),
		fmt.Sprintf("ups-block) printf '%%s\\n' %s;;", quote(json1(map[string]string{"decision": "block", "reason": by["UserPromptSubmit.block"].words}))),
		`pre-a) case "$in" in`,
		fmt.Sprintf("  *hsp-pre-exit2*) printf '%%s' %s >&2; exit 2;;", quote(by["PreToolUse.exit2"].words)),
		// the bare arms first: their markers hold the others'
		"  *hsp-pre-deny-bare*|*hsp-pre-rdeny-bare*) printf '%s\\n' " + deny("") + ";;",
		"  *hsp-pre-rdeny*) printf '%s\\n' " + deny(by["PreToolUse.deny_resolved"].words) + ";;",
		"  *hsp-pre-wdeny*) printf '%s\\n' " + deny(by["PreToolUse.deny_resolved@Write"].words) + ";;",
		"  *hsp-pre-adeny*) printf '%s\\n' " + deny(by["PreToolUse.deny@Read"].words) + ";;",
		"  *hsp-pre-deny*) printf '%s\\n' " + deny(by["PreToolUse.deny"].words) + ";;",
		fmt.Sprintf("  *hsp-pre-ask-reason*) printf '%%s\\n' %s;;", quote(json1(map[string]any{"hookSpecificOutput": map[string]string{
			"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": by["PreToolUse.ask"].words}}))),
		fmt.Sprintf("  *hsp-pre-ask-bare*) printf '%%s\\n' %s;;", quote(json1(map[string]any{"hookSpecificOutput": map[string]string{
			"hookEventName": "PreToolUse", "permissionDecision": "ask"}}))),
		"  *hsp-pre-ctx*) " + ctxOut("PreToolUse.context", by["PreToolUse.context"].words) + ";;",
		"  esac;;",
		`pre-b) case "$in" in *hsp-pre-ctx*) ` + ctxOut("PreToolUse.context", by["PreToolUse.context"].second) + ";; esac;;",
		`post-a) case "$in" in`,
		"  *hsp-post-ctx*) " + ctxOut("PostToolUse.context", by["PostToolUse.context"].words) + ";;",
		fmt.Sprintf("  *hsp-post-exit2*) printf '%%s' %s >&2; exit 2;;", quote(by["PostToolUse.exit2"].words)),
		fmt.Sprintf("  *hsp-post-block*) printf '%%s\\n' %s;;", quote(json1(map[string]string{"decision": "block", "reason": by["PostToolUse.block"].words}))),
		"  esac;;",
		// beside a block, another hook's context: do the two share a message?
		`post-b) case "$in" in *hsp-post-ctx*) ` + ctxOut("PostToolUse.context", by["PostToolUse.context"].second) + ";;",
		"  *hsp-post-exit2*|*hsp-post-block*) " + ctxOut("PostToolUse.context", "HSP"+nonce+" PostToolUse companion") + ";; esac;;",
		`fail-a) case "$in" in *hsp-fail*) ` + ctxOut("PostToolUseFailure.context", by["PostToolUseFailure.context"].words) + ";; esac;;",
		`fail-b) case "$in" in *hsp-fail*) ` + ctxOut("PostToolUseFailure.context", by["PostToolUseFailure.context"].second) + ";; esac;;",
		`batch-a) case "$in" in *hsp-batch*) ` + ctxOut("PostToolBatch.context", by["PostToolBatch.context"].words) + ";; esac;;",
		`batch-b) case "$in" in *hsp-batch*) ` + ctxOut("PostToolBatch.context", by["PostToolBatch.context"].second) + ";; esac;;",
		// the first stop blocks by decision, the second by exit 2, the third ends
		`stop) n=$(cat "$CLAUDE_PROJECT_DIR/.probe-stops" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$CLAUDE_PROJECT_DIR/.probe-stops"`,
		"  case $n in",
		fmt.Sprintf("  1) printf '%%s\\n' %s;;", quote(json1(map[string]string{"decision": "block", "reason": by["Stop.block"].words}))),
		fmt.Sprintf("  2) printf '%%s' %s >&2; exit 2;;", quote(by["Stop.exit2"].words)),
		"  esac;;",
		"sub-start-a) " + ctxOut("SubagentStart.context", by["SubagentStart.context"].words) + ";;",
		"sub-start-b) " + ctxOut("SubagentStart.context", by["SubagentStart.context"].second) + ";;",
		`substop) n=$(cat "$CLAUDE_PROJECT_DIR/.probe-substops" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$CLAUDE_PROJECT_DIR/.probe-substops"`,
		"  case $n in",
		fmt.Sprintf("  1) printf '%%s\\n' %s;;", quote(json1(map[string]string{"decision": "block", "reason": by["SubagentStop.block"].words}))),
		fmt.Sprintf("  2) printf '%%s' %s >&2; exit 2;;", quote(by["SubagentStop.exit2"].words)),
		"  esac;;",
	}
	hs := func(roles ...string) []handler {
		var out []handler
		for _, r := range roles {
			out = append(out, handler{Type: "command", Command: cmd(r)})
		}
		return out
	}
	tool := func(name string, args map[string]string) capture.ToolCall {
		data, _ := json.Marshal(args)
		return capture.ToolCall{Name: name, Arguments: data}
	}
	bash := func(command string) capture.ToolCall {
		return tool("Bash", map[string]string{"command": command, "description": "calibration probe"})
	}
	calls := func(tcs ...capture.ToolCall) capture.Answer { return capture.Answer{ToolCalls: tcs} }
	prompt := "HSP" + nonce + " calibration prompt"
	subPrompt := "HSP" + nonce + " sub-agent prompt"
	runs := []cliRun{
		{name: "main", prompt: prompt, settings: map[string][]group{
			"SessionStart":       {{Hooks: hs("ss-out-a", "ss-out-b", "ss-ctx-a", "ss-ctx-b")}},
			"UserPromptSubmit":   {{Hooks: hs("ups-out-a", "ups-out-b", "ups-ctx-a", "ups-ctx-b")}},
			"PreToolUse":         {{Matcher: "Bash|Read|Write", Hooks: hs("pre-a", "pre-b")}},
			"PostToolUse":        {{Matcher: "Bash", Hooks: hs("post-a", "post-b")}},
			"PostToolUseFailure": {{Matcher: "Bash", Hooks: hs("fail-a", "fail-b")}},
			"PostToolBatch":      {{Hooks: hs("batch-a", "batch-b")}},
			"Stop":               {{Hooks: hs("stop")}},
		}, answers: []capture.Answer{
			calls(bash("echo hsp-pre-exit2")),
			calls(bash("echo hsp-pre-deny")),
			calls(bash("echo hsp-pre-deny-bare")),
			calls(tool("Read", map[string]string{"file_path": "hsp-pre-rdeny.txt"})),
			calls(tool("Read", map[string]string{"file_path": "hsp-pre-rdeny-bare.txt"})),
			calls(tool("Read", map[string]string{"file_path": "/hsp-pre-adeny-" + nonce + ".txt"})),
			calls(tool("Write", map[string]string{"file_path": "hsp-pre-wdeny.txt", "content": "calibration probe"})),
			calls(bash("echo hsp-pre-ask-reason")),
			calls(bash("echo hsp-pre-ask-bare")),
			calls(bash("echo hsp-pre-ctx")),
			calls(bash("echo hsp-post-ctx")),
			calls(bash("echo hsp-post-exit2")),
			calls(bash("echo hsp-post-block")),
			calls(bash("false hsp-fail")),
			calls(bash("echo hsp-batch-1"), bash("echo hsp-batch-2")),
			{Content: "Probe answer one."},
			{Content: "Probe answer two."},
			{Content: "Probe answer three."},
		}},
		// a sub-agent in the foreground (2.1.332 runs one in the
		// background unless told), blocked twice when it ends
		{name: "subagent", prompt: prompt, subPrompt: subPrompt, tools: "Bash Agent", settings: map[string][]group{
			"SubagentStart": {{Hooks: hs("sub-start-a", "sub-start-b")}},
			"SubagentStop":  {{Hooks: hs("substop")}},
		}, answers: []capture.Answer{
			calls(capture.ToolCall{Name: "Agent", Arguments: []byte(fmt.Sprintf(`{"description":"HSP%s sub task","prompt":%q,`+
				`"subagent_type":"general-purpose","run_in_background":false}`, nonce, subPrompt))}),
			{Content: "Probe answer one."},
		}, sub: []capture.Answer{{Content: "Probe sub answer one."}, {Content: "Probe sub answer two."}, {Content: "Probe sub answer three."}}},
		{name: "prompt-exit2", prompt: prompt, notice: true, settings: map[string][]group{"UserPromptSubmit": {{Hooks: hs("ups-exit2")}}},
			answers: []capture.Answer{{Content: "The prompt was not blocked."}}},
		{name: "prompt-block", prompt: prompt, notice: true, settings: map[string][]group{"UserPromptSubmit": {{Hooks: hs("ups-block")}}},
			answers: []capture.Answer{{Content: "The prompt was not blocked."}}},
	}
	return probes, runs, strings.Replace(script, "@ARMS@", strings.Join(arms, "\n"), 1)
}

// ranRun is what one run left: the request bodies the endpoint answered
// and what the CLI printed.
type ranRun struct {
	bodies  []json.RawMessage
	printed string
	ran     []string // the probe roles that ran
}

func claudeCode(ctx context.Context, opts Options, version string) (*profile.Profile, int, error) {
	var id [4]byte
	_, _ = rand.Read(id[:])
	nonce := hex.EncodeToString(id[:])
	probes, runs, prog := claudeProbes(nonce)
	results := map[string]*ranRun{}
	requests := 0
	for i, r := range runs {
		report := func(n int, msg string) {
			opts.Progress(Progress{Run: i + 1, Runs: len(runs), Probe: r.name, Requests: n, Message: msg})
		}
		out, err := runClaude(ctx, opts, r, prog, report)
		if err != nil {
			return nil, requests, err
		}
		requests += len(out.bodies)
		results[r.name] = out
	}
	p := &profile.Profile{Agent: profile.ClaudeCode, Version: version, MadeBy: "hookctl calibrate claude-code", Outcomes: map[string]*profile.Outcome{}}
	var errs []error
	var checks []probe
	for _, pr := range probes {
		if pr.same != "" {
			checks = append(checks, pr)
			continue
		}
		o, err := deriveOutcome(pr, results[pr.run], runs)
		if err != nil {
			errs = append(errs, &ProbeError{Probe: pr.id, Err: err})
			continue
		}
		p.Outcomes[pr.id] = o
	}
	for _, pr := range checks {
		if err := sameOutcome(pr, p.Outcomes[pr.same], results[pr.run], runs); err != nil {
			errs = append(errs, &ProbeError{Probe: pr.id + " (" + pr.tool + ")", Err: err})
		}
	}
	if len(errs) > 0 {
		return nil, requests, errors.Join(errs...)
	}
	own, err := agentParagraphs(results, "HSP"+nonce)
	if err != nil {
		return nil, requests, &ProbeError{Probe: "agent paragraphs", Err: err}
	}
	p.AgentParagraphs = own
	return p, requests, nil
}

// agentParagraphs are the fingerprints of the paragraphs the CLI wrote
// itself in the system-role messages it shares with hooks' words: every
// paragraph there that holds no probe's words (marker).
func agentParagraphs(results map[string]*ranRun, marker string) ([]string, error) {
	seen := map[string]bool{}
	for _, rr := range results {
		for _, body := range rr.bodies {
			us, err := units(body)
			if err != nil {
				return nil, err
			}
			for _, u := range us {
				if u.role != "system" || u.kind != "text" {
					continue
				}
				for _, para := range strings.Split(u.text, "\n\n") {
					if strings.TrimSpace(para) != "" && !strings.Contains(para, marker) {
						seen[profile.Fingerprint(para)] = true
					}
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// sameOutcome checks that the CLI words pr, another tool's call of an
// outcome, as it words want: a profile's outcome is one rendering for
// every tool, so a CLI that words them apart cannot be followed.
func sameOutcome(pr probe, want *profile.Outcome, rr *ranRun, runs []cliRun) error {
	got, err := deriveOutcome(pr, rr, runs)
	if err != nil || want == nil {
		return err
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		return fmt.Errorf("%w: a %s call's %s reads %s, another tool's %s", ErrToolDependent, pr.tool, pr.same, a, b)
	}
	return nil
}

// runClaude runs one `claude -p` in a throw-away project and HOME against
// an in-process capture that answers by the round the conversation is in.
func runClaude(ctx context.Context, opts Options, r cliRun, prog string, report func(int, string)) (*ranRun, error) {
	dir, err := os.MkdirTemp("", "hookstudio-calibrate-")
	if err != nil {
		return nil, &ProbeError{Probe: r.name, Err: err}
	}
	defer os.RemoveAll(dir)
	proj, home, tmp := filepath.Join(dir, "project"), filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	settings, _ := json.MarshalIndent(map[string]any{"hooks": r.settings}, "", "  ")
	for path, data := range map[string][]byte{
		filepath.Join(proj, ".claude", "settings.json"):     settings,
		filepath.Join(proj, ".claude", "hooks", "probe.sh"): []byte(prog),
		filepath.Join(home, ".keep"):                        nil,
		filepath.Join(tmp, ".keep"):                         nil, // the CLI's TMPDIR: it leaves folders there
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
		if err := os.WriteFile(path, data, 0o755); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
	}
	rctx, cancel := context.WithTimeout(ctx, opts.RunTimeout)
	defer cancel()
	var mu sync.Mutex
	var bodies []json.RawMessage
	scripted := len(r.answers) + len(r.sub)
	srv, err := capture.Listen(capture.Options{Answerer: bySubagent{main: r.answers, sub: r.sub}, OnCall: func(c capture.Call) {
		mu.Lock()
		bodies = append(bodies, c.Body)
		n := len(bodies)
		mu.Unlock()
		report(n, fmt.Sprintf("request %d answered", n))
		if n > 3*scripted+3 {
			cancel() // the CLI keeps asking: the script no longer leads it
		}
	}})
	if err != nil {
		return nil, &ProbeError{Probe: r.name, Err: err}
	}
	defer srv.Close()
	report(0, "starting "+filepath.Base(opts.CLI)+" -p")
	runner := process.NewGroup()
	defer runner.Close()
	tools := cmp.Or(r.tools, "Bash")
	res := runner.Run(rctx, process.Spec{Argv: []string{opts.CLI, "-p", r.prompt, "--allowedTools", tools}, Dir: proj, Env: cliEnv(home, tmp, srv.URL()),
		MaxStdout: outputCap, MaxStderr: outputCap})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_ = srv.Close() // the last answer is recorded before Calls is read
	mu.Lock()
	out := &ranRun{bodies: bodies, printed: string(res.Stdout)}
	mu.Unlock()
	ran, _ := os.ReadFile(filepath.Join(proj, ".probe-ran"))
	out.ran = strings.Fields(string(ran))
	if len(out.bodies) > 3*scripted+3 {
		return nil, &ProbeError{Probe: r.name, Err: fmt.Errorf("%w: it made %d requests for %d scripted answers", ErrNotOffline, len(out.bodies), scripted)}
	}
	if err := runFailed(r.name, opts, res, len(out.bodies), !r.notice, " (is ANTHROPIC_BASE_URL honoured?)"); err != nil {
		return nil, err
	}
	report(len(out.bodies), "done")
	return out, nil
}

// cliEnv is the CLI's environment: this one without the user's own Claude
// and Anthropic settings, a throw-away HOME and TMPDIR (the CLI leaves
// folders there), the endpoint, no traffic beyond it.
func cliEnv(home, tmp, url string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE") || k == "HOME" || k == "TMPDIR" || strings.HasPrefix(k, "HOOKSTUDIO_") {
			continue
		}
		env = append(env, kv)
	}
	return withShell(append(env, "HOME="+home, "TMPDIR="+tmp, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-ant-hookstudio-calibration",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"))
}

// byRound answers by how far the conversation is: its number of assistant
// turns, so a side request of the CLI's own does not shift the script.
type byRound []capture.Answer

// ReadsMessages: the capture parses each request before asking (it counts
// the turns in them).
func (b byRound) ReadsMessages() bool { return true }

// bySubagent answers a sub-agent's requests (those that name one,
// capture.SubagentHeader) by their rounds from sub, the session's from
// main: each conversation follows its own script, however the CLI
// interleaves them.
type bySubagent struct{ main, sub byRound }

func (b bySubagent) ReadsMessages() bool { return true }

func (b bySubagent) Answer(ctx context.Context, n int, req *capture.Request) (*capture.Answer, error) {
	if req.Subagent != "" {
		a, err := b.sub.Answer(ctx, n, req)
		if a != nil {
			for i := range a.ToolCalls { // ids of their own, apart from the session's
				a.ToolCalls[i].ID = strings.Replace(a.ToolCalls[i].ID, "toolu_probe_", "toolu_probesub_", 1)
			}
		}
		return a, err
	}
	return b.main.Answer(ctx, n, req)
}

func (b byRound) Answer(_ context.Context, _ int, req *capture.Request) (*capture.Answer, error) {
	n := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	if n >= len(b) {
		return nil, fmt.Errorf("%w: the probe scripts %d answers and the conversation has %d turns", capture.ErrNoAnswer, len(b), n)
	}
	a := b[n]
	a.ToolCalls = append([]capture.ToolCall(nil), a.ToolCalls...)
	for i := range a.ToolCalls {
		a.ToolCalls[i].ID = fmt.Sprintf("toolu_probe_%02d_%d", n, i)
	}
	return &a, nil
}

// runFailed says why a probe run of the CLI went wrong (nil: it did not):
// it outlived the run's time, did not start, failed, or — when it had to
// (asks) — never called the endpoint (hint: what to check).
// outputCap is how much of a CLI's output a calibration keeps: enough for
// the tail an error shows and the answer it printed.
const outputCap = 1 << 20

func runFailed(name string, opts Options, res process.Result, requests int, asks bool, hint string) error {
	tail := func() string {
		s := strings.TrimSpace(string(res.Stderr) + "\n" + string(res.Stdout))
		if len(s) > 600 {
			s = "…" + s[len(s)-600:]
		}
		return s
	}
	var err error
	switch {
	case res.TimedOut:
		err = fmt.Errorf("%w: no end within %s (%d requests answered): %s", ErrNotOffline, opts.RunTimeout, requests, tail())
	case res.Err != nil:
		err = fmt.Errorf("%w: %w", ErrNotOffline, res.Err)
	case res.ExitCode != 0:
		err = fmt.Errorf("%w: %s exit %d: %s", ErrNotOffline, filepath.Base(opts.CLI), res.ExitCode, tail())
	case asks && requests == 0:
		err = fmt.Errorf("%w: it never called the endpoint%s: %s", ErrNotOffline, hint, tail())
	default:
		return nil
	}
	return &ProbeError{Probe: name, Err: err}
}
