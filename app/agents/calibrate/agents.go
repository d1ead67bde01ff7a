package calibrate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/process"
	"hookstudio/app/platform/workspace"
)

// An agentSpec is how to probe one agent CLI other than Claude Code: its
// recipe (app/agentdata/recipe: the variables, config files and command that
// run it against a capture), its hooks file and the JSON its hooks answer
// with, its shell tool, and the probes. Each agent was first run by hand
// against capture (docs/agents/); the probes produce the outcomes seen.
type agentSpec struct {
	recipe string
	// hooksFile is the project's hooks file; hooks its document for the
	// commands of each event, in order.
	hooksFile string
	hooks     func(byEvent map[string][]string) any
	// the JSON a hook prints for each kind of answer
	context, deny, block func(event, words string) string
	// shell is the answers' call of the agent's shell tool running cmd.
	shell func(cmd string) capture.ToolCall
	// home are files of the throw-away HOME; env and args what is added to
	// the recipe's variables and command (offline, no sandbox helper).
	home map[string]string
	env  []string
	args []string
	// hookID reads the agent's id of a hook run out of a text ("" none).
	hookID func(text string) string
	probes []agentProbe
}

// An agentProbe is one outcome: the hook that answers it (by the tool
// call's marker on tool events, by how many times it ran on a stop), in
// which run.
type agentProbe struct {
	id  string
	run string
	// call: the marker of the probe's tool call ("" none); counter: the
	// n-th stop answers (0: not a stop)
	call    string
	counter int
	// two: a second hook of the event answers the same way (how several
	// join); bare: the agent's own words, no hook words (the result of
	// call is the rendering)
	two, bare bool
}

var codexHookIDRe = regexp.MustCompile(`hook_run_id="([^"]*)"`)

// ctxJSON is Claude Code's shape, which Codex, Gemini CLI and Qwen Code read.
func ctxJSON(event, words string) string {
	return mustJSON(map[string]any{"hookSpecificOutput": map[string]string{"hookEventName": event, "additionalContext": words}})
}

func denyJSON(event, words string) string {
	return mustJSON(map[string]any{"hookSpecificOutput": map[string]string{"hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": words}})
}

