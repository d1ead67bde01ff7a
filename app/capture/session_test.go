package capture

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agentdata/recipe"
)

// waitState waits until the session's state satisfies ok (calls are
// listed once recorded, just after their answer went out).
func waitState(t *testing.T, s *Session, ok func(SessionState) bool) SessionState {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		st := s.State()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the capture's state never came: %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSession: the app's capture tells the base URL and the lines to paste,
// lists each request with the hooks whose text it carries, and is kept as a
// history run when it stops.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var states []SessionState
	store := openHistory(t)
	s := NewSession(func(name string, v any) {
		if name == EventState {
			mu.Lock()
			states = append(states, v.(SessionState))
			mu.Unlock()
		}
	}, store, nil)
	if _, err := s.Start(SessionOptions{}); err == nil {
		t.Error("started without an answers file")
	}
	st, err := s.Start(SessionOptions{AnswersFile: answers})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Running || st.Answers != 3 || len(st.Lines) != 2 || !strings.Contains(st.Lines[0], "ANTHROPIC_BASE_URL="+st.BaseURL) || !strings.Contains(st.Lines[1], st.BaseURL+"/v1") {
		t.Fatalf("state %+v", st)
	}
	// every agent's recipe, for this capture's URL
	if len(st.Recipes) != len(recipe.All()) || st.Recipes[0].Agent != "claude-code" || !strings.Contains(strings.Join(st.Recipes[0].Lines, "\n"), "ANTHROPIC_BASE_URL="+st.BaseURL+" ") {
		t.Errorf("recipes %+v", st.Recipes)
	}
	if _, err := s.Start(SessionOptions{AnswersFile: answers}); err == nil {
		t.Error("a second capture started beside the first")
	}
	post(t, st.BaseURL+"/v1/messages", claudeSecond, nil)
	st = waitState(t, s, func(st SessionState) bool { return len(st.Calls) == 1 })
	if len(st.Calls) != 1 || st.Calls[0].Status != 200 || strings.Join(st.Calls[0].Hooks, ",") != "PreToolUse:Bash,Stop" || !strings.Contains(st.Calls[0].Answer, "Bash") {
		t.Fatalf("calls %+v", st.Calls)
	}
	st, err = s.Stop(context.Background())
	if err != nil || st.Running || st.RunID == 0 || len(captureRuns(t, store)) != 1 {
		t.Fatalf("stop: %v %+v", err, st)
	}
	if _, err := s.Stop(context.Background()); err == nil {
		t.Error("stopped twice")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(states) < 3 || states[len(states)-1].RunID != st.RunID {
		t.Errorf("%d states sent", len(states))
	}
	// the app keeps the copy with the highest Seq, whichever arrives last
	seen := map[int64]bool{}
	for _, e := range states {
		if e.Seq <= 0 || seen[e.Seq] || e.Seq > st.Seq {
			t.Errorf("an event's Seq %d: unset, repeated or after the stop's answer (%d)", e.Seq, st.Seq)
		}
		seen[e.Seq] = true
	}
}

// TestManualSession: the app is the model — a request waits, shown with its
// messages and tools, until the user answers; a bad answer is refused with
// why; stopping answers a waiting request with an error.
func TestManualSession(t *testing.T) {
	pending := make(chan *PendingRequest, 8)
	s := NewSession(func(name string, v any) {
		if st := v.(SessionState); st.Pending != nil {
			pending <- st.Pending
		}
	}, nil, nil)
	st, err := s.Start(SessionOptions{Manual: true})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		body string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		res, err := http.Post(st.BaseURL+"/v1/messages", "application/json", strings.NewReader(claudeSecond))
		if err != nil {
			done <- result{err: err}
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		done <- result{body: string(b)}
	}()
	p := <-pending
	if p.N != 0 || len(p.Messages) == 0 || p.Messages[len(p.Messages)-1].Hook != "Stop" {
		t.Fatalf("pending %+v", p)
	}
	if _, err := s.Reply(0, &Answer{}); err == nil {
		t.Error("an empty answer was accepted")
	}
	if _, err := s.Reply(0, &Answer{ToolCalls: []ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command":`)}}}); err == nil {
		t.Error("arguments that are not JSON were accepted")
	}
	if _, err := s.Reply(5, &Answer{Content: "x"}); !errors.Is(err, ErrNoPending) {
		t.Errorf("a reply to no request: %v", err)
	}
	if _, err := s.Reply(0, &Answer{Content: "Tests pass now."}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || !strings.Contains(r.body, "Tests pass now.") {
		t.Fatalf("the agent got %q (%v)", r.body, r.err)
	}
	// a second request waits; stopping answers it with an error at once
	go func() {
		res, err := http.Post(st.BaseURL+"/v1/messages", "application/json", strings.NewReader(claudeSecond))
		if err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			done <- result{body: string(b)}
			return
		}
		done <- result{err: err}
	}()
	<-pending
	if _, err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.err == nil && !strings.Contains(r.body, "capture stopped") {
		t.Errorf("the waiting request got %q", r.body)
	}
}

// TestForwardSession: the app forwards to a profile — only the line of the
// profile's API to paste, the profile named (never its key), each relayed
// call listed with its answer and kept when the capture stops.
func TestForwardSession(t *testing.T) {
	up, _ := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"msg_up","type":"message","role":"assistant","content":[{"type":"text","text":"relayed"}],"usage":{"input_tokens":5,"output_tokens":1}}`)
	})
	store := openHistory(t)
	s := NewSession(func(string, any) {}, store, nil)
	if _, err := s.Start(SessionOptions{Profile: "claude"}); err == nil || !strings.Contains(err.Error(), "no model profiles") {
		t.Errorf("without profiles: %v", err)
	}
	s.WithUpstreams(func(name string) (*Upstream, error) {
		if name != "claude" {
			return nil, errors.New(`no profile "` + name + `"`)
		}
		return &Upstream{Profile: "claude", API: Anthropic, BaseURL: up.URL, Model: "claude-up", Key: profileKey}, nil
	})
	if _, err := s.Start(SessionOptions{Profile: "other"}); err == nil || !strings.Contains(err.Error(), `forward to profile other: no profile "other"`) {
		t.Errorf("an unknown profile: %v", err)
	}
	st, err := s.Start(SessionOptions{Profile: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Forward == nil || st.Forward.Profile != "claude" || st.Forward.Model != "claude-up" || len(st.Lines) != 1 || !strings.HasPrefix(st.Lines[0], "ANTHROPIC_BASE_URL=") {
		t.Fatalf("state %+v", st)
	}
	// only the recipes of agents speaking the profile's API
	if len(st.Recipes) == 0 || slices.ContainsFunc(st.Recipes, func(r recipe.Recipe) bool { return r.API != recipe.Anthropic }) {
		t.Errorf("recipes %+v", st.Recipes)
	}
	res, body := post(t, st.BaseURL+"/v1/messages", claudeSecond, map[string]string{"x-api-key": clientKey})
	if res.StatusCode != 200 || !strings.Contains(string(body), "relayed") {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	st, err = s.Stop(context.Background())
	if err != nil || len(st.Calls) != 1 || st.Calls[0].Answer != "relayed" || len(captureRuns(t, store)) != 1 {
		t.Fatalf("stop: %v %+v", err, st)
	}
	data, _ := json.Marshal(st)
	if strings.Contains(string(data), profileKey) || strings.Contains(string(data), clientKey) {
		t.Errorf("a key is in the state: %s", data)
	}
}
