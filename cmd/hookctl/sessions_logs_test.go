package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
)

// logAgent is an agent CLI whose session log the importer reads, run
// offline against hookctl capture (its recipe) with hooks of each kind:
// context at the session's start and with the prompt, a guard that blocks
// `rm -rf`, context after a tool, a stop that asks for more once.
type logAgent struct {
	agent   sessions.Agent
	version string
	bin     string
	// hooksFile (in the project) holds hooks
	hooksFile, hooks string
	// shell is the agent's shell tool
	shell string
	env   []string
	home  map[string]string
	// log is the glob of the log under the throw-away HOME; flag and dir
	// point hookctl sessions list at the CLI's folder (under HOME)
	log, flag, dir string
	// unrecorded says which of the capture's messages the log cannot hold
	// (the rest are in the rebuilt list, in order)
	unrecorded func(m capture.Message) bool
	// steps are the hook steps the import shows, by event
	steps []string
}

// stopHook is the stop hook's shell: the first time it blocks with
// "Run the tests first." (the agent's JSON is %s's), then it lets go.
const stopHook = `f=$PWD/stop.json; if [ -e "$f" ]; then exit 0; fi; cat > "$f"; echo '%s'`

var logAgents = []logAgent{
	{
		agent: sessions.GeminiCLI, version: "0.61.0", bin: "node_modules/.bin/gemini", shell: "run_shell_command",
		hooksFile: ".gemini/settings.json",
		hooks: hooksJSON(map[string][]string{
			"SessionStart": {contextHook("SessionStart", "session start context: the repo is a monorepo")},
			"BeforeAgent":  {contextHook("BeforeAgent", "prompt context: the build folder is shared with CI")},
			"BeforeTool":   {"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"},
			"AfterTool":    {contextHook("AfterTool", "post context one")},
			"AfterAgent":   {fmt.Sprintf(stopHook, `{"decision":"deny","reason":"Run the tests first."}`)},
		}, true),
		env: []string{"GEMINI_CLI_NO_RELAUNCH=true"},
		log: ".gemini/tmp/*/chats/session-*.jsonl", flag: "--gemini-dir", dir: ".gemini/tmp",
		// its system prompt
		unrecorded: func(m capture.Message) bool { return m.Origin == capture.OriginSystem },
		// its hooks known by their words; AfterAgent's reason is a prompt
		steps: []string{"SessionStart", "BeforeAgent", "AfterTool:run_shell_command", "BeforeTool:run_shell_command", "BeforeAgent"},
	},
	{
		agent: sessions.QwenCode, version: "0.24.4", bin: "node_modules/.bin/qwen", shell: "run_shell_command",
		hooksFile: ".qwen/settings.json",
		hooks: hooksJSON(map[string][]string{
			"SessionStart":     {contextHook("SessionStart", "session start context: the repo is a monorepo")},
			"UserPromptSubmit": {contextHook("UserPromptSubmit", "prompt context: the build folder is shared with CI")},
			"PreToolUse":       {"grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"},
			"PostToolUse":      {contextHook("PostToolUse", "post context one")},
			"Stop":             {fmt.Sprintf(stopHook, `{"decision":"block","reason":"Run the tests first."}`)},
		}, true),
		home: map[string]string{".qwen/settings.json": `{"privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`},
		log: ".qwen/projects/*/chats/*.jsonl", flag: "--qwen-dir", dir: ".qwen/projects",
		// its system prompt, its own context, and what it adds only when it
		// sends: SessionStart's context, UserPromptSubmit's again after tool
		// results, a Stop hook's reason as the next prompt
		unrecorded: func(m capture.Message) bool {
			return m.Origin == capture.OriginSystem || m.Origin == capture.OriginContext ||
				m.Origin == capture.OriginHook && (m.Hook == "SessionStart" || m.Hook == "UserPromptSubmit") ||
				m.Origin == capture.OriginUser && m.Content == "Run the tests first."
		},
		steps: []string{"UserPromptSubmit"},
	},
	{
		agent: sessions.CopilotCLI, version: "1.0.102", bin: "node_modules/.bin/copilot", shell: "bash",
		hooksFile: ".github/hooks/sessions-test.json",
		hooks: hooksJSON(map[string][]string{
			"sessionStart":        {`echo '{"additionalContext":"session start context: the repo is a monorepo"}'`},
			"userPromptSubmitted": {`echo '{"additionalContext":"prompt context: the build folder is shared with CI"}'`},
			"preToolUse": {`if grep -q 'rm -rf'; then echo '{"permissionDecision":"deny","permissionDecisionReason":"no rm -rf here"}'; ` +
				`else echo '{"additionalContext":"pre context: mind the secrets"}'; fi`},
			"postToolUse": {`echo '{"additionalContext":"post context one"}'`},
			"agentStop":   {fmt.Sprintf(stopHook, `{"decision":"block","reason":"Run the tests first."}`)},
		}, false),
		log: ".copilot/session-state/*/events.jsonl", flag: "--copilot-dir", dir: ".copilot/session-state",
		// it records its system prompt, prompts, answers, results and hooks'
		// runs, but not a preToolUse hook's context (its hook.end has no output)
		unrecorded: func(m capture.Message) bool {
			return m.Origin == capture.OriginHook && m.Role == "user" && strings.HasPrefix(m.Hook, "preToolUse")
		},
		steps: []string{"sessionStart", "userPromptSubmitted", "preToolUse:bash", "postToolUse:bash", "preToolUse:bash", "agentStop",
			"userPromptSubmitted", "agentStop"},
	},
}

