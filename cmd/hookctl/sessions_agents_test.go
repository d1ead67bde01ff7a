package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
)

// sessionSettings are hooks of every kind whose records a Claude Code
// transcript keeps: SessionStart plain stdout, UserPromptSubmit JSON
// context and a failing one, a PreToolUse exit-2 block, two PostToolUse
// contexts (one slow), a Stop block.
const sessionSettings = `{"hooks": {
  "SessionStart": [{"hooks": [{"type": "command", "command": "echo 'session start context: the repo is a monorepo'"}]}],
  "UserPromptSubmit": [{"hooks": [
    {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"prompt context: the build folder is shared with CI\"}}'"},
    {"type": "command", "command": "echo 'lint is down' >&2; exit 1"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}],
  "PostToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"post context one\"}}'"},
    {"type": "command", "command": "sleep 0.2; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"post context two\"}}'"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "f=\"$CLAUDE_PROJECT_DIR/stop.json\"; if [ -e \"$f\" ]; then exit 0; fi; cat > \"$f\"; echo '{\"decision\":\"block\",\"reason\":\"Run the tests first.\"}'"}]}]
}}`

// The model's answers: a text and a tool call in one answer (two records in
// the transcript, one message as sent), a blocked tool, a Stop-blocked end.
const sessionAnswers = `answers:
  - content: Let me look at the secret first.
    tool_calls: [{name: Bash, arguments: {command: "cat secret.txt", description: Show the key}}]
  - tool_calls: [{name: Bash, arguments: {command: "rm -rf build", description: Remove the build folder}}]
  - content: The hook blocked it.
  - content: No tests to run.
`

// sessionSecret is in a tool's output: the run shows it (the model saw
// it), no log or note of hookctl does.
const sessionSecret = "sk-proj-SESSIONSECRET0123456789abcdefghijkl"

// sessionWords are the sessions tests' own words (prompt, answers, tools'
// commands, hooks' words): a fixture keeps them, and replaces the agent
// CLI's own texts (sessions.AgentTexts).
var sessionWords = []string{"clean the build folder", "Let me look at the secret first.", "The hook blocked it.", "No tests to run.",
	"cat secret.txt", "rm -rf build", "Show the key", "Remove the build folder", sessionSecret,
	"session start context: the repo is a monorepo", "prompt context: the build folder is shared with CI", "lint is down", "no rm -rf here",
	"pre context: mind the secrets", "post context one", "post context two", "Run the tests first."}

// scrubbedTexts are the agent's own texts in a fixture's log, to replace
// there and in what the capture saw alike.
func scrubbedTexts(t *testing.T, log []byte) *sessions.AgentTexts {
	t.Helper()
	at := sessions.NewAgentTexts(sessionWords...)
	if err := at.Collect(log); err != nil {
		t.Fatal(err)
	}
	return at
}

