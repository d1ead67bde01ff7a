package capture

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRejectedRequestTakesNoAnswer: against two scripted answers, a
// malformed body (400), a body over the limit (413) and a wrong-shaped one
// (400) take none — the good request after them gets the first answer —
// and the wrong shape is said in the API's words at its JSON path, in the
// API's error shape, for each API.
func TestRejectedRequestTakesNoAnswer(t *testing.T) {
	big := `{"x":"` + strings.Repeat("a", 2<<20) + `"}`
	tests := []struct {
		api         API
		path        string
		wrong, good string
		said        string // the wrong shape's words
		shape       string // a key of the API's error shape
	}{
		{Anthropic, "/v1/messages", `{"model":"m","messages":"hi"}`, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
			"messages must be a list of {role, content}, not a string", `"type":"error"`},
		{OpenAI, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":7}]}`, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
			`messages[0].content must be a string, null or a list of content parts ({"type": …}), not a number`, `"param":null`},
		{Responses, "/v1/responses", `{"model":"m","input":[{"type":"message","role":"user","content":{"text":"hi"}}]}`, `{"model":"m","input":"hi"}`,
			`input[0].content must be a string or a list of content parts ({"type": "input_text", "text": …}, …), not an object`, `"param":null`},
		{Gemini, "/v1beta/models/gemini-x:generateContent", `{"contents":[{"role":"user","parts":"hi"}]}`, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
			`contents[0].parts must be a list of parts ({"text": …}, {"functionCall": …}, …), not a string`, `"status":"INVALID_ARGUMENT"`},
	}
	for _, tt := range tests {
		t.Run(string(tt.api), func(t *testing.T) {
			sc, err := ParseScript("two.yaml", []byte("answers:\n  - content: first\n  - content: second\n"))
			if err != nil {
				t.Fatal(err)
			}
			srv := start(t, Options{Answerer: sc, MaxBody: 1 << 20})
			for _, bad := range []struct {
				body   string
				status int
				said   string
			}{{`{"model":`, 400, "the body is not JSON"}, {big, 413, "over 1 MiB"}, {tt.wrong, 400, tt.said}} {
				res, body := post(t, srv.URL()+tt.path, bad.body, nil)
				if res.StatusCode != bad.status || !strings.Contains(string(body), tt.shape) {
					t.Errorf("%d %s, want %d in the API's shape", res.StatusCode, body, bad.status)
				}
				var msg struct {
					Error struct{ Message string } `json:"error"`
				}
				_ = json.Unmarshal(body, &msg)
				if !strings.Contains(msg.Error.Message, bad.said) || strings.Contains(msg.Error.Message, "Go struct") {
					t.Errorf("said %q, want %q", msg.Error.Message, bad.said)
				}
			}
			res, body := post(t, srv.URL()+tt.path, tt.good, nil)
			if res.StatusCode != 200 || !strings.Contains(string(body), "first") {
				t.Fatalf("the good request: %d %s", res.StatusCode, body)
			}
			calls := recorded(t, srv, 4)
			for i, c := range calls[:3] {
				if c.Status < 400 || c.Error == "" || c.Answer != nil {
					t.Errorf("refused call %d recorded as %+v", i, c)
				}
			}
			if calls[2].Body == nil || calls[0].RawBody != `{"model":` {
				t.Errorf("the refused bodies are not kept: %q / %q", calls[2].Body, calls[0].RawBody)
			}
		})
	}
}
