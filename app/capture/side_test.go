package capture

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestSideRequests: the agent's own calls — Gemini CLI's router asking for
// JSON of a schema, an opencode-like title call, a Responses call asking
// for a JSON object — get a minimal valid answer and are recorded as side
// requests; the turn's requests get the scripted answers in order, one per
// turn. An answers file's side answers go to side requests first.
func TestSideRequests(t *testing.T) {
	router := `{"contents":[{"role":"user","parts":[{"text":"run it"}]}],"generationConfig":{"responseMimeType":"application/json",
	  "responseJsonSchema":{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"},
	  "model_choice":{"type":"STRING","enum":["flash","pro"]},"tags":{"type":"ARRAY","items":{"type":"STRING"},"minItems":1}},"required":["complexity_score"]}}}`
	turn := `{"contents":[{"role":"user","parts":[{"text":"run it"}]}],"tools":[{"functionDeclarations":[{"name":"exec_command"}]}]}`
	title := `{"model":"m","messages":[{"role":"system","content":"You are a title generator. You output ONLY a thread title."},{"role":"user","content":"run it"}]}`
	jsonObject := `{"model":"m","input":"classify","text":{"format":{"type":"json_object"}}}`

	srv := start(t, Options{Answerer: scripted(t, toolScript)})
	res, data := post(t, srv.URL()+"/v1beta/models/flash:generateContent", router, nil)
	var r geminiResponse
	if err := json.Unmarshal(data, &r); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	var routed map[string]any
	if err := json.Unmarshal([]byte(*r.Candidates[0].Content.Parts[0].Text), &routed); err != nil {
		t.Fatalf("the router's answer is not JSON: %v", err)
	}
	if routed["complexity_score"] != 1.0 || routed["model_choice"] != "flash" || len(routed["tags"].([]any)) != 1 || routed["complexity_reasoning"] == "" {
		t.Errorf("router answer %v", routed)
	}
	_, data = post(t, srv.URL()+"/v1beta/models/pro:generateContent", turn, nil)
	if !strings.Contains(string(data), `"functionCall"`) {
		t.Errorf("the turn did not get the first scripted answer: %s", data)
	}
	_, data = post(t, srv.URL()+"/v1/chat/completions", title, nil)
	if !strings.Contains(string(data), sideTitle) {
		t.Errorf("title %s", data)
	}
	_, data = post(t, srv.URL()+"/v1/responses", jsonObject, nil)
	if !strings.Contains(string(data), `"text":"{}"`) {
		t.Errorf("json_object %s", data)
	}
	_, data = post(t, srv.URL()+"/v1beta/models/pro:generateContent", turn, nil)
	if !strings.Contains(string(data), "It printed hi.") {
		t.Errorf("the next turn did not get the second scripted answer: %s", data)
	}
	calls := recorded(t, srv, 5)
	var sides []string
	for _, c := range calls {
		sides = append(sides, c.Side)
	}
	if strings.Join(sides, ",") != "json,,title,json," {
		t.Errorf("side kinds %q", sides)
	}

	// scripted side answers come first
	sc := scripted(t, "answers:\n  - content: main\nside:\n  - content: '{\"complexity_score\": 80}'\n")
	srv = start(t, Options{Answerer: sc})
	for i, want := range []string{`complexity_score\": 80`, `complexity_score\":1`} {
		_, data := post(t, srv.URL()+"/v1beta/models/flash:generateContent", router, nil)
		if !strings.Contains(string(data), want) {
			t.Errorf("side request %d: %s", i, data)
		}
	}
}

// TestForwardResponses: a Responses request forwarded to an
// OpenAI-compatible profile is relayed to its /responses and read back
// with openai-go's accumulator; a Gemini request cannot be relayed there.
func TestForwardResponses(t *testing.T) {
	answer := renderResponsesStream("gpt-up", 0, &Answer{Content: "from upstream", ToolCalls: []ToolCall{{ID: "call_up", Name: "exec_command", Arguments: json.RawMessage(`{"cmd":"ls"}`)}}}, usage{in: 50, out: 7})
	up, saw := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(answer)
	})
	told := make(chan Call, 2)
	srv := start(t, Options{Upstream: &Upstream{Profile: "oa", API: OpenAI, BaseURL: up.URL + "/v1", Model: "gpt-up", Key: profileKey}, OnCall: func(c Call) { told <- c }})
	res, err := http.Post(srv.URL()+"/v1/responses", "application/json", strings.NewReader(`{"model":"gpt-5-codex","stream":true,"input":"list"}`))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(data) != string(answer) || saw()[0].Path != "/v1/responses" {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	c := <-told
	if c.Answer == nil || c.Answer.Content != "from upstream" || len(c.Answer.ToolCalls) != 1 || c.Answer.ToolCalls[0].ID != "call_up" || c.InputTokens != 50 || c.OutputTokens != 7 {
		t.Errorf("recorded %+v %+v", c, c.Answer)
	}
	res2, data2 := post(t, srv.URL()+"/v1beta/models/g:generateContent", `{"contents":[]}`, nil)
	if res2.StatusCode != 400 || !strings.Contains(string(data2), "Gemini API") || !strings.Contains(string(data2), `"status":"INVALID_ARGUMENT"`) {
		t.Errorf("gemini forwarded: %d %s", res2.StatusCode, data2)
	}
}