// TestRealAgentClaudeCodeSessions runs both pinned Claude Code versions
// offline against hookctl capture, imports the transcript each wrote, and
// holds it to what capture saw: on 2.1.332 (which records its requests)
// every call's request is the captured body and the message list the
// capture's, on 2.1.197 (which does not) the list is rebuilt with every
// hook's words in it; every hook that fired is a step. With -update the
// transcripts, scrubbed of this machine, become the package's fixtures.
func TestRealAgentClaudeCodeSessions(t *testing.T) {
	for _, tc := range []struct{ version, cli string }{
		{"2.1.197", "node_modules/.bin/claude"},
		{"2.1.332", "node_modules/claude-code-2.1.332/bin/claude.exe"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			claude := agentTool(t, tc.cli)
			dir, proj, home, answers := claudeProject(t, sessionSettings, sessionAnswers)
			if err := os.WriteFile(filepath.Join(proj, "secret.txt"), []byte("OPENAI_API_KEY="+sessionSecret+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "capture.json")
			url, wait := startCapture(t, "--answers", answers, "--max-requests", "4", "--json", out, "--no-history")
			runClaude(t, claude, proj, home, url, "sk-ant-test-never-stored", "-p", "clean the build folder", "--allowedTools", "Bash")
			if code, stderr := wait(); code != exitOK {
				t.Fatalf("capture exit %d: %s", code, stderr)
			}
			calls := capturedCalls(t, out)
			files, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
			if len(files) != 1 {
				t.Fatalf("transcripts: %v", files)
			}
			transcript := files[0]
			exact := tc.version == "2.1.332"

			doc, stderr := importJSON(t, transcript, filepath.Join(dir, "history.db"))
			if strings.Contains(stderr, sessionSecret) {
				t.Errorf("a secret from a tool's output is in hookctl's notes: %s", stderr)
			}
			s := doc.session(t)
			if s.Version != tc.version || s.Agent != sessions.ClaudeCode || len(s.Calls) != len(calls) {
				t.Fatalf("imported %s %s with %d calls, captured %d", s.Agent, s.Version, len(s.Calls), len(calls))
			}
			for k, c := range calls {
				got := doc.callMessages(k)
				if s.Calls[k].Exact != exact {
					t.Errorf("call %d: exact %v on %s", k+1, s.Calls[k].Exact, tc.version)
				}
				if exact {
					// the message list the capture parsed, message for message,
					// each hook's words its event's
					if len(got) != len(c.Messages) {
						t.Errorf("call %d: %d messages, the capture %d", k+1, len(got), len(c.Messages))
						continue
					}
					for i, m := range c.Messages {
						if got[i].Role != m.Role || got[i].Content != m.Content || (m.Origin == capture.OriginHook) != got[i].byHook() ||
							!sameEvent(doc.hookEvent(got[i]), m.Hook) {
							t.Errorf("call %d message %d: %s %q (hook %v %s), the capture %s %q (%s %s)", k+1, i, got[i].Role, cut(got[i].Content),
								got[i].byHook(), doc.hookEvent(got[i]), m.Role, cut(m.Content), m.Origin, m.Hook)
						}
					}
					body := requestBody(t, transcript, k+1)
					if want := withoutUnrecorded(t, c.Body); !jsonEqual(t, body, want) {
						t.Errorf("call %d: the request rebuilt from the transcript is not the body the capture got", k+1)
					}
					continue
				}
				// rebuilt: every hook's words the model read are in the list, as a hook's
				for _, m := range c.Messages {
					if m.Origin == capture.OriginHook && !slices.ContainsFunc(got, func(g traceMessage) bool {
						return g.Content == m.Content && g.byHook() && sameEvent(doc.hookEvent(g), m.Hook)
					}) {
						t.Errorf("call %d: the hook's words %q (%s) are not in the rebuilt list as its", k+1, cut(m.Content), m.Hook)
					}
				}
			}
			// every hook that fired is a step, with its command where the transcript has it
			want := []string{"SessionStart", "UserPromptSubmit", "UserPromptSubmit", "PreToolUse:Bash", "PostToolUse:Bash", "PostToolUse:Bash", "Stop"}
			if tc.version == "2.1.197" {
				want = []string{"UserPromptSubmit", "UserPromptSubmit", "PreToolUse:Bash", "PostToolUse:Bash", "PostToolUse:Bash", "Stop"}
			}
			var events []string
			for _, st := range doc.Trace.Steps {
				if st.HookCall != nil {
					events = append(events, st.HookCall.Event)
				}
			}
			for _, w := range want {
				// the agent's label may name what the matcher saw ("SessionStart:startup")
				if i := slices.IndexFunc(events, func(e string) bool { return e == w || strings.HasPrefix(e, w+":") }); i >= 0 {
					events = slices.Delete(events, i, i+1)
				} else {
					t.Errorf("no step for a %s hook (steps: %v)", w, events)
				}
			}
			if !strings.Contains(doc.raw, sessionSecret) {
				t.Error("the run does not show the tool's output the model read")
			}
			if os.Getenv("SESSIONS_KEEP") != "" {
				_ = os.CopyFS(filepath.Join(os.Getenv("SESSIONS_KEEP"), tc.version), os.DirFS(dir))
			}
			if *update {
				writeSessionFixture(t, tc.version, transcript, proj, home, calls)
			}
		})
	}
}

func capturedCalls(t *testing.T, file string) []capture.Call {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc captureDoc
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Requests) != 1 {
		t.Fatalf("capture: %v", err)
	}
	return doc.Requests[0].LLMCalls
}

type traceMessage struct {
	Role     string `json:"role"`
	Content  string `json:"content"`
	Origin   string `json:"origin"`
	Hook     string `json:"hook"`
	System   string `json:"system"`
	EditedBy string `json:"edited_by"`
	HookCall *int   `json:"hook_call"`
}