// contextHook is a command printing event's additionalContext.
func contextHook(event, text string) string {
	return fmt.Sprintf(`echo '{"hookSpecificOutput":{"hookEventName":%q,"additionalContext":%q}}'`, event, text)
}

// hooksJSON is a hooks file: Claude Code's shape (Gemini CLI's, Qwen
// Code's: event, matcher groups, command hooks), else Copilot CLI's
// (version 1, a list of bash hooks per event).
func hooksJSON(hooks map[string][]string, groups bool) string {
	events := make([]string, 0, len(hooks))
	for e := range hooks {
		events = append(events, e)
	}
	slices.Sort(events)
	var b strings.Builder
	if !groups {
		b.WriteString(`{"version": 1, `)
	} else {
		b.WriteString("{")
	}
	b.WriteString(`"hooks": {`)
	for i, e := range events {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: [", e)
		for j, cmd := range hooks[e] {
			if j > 0 {
				b.WriteString(", ")
			}
			if groups {
				fmt.Fprintf(&b, `{"hooks": [{"type": "command", "command": %q}]}`, cmd)
			} else {
				fmt.Fprintf(&b, `{"type": "command", "bash": %q, "timeoutSec": 60}`, cmd)
			}
		}
		b.WriteString("]")
	}
	b.WriteString("}}")
	return b.String()
}

// TestRealAgentLogSessions runs Gemini CLI, Qwen Code and Copilot CLI
// offline against hookctl capture with hooks of every kind, finds the log
// each wrote where the CLI keeps it (hookctl sessions list), imports it and
// holds it to what the capture saw: each call's rebuilt messages are the
// capture's, in order, with the same hook attribution, but for those the
// log cannot hold (the agent's unrecorded), and the hooks are steps. With
// -update the logs, their agents' own texts scrubbed, become fixtures of
// app/capture/sessions.
func TestRealAgentLogSessions(t *testing.T) {
	for _, la := range logAgents {
		t.Run(string(la.agent), func(t *testing.T) {
			bin := agentTool(t, la.bin)
			la.run(t, bin)
		})
	}
}

func (la logAgent) run(t *testing.T, bin string) {
	rc, err := recipe.Find(string(la.agent))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proj, home := filepath.Join(dir, "project"), filepath.Join(dir, "home")
	answers := fmt.Sprintf(`answers:
  - content: Let me look at the secret first.
    tool_calls: [{name: %[1]s, arguments: {command: "cat secret.txt", description: Show the key}}]
  - tool_calls: [{name: %[1]s, arguments: {command: "rm -rf build", description: Remove the build folder}}]
  - content: The hook blocked it.
  - content: No tests to run.
  - content: spare
  - content: spare
`, la.shell)
	files := map[string]string{
		filepath.Join(proj, la.hooksFile):  la.hooks,
		filepath.Join(proj, "secret.txt"):  "OPENAI_API_KEY=" + sessionSecret + "\n",
		filepath.Join(dir, "answers.yaml"): answers,
	}
	for rel, text := range la.home {
		files[filepath.Join(home, rel)] = text
	}
	writeFiles(t, "", files)

	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute)
	defer stop()
	out := filepath.Join(dir, "capture.json")
	url, wait := startCaptureCtx(t, ctx, "--answers", filepath.Join(dir, "answers.yaml"), "--json", out, "--no-history")
	recipeRun := rc.For(url, "clean the build folder")
	recipeRun.Env = append(recipeRun.Env, envVars(la.env)...)
	runRecipe(t, recipeRun, bin, proj, home)
	stop()
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	var calls []capture.Call
	for _, c := range capturedCalls(t, out) {
		if c.Side == "" { // the agent's own calls (Gemini CLI's router) are not in its log
			calls = append(calls, c)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(home, la.log))
	if len(logs) != 1 {
		t.Fatalf("logs under %s: %v", la.log, logs)
	}
	// found where the CLI keeps it
	var listed bytes.Buffer
	if code := run(context.Background(), []string{"sessions", "list", "--json", "--agent", string(la.agent), la.flag, filepath.Join(home, la.dir)},
		&listed, io.Discard); code != exitOK || !strings.Contains(listed.String(), logs[0]) {
		t.Errorf("sessions list does not find %s: %s", logs[0], listed.String())
	}

	doc, stderr := importJSON(t, logs[0], filepath.Join(dir, "history.db"))
	if strings.Contains(stderr, sessionSecret) {
		t.Errorf("a secret from a tool's output is in hookctl's notes: %s", stderr)
	}
	s := doc.session(t)
	if s.Agent != la.agent || len(s.Calls) != len(calls) || s.Prompt != "clean the build folder" || s.Project != proj {
		t.Fatalf("imported %s %s (%q in %s) with %d calls, captured %d", s.Agent, s.Version, s.Prompt, s.Project, len(s.Calls), len(calls))
	}
	if la.agent != sessions.GeminiCLI && s.Version != la.version {
		t.Errorf("version %q", s.Version)
	}
	unrecorded := map[[2]int]bool{}
	for k, c := range calls {
		got := doc.callMessages(k)
		if s.Calls[k].Exact {
			t.Errorf("call %d: exact, and no log of these records its requests", k+1)
		}
		i := 0
		for j, m := range c.Messages {
			if i < len(got) && got[i].Role == m.Role && got[i].Content == m.Content && (m.Origin == capture.OriginHook) == got[i].byHook() &&
				sameEvent(doc.hookEvent(got[i]), m.Hook) {
				i++
				continue
			}
			if !la.unrecorded(m) {
				t.Errorf("call %d message %d: the capture's %s %q (%s %s) is not the rebuilt list's next: %s", k+1, j, m.Role, cut(m.Content), m.Origin, m.Hook,
					describe(doc, got, i))
			}
			unrecorded[[2]int{k, j}] = true
		}
		if i < len(got) {
			t.Errorf("call %d: the rebuilt list has more than the capture: %s", k+1, describe(doc, got, i))
		}
	}
	var events []string
	for _, st := range doc.Trace.Steps {
		if st.HookCall != nil {
			events = append(events, st.HookCall.Event)
		}
	}
	if !slices.Equal(events, la.steps) {
		t.Errorf("hook steps %q, want %q", events, la.steps)
	}
	if !strings.Contains(doc.raw, sessionSecret) {
		t.Error("the run does not show the tool's output the model read")
	}
	if os.Getenv("SESSIONS_KEEP") != "" {
		_ = os.CopyFS(filepath.Join(os.Getenv("SESSIONS_KEEP"), string(la.agent)), os.DirFS(dir))
	}
	if *update {
		writeLogFixture(t, la, logs[0], proj, home, calls, unrecorded)
	}
}

// describe is the rebuilt list's message i.
func describe(doc *importedDoc, got []traceMessage, i int) string {
	if i >= len(got) {
		return "(the list's end)"
	}
	return fmt.Sprintf("%s %q (hook %v %s)", got[i].Role, cut(got[i].Content), got[i].byHook(), doc.hookEvent(got[i]))
}

// writeLogFixture keeps a log, the agent's own texts and this machine's
// paths scrubbed, as a fixture of app/capture/sessions (its folders as the
// CLI lays them out, for the project it names), with what the capture saw.
func writeLogFixture(t *testing.T, la logAgent, log, proj, home string, calls []capture.Call, unrecorded map[[2]int]bool) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	rep := strings.NewReplacer(proj, "/home/user/project", home, "/home/user")
	at := scrubbedTexts(t, data)
	base := filepath.Join("..", "..", "app", "capture", "sessions", "testdata", string(la.agent)+"-"+la.version)
	if err := os.WriteFile(base+".jsonl", []byte(rep.Replace(at.JSON().Replace(string(data)))), 0o644); err != nil {
		t.Fatal(err)
	}
	writeCaptured(t, base, at, rep, calls, unrecorded)
}

