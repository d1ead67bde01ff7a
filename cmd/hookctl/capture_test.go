package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hookstudio/app/store/history"
)

// TestCaptureCommand: hookctl capture prints where it listens first, answers
// an agent from the answers file, stops after --max-requests and writes the
// capture as JSON in simulate --json's shape, exit 0.
func TestCaptureCommand(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - tool_calls: [{name: Bash, arguments: {command: ls}}]\n  - content: done\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "capture.json")
	db := filepath.Join(dir, "history.db")
	url, wait := startCapture(t, "--answers", answers, "--max-requests", "2", "--json", out, "--db", db)
	for i, body := range []string{
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"list"}],"tools":[{"name":"Bash"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01_1","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01_1","content":"a b"}]}]}`,
	} {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/messages", strings.NewReader(body))
		req.Header.Set("x-api-key", "sk-never-stored")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("request %d: %d", i, res.StatusCode)
		}
	}
	c, stderr := wait()
	if c != exitOK {
		t.Fatalf("exit %d: %s", c, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "sk-never-stored") {
		t.Error("the client's key is in the capture")
	}
	var doc struct {
		Capture  bool `json:"capture"`
		Requests []struct {
			LLMCalls []struct {
				Body     json.RawMessage `json:"body"`
				Messages []struct{ Role, Origin string }
				Answer   struct{ Content string } `json:"answer"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || !doc.Capture || len(doc.Requests) != 1 || len(doc.Requests[0].LLMCalls) != 2 {
		t.Fatalf("%v: %s", err, data)
	}
	second := doc.Requests[0].LLMCalls[1]
	if len(second.Messages) != 3 || second.Messages[2].Role != "tool" || second.Answer.Content != "done" || !strings.Contains(string(second.Body), "tool_result") {
		t.Errorf("second call %+v", second)
	}
	if !strings.Contains(stderr, "#2 anthropic /v1/messages → 200") {
		t.Errorf("progress lines: %s", stderr)
	}
	// kept in the history as a run of source capture, with its two calls
	listed, _, code := runCLI(t, "history", "list", "--source", "capture", "--json", "--db", db)
	var list struct {
		Runs []struct {
			Scenario string `json:"scenario"`
			LLMCalls int    `json:"llm_calls"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(listed), &list); code != exitOK || err != nil || len(list.Runs) != 1 || list.Runs[0].LLMCalls != 2 || list.Runs[0].Scenario != "capture: list" {
		t.Errorf("history: %d %v %s", code, err, listed)
	}
}

// startCapture runs hookctl capture ARGS, waits for its first line and
// returns the base URL and a wait for its exit code and stderr.
func startCapture(t *testing.T, args ...string) (string, func() (int, string)) {
	t.Helper()
	return startCaptureCtx(t, context.Background(), args...)
}

// startCaptureCtx is startCapture ending when ctx is done (SIGINT's way).
func startCaptureCtx(t *testing.T, ctx context.Context, args ...string) (string, func() (int, string)) {
	t.Helper()
	pr, pw := io.Pipe()
	var errOut strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"capture"}, args...), pw, &errOut)
		pw.Close()
	}()
	first, err := bufio.NewReader(pr).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if err != nil {
		t.Fatalf("no first line: %v (%s)", err, errOut.String())
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(first), "listening on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q", first)
	}
	return url, func() (int, string) { c := <-code; return c, errOut.String() }
}

func TestCaptureUsage(t *testing.T) {
	var out, errOut strings.Builder
	if c := run(context.Background(), []string{"capture"}, &out, &errOut); c != exitUsage {
		t.Errorf("without --answers: exit %d", c)
	}
	if c := run(context.Background(), []string{"capture", "--answers", filepath.Join(t.TempDir(), "none.yaml")}, &out, &errOut); c != exitProblems {
		t.Errorf("a missing answers file: exit %d", c)
	}
	answers := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - content: hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if c := run(context.Background(), []string{"capture", "--answers", answers, "--listen", "0.0.0.0:0"}, &out, &errOut); c != exitProblems || !strings.Contains(errOut.String(), "token") {
		t.Errorf("beyond loopback without a token: exit %d: %s", c, errOut.String())
	}
}