// byHook says whether a hook wrote the message (its words, or a tool
// result in the tool's place).
func (m traceMessage) byHook() bool { return m.Origin == "hook" || m.EditedBy != "" }

type importedDoc struct {
	Session *struct {
		Data json.RawMessage `json:"data"`
	} `json:"session"`
	Trace struct {
		Requests []struct {
			LLMCalls []struct {
				Messages []traceMessage `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
		Steps []struct {
			Kind          string `json:"kind"`
			Call          *int   `json:"call"`
			HookCallIndex *int   `json:"hook_call_index"`
			HookCall      *struct {
				Event   string `json:"event"`
				Hook    string `json:"hook"`
				Outcome string `json:"outcome"`
			} `json:"hook_call"`
		} `json:"steps"`
	} `json:"trace"`
	raw string
}

func (d *importedDoc) session(t *testing.T) sessions.Session {
	t.Helper()
	var s sessions.Session
	if d.Session == nil || json.Unmarshal(d.Session.Data, &s) != nil {
		t.Fatal("the run has no session")
	}
	return s
}

// callMessages are call k's messages (the session's one conversation).
func (d *importedDoc) callMessages(k int) []traceMessage {
	if len(d.Trace.Requests) == 0 || k >= len(d.Trace.Requests[0].LLMCalls) {
		return nil
	}
	return d.Trace.Requests[0].LLMCalls[k].Messages
}

// hookEvent is the event of the hook that wrote m, as its step names it
// ("" for a message no hook wrote).
func (d *importedDoc) hookEvent(m traceMessage) string {
	if m.HookCall == nil {
		return ""
	}
	for _, st := range d.Trace.Steps {
		if st.HookCall != nil && st.HookCallIndex != nil && *st.HookCallIndex == *m.HookCall {
			return st.HookCall.Event
		}
	}
	return ""
}

// sameEvent says whether a hook step's event is the one capture named a
// hook's words by (either may leave out what the matcher saw:
// "SessionStart:startup" and "SessionStart").
func sameEvent(step, captured string) bool {
	se, sm, _ := strings.Cut(step, ":")
	ce, cm, _ := strings.Cut(captured, ":")
	return se == ce && (sm == cm || sm == "" || cm == "")
}

// importJSON runs hookctl sessions import FILE --json.
func importJSON(t *testing.T, file, db string) (*importedDoc, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"sessions", "import", file, "--json", "--db", db}, &out, &errOut); code != exitOK {
		t.Fatalf("sessions import: exit %d: %s", code, errOut.String())
	}
	var doc importedDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("sessions import --json: %v", err)
	}
	doc.raw = out.String()
	return &doc, errOut.String()
}

// requestBody runs hookctl sessions request FILE N.
func requestBody(t *testing.T, file string, n int) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"sessions", "request", file, strconv.Itoa(n)}, &out, &errOut); code != exitOK {
		t.Fatalf("sessions request %d: exit %d: %s", n, code, errOut.String())
	}
	return out.Bytes()
}

// withoutUnrecorded is a captured body without what no transcript holds:
// the metadata (a user id) and the stream flag.
func withoutUnrecorded(t *testing.T, body []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "metadata")
	delete(m, "stream")
	out, _ := json.Marshal(m)
	return out
}

// replaceStrings is data with rep made in each of its strings (decoded:
// the capture keeps a body re-encoded, < as \u003c).
func replaceStrings(t *testing.T, data []byte, rep sessions.Replacer) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return rep.Replace(x)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	out, _ := json.Marshal(walk(v))
	return out
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	return canonicalJSON(t, a) == canonicalJSON(t, b)
}

// canonicalJSON is JSON re-encoded with sorted keys.
func canonicalJSON(t *testing.T, data []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func cut(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// writeSessionFixture keeps a transcript, scrubbed of this machine, as a
// fixture of app/capture/sessions, with what the capture saw: each
// call's body (as a hash) and message list.
func writeSessionFixture(t *testing.T, version, transcript, proj, home string, calls []capture.Call) {
	t.Helper()
	pairs := []string{proj, "/home/user/project", home, "/home/user", filepath.Base(filepath.Dir(transcript)), "-home-user-project"}
	if kernel, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil && len(bytes.TrimSpace(kernel)) > 0 {
		pairs = append(pairs, "Linux "+string(bytes.TrimSpace(kernel)), "Linux 6.1.0")
	}
	rep := strings.NewReplacer(pairs...)
	data, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	at := scrubbedTexts(t, data)
	var scrubbed bytes.Buffer
	if err := sessions.Scrub(bytes.NewReader(data), &scrubbed, sessions.Chain(at.JSON(), rep)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "app", "capture", "sessions", "testdata")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "claude-code-"+version)
	if err := os.WriteFile(base+".jsonl", scrubbed.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	writeCaptured(t, base, at, rep, calls, nil)
}

// writeCaptured keeps what the capture saw of each call beside a fixture,
// the agent's texts replaced as in the fixture's log (at): the body
// without metadata and stream, re-encoded with sorted keys (its hash), and
// each message, marked when the log does not hold it (unrecorded: by call
// and message).
func writeCaptured(t *testing.T, base string, at *sessions.AgentTexts, rep *strings.Replacer, calls []capture.Call, unrecorded map[[2]int]bool) {
	t.Helper()
	type wantMessage struct {
		Role       string `json:"role"`
		Origin     string `json:"origin"`
		Hook       string `json:"hook,omitempty"`
		Content    string `json:"content_sha256"`
		Unrecorded bool   `json:"unrecorded,omitempty"`
	}
	type wantCall struct {
		Body     string        `json:"body_sha256"`
		Messages []wantMessage `json:"messages"`
	}
	var want struct {
		Note  string     `json:"note"`
		Calls []wantCall `json:"calls"`
	}
	want.Note = "what hookctl capture saw of each call (written by cmd/hookctl's TestRealAgent*Sessions -update): the body without metadata and stream, re-encoded with sorted keys, and each message (a hook's with its event)"
	for k, c := range calls {
		body := canonicalJSON(t, withoutUnrecorded(t, replaceStrings(t, c.Body, sessions.Chain(at.Text(), rep))))
		sum := sha256.Sum256([]byte(body))
		wc := wantCall{Body: hex.EncodeToString(sum[:])}
		for i, m := range c.Messages {
			ms := sha256.Sum256([]byte(rep.Replace(at.Text().Replace(m.Content))))
			wc.Messages = append(wc.Messages, wantMessage{Role: m.Role, Origin: m.Origin, Hook: m.Hook, Content: hex.EncodeToString(ms[:]),
				Unrecorded: unrecorded[[2]int{k, i}]})
		}
		want.Calls = append(want.Calls, wc)
	}
	data, _ := json.MarshalIndent(want, "", "  ")
	if err := os.WriteFile(base+".capture.json", append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// codexSessionHooks are Codex's hooks of each kind its rollout keeps a
// trace of: SessionStart and UserPromptSubmit context, a PreToolUse block,
// a PostToolUse context, a Stop block.
const codexSessionHooks = `{"hooks": {
 "SessionStart": [{"hooks": [{"type": "command", "command": "echo 'session start context: the repo is a monorepo'"}]}],
 "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"prompt context: the build folder is shared with CI\"}}'"}]}],
 "PreToolUse": [{"matcher": "shell|exec_command|Bash", "hooks": [{"type": "command", "command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}],
 "PostToolUse": [{"matcher": "shell|exec_command|Bash", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"post context one\"}}'"}]}],
 "Stop": [{"hooks": [{"type": "command", "command": "f=$PWD/stop.json; if [ -e \"$f\" ]; then exit 0; fi; cat > \"$f\"; echo '{\"decision\":\"block\",\"reason\":\"Run the tests first.\"}'"}]}]
}}`

// TestRealAgentCodexSessions runs the pinned Codex CLI offline against
// hookctl capture (the Responses API) and imports the rollout it wrote:
// each call's input, rebuilt from the rollout's items, is the list the
// capture got, message for message, the hooks' words attributed to hooks
// (their event told by where Codex puts them). With -update the rollout,
// scrubbed of this machine, becomes a fixture of app/capture/sessions.
func TestRealAgentCodexSessions(t *testing.T) {
	codex := agentTool(t, "node_modules/.bin/codex")
	dir := t.TempDir()
	proj, home, codexHome := filepath.Join(dir, "project"), filepath.Join(dir, "home"), filepath.Join(dir, "codex-home")
	for _, d := range []string{filepath.Join(proj, ".codex"), home, codexHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	answers := filepath.Join(dir, "answers.yaml")
	for path, text := range map[string]string{
		filepath.Join(proj, ".codex", "hooks.json"): codexSessionHooks,
		filepath.Join(proj, "secret.txt"):           "OPENAI_API_KEY=" + sessionSecret + "\n",
		answers: `answers:
  - content: Let me look at the secret first.
    tool_calls: [{name: exec_command, arguments: {cmd: "cat secret.txt"}}]
  - tool_calls: [{name: exec_command, arguments: {cmd: "rm -rf build"}}]
  - content: The hook blocked it.
  - content: No tests to run.
`,
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "capture.json")
	url, wait := startCapture(t, "--answers", answers, "--max-requests", "4", "--json", out, "--no-history")
	config := "model = \"capture\"\nmodel_provider = \"capture\"\n[model_providers.capture]\nname = \"capture\"\nbase_url = \"" + url + "/v1\"\n" +
		"wire_api = \"responses\"\nenv_key = \"CAPTURE_API_KEY\"\nrequest_max_retries = 0\nstream_max_retries = 0\n[analytics]\nenabled = false\n[feedback]\nenabled = false\n"
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "exec", "--skip-git-repo-check", "--trust", "--dangerously-bypass-hook-trust",
		"--dangerously-bypass-approvals-and-sandbox", "clean the build folder")
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+codexHome, "CAPTURE_API_KEY=capture")
	if printed, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("codex exec: %v\n%s", err, printed)
	}
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	calls := capturedCalls(t, out)
	var rollouts []string
	_ = filepath.WalkDir(filepath.Join(codexHome, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			rollouts = append(rollouts, p)
		}
		return nil
	})
	if len(rollouts) != 1 {
		t.Fatalf("rollouts: %v", rollouts)
	}
	// found where Codex keeps it
	var listed bytes.Buffer
	if code := run(context.Background(), []string{"sessions", "list", "--codex-dir", filepath.Join(codexHome, "sessions"), "--claude-dir", "", "--json"}, &listed, io.Discard); code != exitOK ||
		!strings.Contains(listed.String(), `"agent": "codex"`) {
		t.Errorf("sessions list: %s", listed.String())
	}
	doc, stderr := importJSON(t, rollouts[0], filepath.Join(dir, "history.db"))
	if strings.Contains(stderr, sessionSecret) {
		t.Errorf("a secret from a tool's output is in hookctl's notes: %s", stderr)
	}
	s := doc.session(t)
	if s.Agent != sessions.Codex || s.Version != "0.171.0" || len(s.Calls) != len(calls) {
		t.Fatalf("imported %s %s with %d calls, captured %d", s.Agent, s.Version, len(s.Calls), len(calls))
	}
	for k, c := range calls {
		got := doc.callMessages(k)
		if len(got) != len(c.Messages) {
			t.Errorf("call %d: %d messages, the capture %d", k+1, len(got), len(c.Messages))
			continue
		}
		for i, m := range c.Messages {
			// the rollout keeps Codex's base instructions, which it trims
			// before sending (a section on tools this run does not have)
			same := got[i].Content == m.Content || (i == 0 && m.Origin == capture.OriginSystem && got[i].Origin == "system_prompt")
			if got[i].Role != m.Role || !same || (m.Origin == capture.OriginHook) != got[i].byHook() || !sameEvent(doc.hookEvent(got[i]), m.Hook) {
				t.Errorf("call %d message %d: %s %q (hook %v %s), the capture %s %q (%s %s)", k+1, i, got[i].Role, cut(got[i].Content), got[i].byHook(),
					doc.hookEvent(got[i]), m.Role, cut(m.Content), m.Origin, m.Hook)
			}
		}
	}
	if *update {
		rep := strings.NewReplacer(proj, "/home/user/project", codexHome, "/home/user/.codex", home, "/home/user")
		data, err := os.ReadFile(rollouts[0])
		if err != nil {
			t.Fatal(err)
		}
		at := scrubbedTexts(t, data)
		base := filepath.Join("..", "..", "app", "capture", "sessions", "testdata", "codex-0.171.0")
		if err := os.WriteFile(base+".jsonl", []byte(rep.Replace(at.JSON().Replace(string(data)))), 0o644); err != nil {
			t.Fatal(err)
		}
		writeCaptured(t, base, at, rep, calls, nil)
	}
}