// TestSessionsLogCommands: hookctl sessions lists the Gemini CLI, Qwen
// Code and Copilot CLI logs where each CLI keeps them, imports one, says a
// call of theirs is rebuilt, and names the file and line of a file no
// agent wrote.
func TestSessionsLogCommands(t *testing.T) {
	hermeticSessions(t)
	root := t.TempDir()
	dirs := map[sessions.Agent]string{sessions.GeminiCLI: filepath.Join(root, "gemini", "tmp"), sessions.QwenCode: filepath.Join(root, "qwen", "projects"),
		sessions.CopilotCLI: filepath.Join(root, "copilot", "session-state")}
	files := map[sessions.Agent]string{
		sessions.GeminiCLI:  filepath.Join(dirs[sessions.GeminiCLI], "project", "chats", "session-1.jsonl"),
		sessions.QwenCode:   filepath.Join(dirs[sessions.QwenCode], "-home-user-project", "chats", "s1.jsonl"),
		sessions.CopilotCLI: filepath.Join(dirs[sessions.CopilotCLI], "s1", "events.jsonl"),
	}
	for _, la := range logAgents {
		data, err := os.ReadFile(filepath.Join("..", "..", "app", "capture", "sessions", "testdata", string(la.agent)+"-"+la.version+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, "", map[string]string{files[la.agent]: string(data)})
	}
	flags := []string{"--gemini-dir", dirs[sessions.GeminiCLI], "--qwen-dir", dirs[sessions.QwenCode], "--copilot-dir", dirs[sessions.CopilotCLI]}
	code, out, _ := runHookctl(t, append([]string{"sessions", "list", "--json"}, flags...)...)
	for _, la := range logAgents {
		if code != exitOK || !strings.Contains(out, `"agent": "`+string(la.agent)+`"`) || !strings.Contains(out, files[la.agent]) {
			t.Errorf("list: exit %d, no %s session at %s:\n%s", code, la.agent, files[la.agent], out)
		}
	}
	if code, out, _ = runHookctl(t, append([]string{"sessions", "list", "--agent", "qwen-code"}, flags...)...); code != exitOK ||
		!strings.Contains(out, "qwen-code@0.24.4") || strings.Contains(out, "copilot-cli") {
		t.Errorf("list --agent qwen-code: exit %d:\n%s", code, out)
	}
	db := filepath.Join(t.TempDir(), "history.db")
	code, out, stderr := runHookctl(t, "sessions", "import", files[sessions.CopilotCLI], "--db", db)
	if code != exitOK || !strings.Contains(out, "copilot-cli@1.0.102") || !strings.Contains(out, "4 model calls (0 exact, 4 rebuilt) · 8 hooks fired") ||
		!strings.Contains(stderr, "requests rebuilt from the session's events") {
		t.Errorf("import: exit %d:\n%s%s", code, out, stderr)
	}
	if code, _, stderr = runHookctl(t, "sessions", "request", files[sessions.GeminiCLI], "1"); code != exitProblems || !strings.Contains(stderr, "rebuilt") {
		t.Errorf("request of a rebuilt call: exit %d: %s", code, stderr)
	}
	noise := filepath.Join(t.TempDir(), "noise.jsonl")
	writeFiles(t, "", map[string]string{noise: "\x00\x01binary\xff\n" + strings.Repeat("garbage\n", 20)})
	if code, _, stderr = runHookctl(t, "sessions", "import", noise, "--db", db); code != exitProblems || !strings.Contains(stderr, noise+":1:") ||
		strings.Contains(stderr, "no model call") {
		t.Errorf("a file no agent wrote: exit %d: %s", code, stderr)
	}
}