// TestCaptureForward: hookctl capture --profile relays each request to the
// profile's endpoint with the profile's key (here from the provider's
// variable: no keyring on a test machine) and writes the relayed answers,
// with no key anywhere in its output.
func TestCaptureForward(t *testing.T) {
	const profileKey = "sk-ant-profile-only-9f2c"
	var sawKey, sawModel string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct{ Model string }
		_ = json.Unmarshal(body, &req)
		sawKey, sawModel = r.Header.Get("x-api-key"), req.Model
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"msg_up","type":"message","role":"assistant","content":[{"type":"text","text":"from upstream"}],"usage":{"input_tokens":9,"output_tokens":2}}`)
	}))
	defer up.Close()
	dir := t.TempDir()
	profilesFile := filepath.Join(dir, "profiles.json")
	if err := os.WriteFile(profilesFile, []byte(`{"version":1,"profiles":[{"name":"hookctl-capture-test","provider":"anthropic","base_url":"`+up.URL+`","model":"claude-up"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANTHROPIC_API_KEY", profileKey)
	out := filepath.Join(dir, "capture.json")
	url, wait := startCapture(t, "--profile", "hookctl-capture-test", "--profiles", profilesFile, "--max-requests", "1", "--json", out, "--no-history")
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/messages", strings.NewReader(`{"model":"claude-asked","messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("x-api-key", "sk-client-side")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "from upstream") {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	c, stderr := wait()
	if c != exitOK || sawKey != profileKey || sawModel != "claude-up" {
		t.Fatalf("exit %d, upstream saw key %q model %q: %s", c, sawKey, sawModel, stderr)
	}
	if !strings.Contains(stderr, "forwarding to profile hookctl-capture-test") {
		t.Errorf("stderr: %s", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{profileKey, "sk-client-side"} {
		if strings.Contains(string(data)+stderr, key) {
			t.Errorf("key %s in the output", key)
		}
	}
	if !strings.Contains(string(data), `"content": "from upstream"`) || !strings.Contains(string(data), `"profile": "hookctl-capture-test"`) {
		t.Errorf("capture: %s", data)
	}
	var o, e strings.Builder
	if c := run(context.Background(), []string{"capture", "--profile", "x", "--answers", "a.yaml"}, &o, &e); c != exitUsage {
		t.Errorf("--profile with --answers: exit %d", c)
	}
}

// captureProcess starts the hookctl binary's capture with args, waits for
// its first line and returns the base URL; the process is killed when the
// test ends (a test may kill it before).
func captureProcess(t *testing.T, stderr io.Writer, args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(hookctl, append([]string{"capture"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	first, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(first), "listening on ")
	if err != nil || !ok {
		t.Fatalf("first line %q: %v", first, err)
	}
	return url, cmd
}

// TestCaptureKeptAsCallsArrive: the history row is written as calls
// arrive — another handle on the database finds both calls while the
// capture still runs, and a hookctl killed outright leaves them there.
func TestCaptureKeptAsCallsArrive(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - content: one\n  - content: two\n  - content: three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "history.db")
	var stderr strings.Builder
	url, cmd := captureProcess(t, &stderr, "--answers", answers, "--db", db, "--json", filepath.Join(dir, "never.json"))
	for _, user := range []string{"first question", "second question"} {
		res, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"`+user+`"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}

	ctx := context.Background()
	other, err := history.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	calls := func() (history.RunID, int) {
		runs, err := other.ListRuns(ctx, history.Filter{Source: history.SourceCapture})
		if err != nil || len(runs) != 1 {
			return 0, 0
		}
		return runs[0].ID, runs[0].LLMCalls
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, n := calls(); n != 2; _, n = calls() {
		if time.Now().After(deadline) {
			t.Fatalf("the history never held both calls while the capture ran (%d): %s", n, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	id, n := calls()
	run, err := other.LoadRun(ctx, id)
	if err != nil || n != 2 || len(run.Trace.Calls) != 2 || run.Trace.Calls[1].Content != "two" || run.Scenario != "capture: first question" {
		t.Fatalf("after kill -9: %d calls, %v", n, err)
	}
}

// TestCaptureKilledKeepsEveryAnsweredCall: 40 streamed requests answered
// one after another, then kill -9 the moment the 40th answer is read —
// the history holds all 40 calls (the journal had each before its answer
// ended; the next hookctl that opens the history rebuilds the run).
func TestCaptureKilledKeepsEveryAnsweredCall(t *testing.T) {
	const n = 40
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	script := "answers:\n"
	for i := range n + 5 {
		script += fmt.Sprintf("  - content: answer %d\n", i+1)
	}
	if err := os.WriteFile(answers, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "history.db")
	url, cmd := captureProcess(t, io.Discard, "--answers", answers, "--db", db, "--json", filepath.Join(dir, "never.json"))
	for i := range n {
		body := fmt.Sprintf(`{"model":"m","stream":true,"system":"%s","messages":[{"role":"user","content":"question %d"}]}`, strings.Repeat("You are an agent. ", 500), i+1)
		res, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(got), fmt.Sprintf("answer %d", i+1)) || !strings.Contains(string(got), "message_stop") {
			t.Fatalf("request %d: %d %s", i+1, res.StatusCode, got)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	listed, stderr, code := runCLI(t, "history", "list", "--source", "capture", "--json", "--db", db)
	var list struct {
		Runs []struct {
			ID       int64 `json:"id"`
			LLMCalls int   `json:"llm_calls"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(listed), &list); code != exitOK || err != nil || len(list.Runs) != 1 || list.Runs[0].LLMCalls != n {
		t.Fatalf("after kill -9 the history holds %s (%v, %s)", listed, err, stderr)
	}
	store, err := history.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	run, err := store.LoadRun(context.Background(), history.RunID(list.Runs[0].ID))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range run.Trace.Calls {
		if want := fmt.Sprintf("answer %d", i+1); c.Content != want {
			t.Errorf("call %d answered %q, want %q", i+1, c.Content, want)
		}
	}
}

// TestCaptureSaveScenario: --save-scenario writes the capture as a
// scenario, and hookctl simulate of it gives the captured answers and
// tool calls in the same order.
func TestCaptureSaveScenario(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - {content: Looking., tool_calls: [{name: Bash, arguments: {command: ls}}]}\n  - error: {status: 529, message: overloaded}\n  - content: a and b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(dir, "replay.yaml")
	url, wait := startCapture(t, "--answers", answers, "--max-requests", "3", "--no-history", "--json", filepath.Join(dir, "c.json"), "--save-scenario", saved)
	first := `{"model":"m","system":"sys","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"list"}]}`
	second := `{"model":"m","system":"sys","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"toolu_01_1","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01_1","content":"a b"}]}]}`
	for _, body := range []string{first, second, second} { // the second is retried after the 529
		res, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	if c, stderr := wait(); c != exitOK || !strings.Contains(stderr, "call #2 is not replayed") || !strings.Contains(stderr, "saved as scenario") {
		t.Fatalf("exit %d: %s", c, stderr)
	}
	out, stderr, code := runCLI(t, "simulate", saved, "--json", "--no-history")
	if code != exitOK {
		t.Fatalf("simulate: %d %s", code, stderr)
	}
	var run struct {
		Requests []struct {
			LLMCalls []struct {
				Phase     string `json:"phase"`
				Content   string `json:"content"`
				ToolCalls []struct {
					Name      string         `json:"name"`
					Arguments map[string]any `json:"arguments"`
					Result    string         `json:"result"`
				} `json:"tool_calls"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range run.Requests {
		for _, c := range r.LLMCalls {
			if c.Phase != "agent" {
				continue
			}
			s := c.Content
			for _, tc := range c.ToolCalls {
				s += " → " + tc.Name + " " + tc.Arguments["command"].(string) + " = " + tc.Result
			}
			got = append(got, s)
		}
	}
	if want := []string{"Looking. → Bash ls = a b", "a and b"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("simulated answers %q, captured %q", got, want)
	}
}

// TestCaptureRefusedRequestsTakeNoAnswer: issue 25 item 9 as it was seen —
// hookctl capture with two answers; a malformed body (400), a body over
// 32 MiB (413) and a wrong-shaped one (400), then a good request: it gets
// the first answer, and the wrong shape is said in the API's words.
func TestCaptureRefusedRequestsTakeNoAnswer(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - content: first answer\n  - content: second answer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, wait := startCapture(t, "--answers", answers, "--max-requests", "4", "--no-history", "--json", filepath.Join(dir, "c.json"))
	send := func(body string) (int, string) {
		res, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, string(data)
	}
	if code, body := send(`{"model":"m","messages":[`); code != 400 {
		t.Errorf("malformed: %d %s", code, body)
	}
	if code, body := send(`{"model":"m","messages":[],"x":"` + strings.Repeat("a", 33<<20) + `"}`); code != 413 {
		t.Errorf("over 32 MiB: %d %s", code, body)
	}
	if code, body := send(`{"model":"m","messages":"hi"}`); code != 400 || !strings.Contains(body, "messages must be a list of {role, content}, not a string") || strings.Contains(body, "Go struct") {
		t.Errorf("wrong shape: %d %s", code, body)
	}
	if code, body := send(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`); code != 200 || !strings.Contains(body, "first answer") {
		t.Errorf("the good request: %d %s", code, body)
	}
	if c, stderr := wait(); c != exitOK {
		t.Fatalf("exit %d: %s", c, stderr)
	}
}