func blockJSON(_, words string) string {
	return mustJSON(map[string]string{"decision": "block", "reason": words})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// claudeShape is a hooks document in Claude Code's settings shape.
func claudeShape(byEvent map[string][]string) any {
	hooks := map[string][]group{}
	for event, cmds := range byEvent {
		g := group{}
		if strings.Contains(strings.ToLower(event), "tool") {
			g.Matcher = ".*"
		}
		for _, c := range cmds {
			g.Hooks = append(g.Hooks, handler{Type: "command", Command: c})
		}
		hooks[event] = []group{g}
	}
	return map[string]any{"hooks": hooks}
}

func shellCall(name, arg string, extra map[string]string) func(string) capture.ToolCall {
	return func(cmd string) capture.ToolCall {
		args := map[string]string{arg: cmd}
		for k, v := range extra {
			args[k] = v
		}
		return capture.ToolCall{Name: name, Arguments: json.RawMessage(mustJSON(args))}
	}
}

func agentSpecs() map[string]agentSpec {
	return map[string]agentSpec{
		"codex": {
			recipe: "codex", hooksFile: ".codex/hooks.json", hooks: claudeShape,
			context: ctxJSON, deny: denyJSON, block: blockJSON,
			shell: shellCall("exec_command", "cmd", nil),
			home:  map[string]string{".codex/config.toml": "[analytics]\nenabled = false\n[feedback]\nenabled = false\n"},
			// its sandbox helper is not made under a temporary folder
			args: []string{"--dangerously-bypass-approvals-and-sandbox"},
			hookID: func(text string) string {
				if m := codexHookIDRe.FindStringSubmatch(text); m != nil {
					return m[1]
				}
				return ""
			},
			probes: []agentProbe{
				{id: "SessionStart.stdout", run: "main", two: true}, {id: "SessionStart.context", run: "main", two: true},
				{id: "UserPromptSubmit.stdout", run: "main", two: true}, {id: "UserPromptSubmit.context", run: "main", two: true},
				{id: "PreToolUse.exit2", run: "main", call: "hsp-pre-exit2"}, {id: "PreToolUse.deny", run: "main", call: "hsp-pre-deny"},
				{id: "PreToolUse.context", run: "main", call: "hsp-pre-ctx", two: true},
				{id: "PostToolUse.context", run: "main", call: "hsp-post-ctx", two: true},
				{id: "PostToolUse.block", run: "main", call: "hsp-post-block"}, {id: "PostToolUse.exit2", run: "main", call: "hsp-post-exit2"},
				{id: "Stop.block", run: "main", counter: 1}, {id: "Stop.exit2", run: "main", counter: 2},
			},
		},
		"gemini-cli": {
			recipe: "gemini-cli", hooksFile: ".gemini/settings.json", hooks: claudeShape,
			context: ctxJSON, block: blockJSON,
			deny:  func(_, words string) string { return mustJSON(map[string]string{"decision": "deny", "reason": words}) },
			shell: shellCall("run_shell_command", "command", nil),
			env:   []string{"GEMINI_CLI_NO_RELAUNCH=true"},
			probes: []agentProbe{
				{id: "SessionStart.stdout", run: "main"}, {id: "SessionStart.context", run: "main"},
				{id: "BeforeAgent.stdout", run: "main"}, {id: "BeforeAgent.context", run: "main", two: true},
				{id: "BeforeTool.deny", run: "main", call: "hsp-bt-deny"}, {id: "BeforeTool.exit2", run: "main", call: "hsp-bt-exit2"},
				{id: "AfterTool.context", run: "main", call: "hsp-at-ctx"},
				{id: "AfterTool.deny", run: "main", call: "hsp-at-deny"}, {id: "AfterTool.exit2", run: "main", call: "hsp-at-exit2"},
				{id: "AfterAgent.block", run: "main", counter: 1}, {id: "AfterAgent.stdout", run: "main"},
			},
		},
		"qwen-code": {
			recipe: "qwen-code", hooksFile: ".qwen/settings.json", hooks: claudeShape,
			context: ctxJSON, deny: denyJSON, block: blockJSON,
			shell: shellCall("run_shell_command", "command", map[string]string{"description": "calibration probe"}),
			home: map[string]string{".qwen/settings.json": `{"privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
 "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`},
			probes: []agentProbe{
				// stdout and context of one event share one text: a run each
				{id: "SessionStart.context", run: "main"}, {id: "UserPromptSubmit.context", run: "main", two: true},
				{id: "SessionStart.stdout", run: "stdout"}, {id: "UserPromptSubmit.stdout", run: "stdout", two: true},
				{id: "PreToolUse.exit2", run: "main", call: "hsp-pre-exit2"}, {id: "PreToolUse.deny", run: "main", call: "hsp-pre-deny"},
				{id: "PostToolUse.context", run: "main", call: "hsp-post-ctx"},
				{id: "Stop.block", run: "main", counter: 1}, {id: "Stop.exit2", run: "main", counter: 2},
			},
		},
		"copilot-cli": {
			recipe: "copilot-cli", hooksFile: ".github/hooks/probe.json",
			hooks: func(byEvent map[string][]string) any {
				hooks := map[string][]map[string]any{}
				for event, cmds := range byEvent {
					for _, c := range cmds {
						hooks[event] = append(hooks[event], map[string]any{"type": "command", "bash": c, "timeoutSec": 60})
					}
				}
				return map[string]any{"version": 1, "hooks": hooks}
			},
			// Copilot reads its own shape: the fields at the top level
			context: func(_, words string) string { return mustJSON(map[string]string{"additionalContext": words}) },
			deny: func(_, words string) string {
				return mustJSON(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": words})
			},
			block: blockJSON,
			shell: shellCall("bash", "command", map[string]string{"description": "calibration probe"}),
			probes: []agentProbe{
				{id: "sessionStart.context", run: "main"}, {id: "userPromptSubmitted.context", run: "main"},
				{id: "preToolUse.deny", run: "main", call: "hsp-pre-deny"}, {id: "preToolUse.exit2", run: "main", call: "hsp-pre-exit2", bare: true},
				{id: "preToolUse.context", run: "main", call: "hsp-pre-ctx"}, {id: "postToolUse.context", run: "main", call: "hsp-post-ctx"},
				{id: "agentStop.block", run: "main", counter: 1},
			},
		},
	}
}

// Agents are the agents calibration knows, Claude Code first.
func Agents() []string {
	out := []string{profile.ClaudeCode}
	for a := range agentSpecs() {
		out = append(out, a)
	}
	slices.Sort(out[1:])
	return out
}

// words are a probe's hook words: nothing an agent would write, and a
// context's hold <, > and & so an agent that escapes them shows how.
func (pr agentProbe) words(nonce, side string) string {
	if pr.bare {
		return ""
	}
	s := "HSP" + nonce + " " + strings.ReplaceAll(pr.id, ".", " ") + " " + side
	if _, kind := profile.SplitID(pr.id); kind == profile.KindContext || kind == profile.KindStdout {
		s += " <m&>"
	}
	return s
}

// agentRun is one run of the CLI: its probes, the hooks script's arms
// and the hooks by event, the answers.
type agentRun struct {
	name    string
	prompt  string
	arms    []string
	byEvent map[string][]string
	answers []capture.Answer
}

// probeRole names the hook command that answers pr: one per event and
// side when it answers by the tool call or the stop, else one per kind
// too (SessionStart's stdout and context are two hooks).
func probeRole(pr agentProbe, side string) string {
	event, kind := profile.SplitID(pr.id)
	if pr.call != "" || pr.counter > 0 {
		return strings.ToLower(event) + "-" + side
	}
	return strings.ToLower(event) + "-" + kind + "-" + side
}

// an answer a role gives: always, to a tool call holding match, or on the
// n-th time its event fires (a stop)
type roleAnswer struct {
	match string
	n     int
	out   string
}

// agentRuns lays out spec's probe project: a hook command per event and
// side, its answers as one case arm of the script.
func agentRuns(spec agentSpec, nonce, script string) []agentRun {
	byRun := map[string]*agentRun{}
	answers := map[string]map[string][]roleAnswer{} // run → role → answers
	var order []string
	var roles []string
	quote := func(s string) string { return "'" + s + "'" } // the words hold no quote
	for _, pr := range spec.probes {
		r := byRun[pr.run]
		if r == nil {
			r = &agentRun{name: pr.run, prompt: "HSP" + nonce + " calibration prompt", byEvent: map[string][]string{}}
			byRun[pr.run], answers[pr.run] = r, map[string][]roleAnswer{}
			order = append(order, pr.run)
		}
		event, kind := profile.SplitID(pr.id)
		for _, side := range []string{"a", "b"} {
			if side == "b" && !pr.two {
				break
			}
			role := probeRole(pr, side)
			cmd := script + " " + role
			if !slices.Contains(r.byEvent[event], cmd) {
				r.byEvent[event] = append(r.byEvent[event], cmd)
			}
			if !slices.Contains(roles, role) {
				roles = append(roles, role)
			}
			words := pr.words(nonce, side)
			var out string
			switch kind {
			case profile.KindStdout:
				out = fmt.Sprintf("printf '%%s\\n' %s", quote(words))
			case profile.KindContext:
				out = fmt.Sprintf("printf '%%s\\n' %s", quote(spec.context(event, words)))
			case profile.KindDeny:
				out = fmt.Sprintf("printf '%%s\\n' %s", quote(spec.deny(event, words)))
			case profile.KindBlock:
				out = fmt.Sprintf("printf '%%s\\n' %s", quote(spec.block(event, words)))
			case profile.KindExit2:
				if words == "" {
					words = "HSP" + nonce + " " + pr.id
				}
				out = fmt.Sprintf("printf '%%s' %s >&2; exit 2", quote(words))
			}
			answers[pr.run][role] = append(answers[pr.run][role], roleAnswer{match: pr.call, n: pr.counter, out: out})
		}
		if pr.call != "" {
			r.answers = append(r.answers, capture.Answer{ToolCalls: []capture.ToolCall{spec.shell("echo " + pr.call)}})
		}
	}
	var out []agentRun
	for _, name := range order {
		r := byRun[name]
		for _, role := range roles {
			if as := answers[name][role]; len(as) > 0 {
				r.arms = append(r.arms, arm(role, as))
			}
		}
		r.answers = append(r.answers, capture.Answer{Content: "Probe answer one."}, capture.Answer{Content: "Probe answer two."},
			capture.Answer{Content: "Probe answer three."}, capture.Answer{Content: "Probe answer four."})
		out = append(out, *r)
	}
	return out
}

// arm is a role's case arm: what it prints for each tool call marker, for
// each time its event fires, or always.
func arm(role string, as []roleAnswer) string {
	var b strings.Builder
	b.WriteString(role + ") ")
	switch {
	case as[0].match != "":
		b.WriteString(`case "$in" in`)
		for _, a := range as {
			fmt.Fprintf(&b, " *%s*) %s;;", a.match, a.out)
		}
		b.WriteString(" esac")
	case as[0].n > 0:
		b.WriteString(`n=$(( $(cat "$dir/.probe-stops") + 1 )); echo $n > "$dir/.probe-stops"; case $n in`)
		for _, a := range as {
			fmt.Fprintf(&b, " %d) %s;;", a.n, a.out)
		}
		b.WriteString(" esac")
	default:
		b.WriteString(as[0].out)
	}
	return b.String() + ";;"
}

// agentScript is the probe project's hook program: it logs that it ran,
// counts the stops, and answers by its role.
const agentScript = `#!/bin/sh
# A hookctl calibrate probe: prints what the role asks for this input.
role=$1
dir=$(cd "$(dirname "$0")/.." && pwd)
in=$(cat)
echo "$role" >> "$dir/.probe-ran"
case "$role" in
@ARMS@
esac
exit 0
`

// calibrateAgent runs spec's probe runs and derives the profile.
func calibrateAgent(ctx context.Context, opts Options, spec agentSpec, version string) (*profile.Profile, int, error) {
	rc, err := recipe.Find(spec.recipe)
	if err != nil {
		return nil, 0, err
	}
	var id [4]byte
	_, _ = rand.Read(id[:])
	nonce := hex.EncodeToString(id[:])
	runs := agentRuns(spec, nonce, `sh "$PROBE_DIR/.probe/probe.sh"`)
	results := map[string]*agentRan{}
	requests := 0
	for i, r := range runs {
		report := func(n int, msg string) {
			opts.Progress(Progress{Run: i + 1, Runs: len(runs), Probe: r.name, Requests: n, Message: msg})
		}
		out, err := runAgent(ctx, opts, spec, rc, r, report)
		if err != nil {
			return nil, requests, err
		}
		requests += len(out.calls)
		results[r.name] = out
	}
	p := &profile.Profile{Agent: opts.Agent, Version: version, MadeBy: "hookctl calibrate " + opts.Agent, Outcomes: map[string]*profile.Outcome{}}
	var errs []error
	for _, pr := range spec.probes {
		o, err := deriveAgentOutcome(spec, pr, nonce, results[pr.run])
		if err != nil {
			errs = append(errs, &ProbeError{Probe: pr.id, Err: err})
			continue
		}
		p.Outcomes[pr.id] = o
	}
	if len(errs) > 0 {
		return nil, requests, errors.Join(errs...)
	}
	return p, requests, nil
}

// agentRan is what one run left: the calls the endpoint answered (main
// and side), what the CLI printed, the roles that ran.
type agentRan struct {
	calls   []capture.Call
	printed string
	ran     []string
	prompt  string
}

// runAgent runs the agent's recipe once in a throw-away project and HOME
// against an in-process capture answering by the conversation's round.
func runAgent(ctx context.Context, opts Options, spec agentSpec, rc recipe.Recipe, r agentRun, report func(int, string)) (*agentRan, error) {
	dir, err := os.MkdirTemp("", "hookstudio-calibrate-")
	if err != nil {
		return nil, &ProbeError{Probe: r.name, Err: err}
	}
	defer os.RemoveAll(dir)
	proj, home, tmp := filepath.Join(dir, "project"), filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
	prog := strings.Replace(agentScript, "@ARMS@", strings.Join(r.arms, "\n"), 1)
	byEvent := map[string][]string{}
	for e, cmds := range r.byEvent {
		for _, c := range cmds {
			byEvent[e] = append(byEvent[e], strings.ReplaceAll(c, "$PROBE_DIR", proj))
		}
	}
	hooksDoc, _ := json.MarshalIndent(spec.hooks(byEvent), "", "  ")
	rec := &recorder{report: report}
	srv, err := capture.Listen(capture.Options{Answerer: byRound(r.answers), OnCall: rec.add})
	if err != nil {
		return nil, &ProbeError{Probe: r.name, Err: err}
	}
	defer srv.Close()
	run := rc.For(srv.URL(), r.prompt)
	files := map[string][]byte{
		filepath.Join(proj, spec.hooksFile):       hooksDoc,
		filepath.Join(proj, ".probe", "probe.sh"): []byte(prog),
		filepath.Join(tmp, ".keep"):               nil,
		filepath.Join(proj, ".probe-stops"):       []byte("0\n"),
	}
	for rel, text := range spec.home {
		files[filepath.Join(home, rel)] = []byte(text)
	}
	for _, f := range run.Files {
		path := filepath.Join(proj, f.Path)
		if rest, ok := strings.CutPrefix(f.Path, "~/"); ok {
			path = filepath.Join(home, rest)
		}
		files[path] = []byte(f.Content)
	}
	for path, data := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
		if err := os.WriteFile(path, data, 0o755); err != nil {
			return nil, &ProbeError{Probe: r.name, Err: err}
		}
	}
	env := agentEnv(home, tmp, proj)
	for _, v := range run.Env {
		env = append(env, v.Name+"="+v.Value)
	}
	env = append(env, spec.env...)
	rctx, cancel := context.WithTimeout(ctx, opts.RunTimeout)
	defer cancel()
	runner := process.NewGroup()
	defer runner.Close()
	var res process.Result
	for k, argv := range append(run.Before, run.Run) {
		argv = slices.Clone(argv)
		argv[0] = opts.CLI
		if k == len(run.Before) {
			argv = slices.Insert(argv, len(argv)-1, spec.args...) // before the prompt
		}
		report(0, "starting "+filepath.Base(opts.CLI))
		if res = runner.Run(rctx, process.Spec{Argv: argv, Dir: proj, Env: env, MaxStdout: outputCap, MaxStderr: outputCap}); res.ExitCode != 0 || res.Err != nil || res.TimedOut {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_ = srv.Close() // the last answer is recorded before the calls are read
	out := &agentRan{calls: rec.all(), printed: string(res.Stdout) + "\n" + string(res.Stderr), prompt: r.prompt}
	ran, _ := os.ReadFile(filepath.Join(proj, ".probe-ran"))
	out.ran = strings.Fields(string(ran))
	if err := runFailed(r.name, opts, res, len(out.calls), true, ""); err != nil {
		return nil, err
	}
	report(len(out.calls), "done")
	return out, nil
}

// agentEnv is the CLI's environment: this one without the user's own
// agent and provider settings, a throw-away HOME and TMPDIR, PWD the
// project (opencode and others read it).
func agentEnv(home, tmp, proj string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "TMPDIR", k == "PWD", strings.HasPrefix(k, "HOOKSTUDIO_"),
			strings.HasPrefix(k, "OPENAI_"), strings.HasPrefix(k, "GEMINI_"), strings.HasPrefix(k, "GOOGLE_"),
			strings.HasPrefix(k, "CODEX_"), strings.HasPrefix(k, "COPILOT_"), strings.HasPrefix(k, "QWEN_"):
			continue
		}
		env = append(env, kv)
	}
	return withShell(append(env, "HOME="+home, "TMPDIR="+tmp, "PWD="+proj, "NO_COLOR=1"))
}

// withShell gives env the user's login shell where it has no SHELL (a CI
// job): a CLI writes the shell it finds there, or a default of its own
// when there is none, and only a value the probe knows is learned as a
// slot; the simulator fills it with the same workspace.LoginShell.
func withShell(env []string) []string {
	if envValue(env, "SHELL") != "" {
		return env
	}
	if sh := workspace.LoginShell(); sh != "" {
		env = append(env, "SHELL="+sh)
	}
	return env
}

// recorder keeps the calls a probe's capture server answered, in order,
// telling report of each (the server answers on its own goroutines).
type recorder struct {
	mu     sync.Mutex
	calls  []capture.Call
	report func(int, string)
}

func (rc *recorder) add(c capture.Call) {
	rc.mu.Lock()
	rc.calls = append(rc.calls, c)
	n := len(rc.calls)
	rc.mu.Unlock()
	rc.report(n, fmt.Sprintf("request %d answered", n))
}

func (rc *recorder) all() []capture.Call {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.calls)
}
