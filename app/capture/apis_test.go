package capture

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

const toolScript = `answers:
  - content: "I will run it."
    tool_calls: [{name: exec_command, arguments: {cmd: "echo hi"}}]
  - content: "It printed hi."
`

func scripted(t *testing.T, text string) Answerer {
	t.Helper()
	sc, err := ParseScript("answers.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestResponsesStreamWithSDK: openai-go's Responses client streams a
// scripted tool call from the capture: the event sequence Codex reads
// (response.created, output items with their content part and deltas,
// the call's argument deltas, response.completed with usage), and the
// SDK's accumulator rebuilds the answer; the answer without streaming
// reads the same.
func TestResponsesStreamWithSDK(t *testing.T) {
	srv := start(t, Options{Answerer: scripted(t, toolScript)})
	client := openai.NewClient(option.WithBaseURL(srv.URL()+"/v1/"), option.WithAPIKey("sk-responses-secret"), option.WithMaxRetries(0))
	params := responses.ResponseNewParams{Model: "gpt-5-codex", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("run it")},
		Instructions: openai.String("You are Codex."),
		Tools:        []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{Name: "exec_command", Parameters: map[string]any{"type": "object"}}}}}
	stream := client.Responses.NewStreaming(context.Background(), params)
	var types []string
	var acc responses.ResponseAccumulator
	var completed responses.Response
	for stream.Next() {
		ev := stream.Current()
		types = append(types, ev.Type)
		var server responses.ResponsesServerEventUnion
		if err := json.Unmarshal([]byte(ev.RawJSON()), &server); err != nil {
			t.Fatal(err)
		}
		if err := acc.AddEvent(server); err != nil {
			t.Fatalf("the SDK's accumulator refused %s: %v", ev.Type, err)
		}
		if ev.Type == "response.completed" {
			completed = ev.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{"response.created", "response.in_progress", "response.output_item.added", "response.content_part.added", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done", "response.output_item.added",
		"response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done", "response.completed"}
	if got := slices.Compact(slices.Clone(types)); !slices.Equal(got, want) {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
	r, err := acc.ReconstructedResponse()
	if err != nil {
		t.Fatal(err)
	}
	if r.OutputText() != "I will run it." || len(r.Output) != 2 || r.Output[1].Type != "function_call" || r.Output[1].Name != "exec_command" ||
		r.Output[1].Arguments.OfString != `{"cmd":"echo hi"}` || r.Output[1].CallID == "" {
		t.Errorf("accumulated %+v", r.Output)
	}
	if completed.Usage.TotalTokens == 0 || completed.Usage.InputTokens == 0 || completed.Status != "completed" {
		t.Errorf("response.completed %+v", completed.Usage)
	}
	res, err := client.Responses.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if res.OutputText() != "It printed hi." || res.Usage.TotalTokens == 0 {
		t.Errorf("not streamed: %q %+v", res.OutputText(), res.Usage)
	}
	calls := recorded(t, srv, 2)
	if c := calls[0]; c.API != Responses || !c.Stream || c.Model != "gpt-5-codex" || strings.Join(c.Tools, ",") != "exec_command" ||
		c.Messages[0].Origin != OriginSystem || c.Messages[1].Content != "run it" || c.Headers["authorization"] != "[redacted]" {
		t.Errorf("recorded %+v", c)
	}
}

// TestResponsesInputItems: every input item type Codex sends is read —
// developer and system messages, user and assistant messages, a function
// call with its output, a custom tool call, a reasoning item (kept as it
// came) — and one this capture does not know is kept as it came with a
// warning, the request answered.
func TestResponsesInputItems(t *testing.T) {
	srv := start(t, Options{Answerer: scripted(t, toolScript)})
	body := `{"model":"gpt-5-codex","stream":false,"input":[
	 {"type":"message","role":"developer","content":[{"type":"input_text","text":"You are Codex."},{"type":"input_text","text":"<permissions instructions>read-only</permissions instructions>"}]},
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"}]},
	 {"role":"user","content":"run it"},
	 {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"I should run it."}],"encrypted_content":"gAAA"},
	 {"type":"message","role":"assistant","content":[{"type":"output_text","text":"I will run it."}]},
	 {"type":"function_call","call_id":"call_1","name":"exec_command","arguments":"{\"cmd\":\"echo hi\"}"},
	 {"type":"custom_tool_call","call_id":"call_2","name":"apply_patch","input":"*** Begin Patch"},
	 {"type":"function_call_output","call_id":"call_1","output":"hi"},
	 {"type":"custom_tool_call_output","call_id":"call_2","output":[{"type":"input_text","text":"patched"}]},
	 {"type":"message","role":"system","content":"Keep it short."},
	 {"type":"future_item","payload":1}]}`
	res, data := post(t, srv.URL()+"/v1/responses", body, nil)
	if res.StatusCode != 200 || !strings.Contains(string(data), `"type":"function_call"`) {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	c := recorded(t, srv, 1)[0]
	var got []string
	for _, m := range c.Messages {
		s := m.Role + "|" + m.Origin + "|" + m.Kind
		for _, tc := range m.ToolCalls {
			s += "|" + tc.ID + ":" + tc.Name
		}
		if m.ToolCallID != "" {
			s += "|" + m.ToolCallID + "=" + m.Content
		}
		got = append(got, s)
	}
	want := []string{
		"system|" + OriginSystem + "|", "system|" + OriginContext + "|", "user|" + OriginUser + "|", "user|" + OriginUser + "|",
		"assistant|" + OriginAssistant + "|reasoning", "assistant|" + OriginAssistant + "||call_1:exec_command|call_2:apply_patch",
		"tool|" + OriginToolResult + "||call_1=hi", "tool|" + OriginToolResult + "||call_2=patched",
		"system|" + OriginContext + "|", "user|" + OriginContext + "|future_item",
	}
	if !slices.Equal(got, want) {
		t.Errorf("messages\n got %q\nwant %q", got, want)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `"future_item"`) || !strings.Contains(c.Messages[4].Content, "encrypted_content") {
		t.Errorf("warnings %q, reasoning %q", c.Warnings, c.Messages[4].Content)
	}
}

// TestGeminiAPI: generateContent and streamGenerateContent?alt=sse answer a
// scripted tool call and text as the Gemini API does; a function response
// without an id answers the call of its name; countTokens counts; the key
// in x-goog-api-key or ?key= is in no record; an unknown method is a 404
// in Gemini's error shape.
func TestGeminiAPI(t *testing.T) {
	srv := start(t, Options{Answerer: scripted(t, toolScript)})
	first := `{"systemInstruction":{"parts":[{"text":"You are Gemini CLI."}]},
	  "tools":[{"functionDeclarations":[{"name":"exec_command","parameters":{"type":"OBJECT"}}]}],
	  "contents":[{"role":"user","parts":[{"text":"<session_context>cwd</session_context>"},{"text":"run it"}]}]}`
	res, data := post(t, srv.URL()+"/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse&key=AIza-secret", first, nil)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	var text string
	var calls []geminiFunctionCall
	var finish string
	var usage *geminiUsage
	for _, e := range events(t, data) {
		var r struct {
			Candidates []struct {
				Content struct {
					Role  string `json:"role"`
					Parts []struct {
						Text         string              `json:"text"`
						FunctionCall *geminiFunctionCall `json:"functionCall"`
					} `json:"parts"`
				} `json:"content"`
				FinishReason string `json:"finishReason"`
			} `json:"candidates"`
			UsageMetadata *geminiUsage `json:"usageMetadata"`
		}
		if err := json.Unmarshal([]byte(e[1]), &r); err != nil {
			t.Fatal(err)
		}
		for _, p := range r.Candidates[0].Content.Parts {
			text += p.Text
			if p.FunctionCall != nil {
				calls = append(calls, *p.FunctionCall)
			}
		}
		finish, usage = r.Candidates[0].FinishReason, r.UsageMetadata
	}
	if text != "I will run it." || len(calls) != 1 || calls[0].Name != "exec_command" || string(calls[0].Args) != `{"cmd":"echo hi"}` || finish != "STOP" || usage == nil || usage.Total == 0 {
		t.Fatalf("streamed %q %+v %q %+v", text, calls, finish, usage)
	}
	second := `{"contents":[{"role":"user","parts":[{"text":"run it"}]},
	  {"role":"model","parts":[{"text":"I will run it."},{"functionCall":{"name":"exec_command","args":{"cmd":"echo hi"}}}]},
	  {"role":"user","parts":[{"functionResponse":{"name":"exec_command","response":{"output":"hi"}}}]}]}`
	res, data = post(t, srv.URL()+"/v1beta/models/gemini-3-pro:generateContent", second, map[string]string{"x-goog-api-key": "AIza-header-secret"})
	var r struct {
		Candidates []struct {
			Content struct {
				Parts []struct{ Text string } `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(data, &r); err != nil || res.StatusCode != 200 || r.Candidates[0].Content.Parts[0].Text != "It printed hi." || r.Candidates[0].FinishReason != "STOP" {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	res, data = post(t, srv.URL()+"/v1beta/models/gemini-3-pro:countTokens", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, nil)
	if res.StatusCode != 200 || !strings.Contains(string(data), `"totalTokens"`) {
		t.Errorf("countTokens %d %s", res.StatusCode, data)
	}
	res, data = post(t, srv.URL()+"/v1beta/models/gemini-3-pro:embedContent", `{}`, nil)
	if res.StatusCode != 404 || !strings.Contains(string(data), `"status":"NOT_FOUND"`) {
		t.Errorf("unknown method %d %s", res.StatusCode, data)
	}
	got := recorded(t, srv, 2)
	all, _ := json.Marshal(got)
	if strings.Contains(string(all), "AIza") || got[0].Path != "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse&key=[redacted]" || got[1].Headers["x-goog-api-key"] != "[redacted]" {
		t.Errorf("a key is recorded: %s / %v", got[0].Path, got[1].Headers)
	}
	if c := got[0]; c.API != Gemini || c.Model != "gemini-3-pro" || !c.Stream || c.Messages[0].Origin != OriginSystem || strings.Join(c.Tools, ",") != "exec_command" {
		t.Errorf("first call %+v", c)
	}
	ms := got[1].Messages
	if len(ms) != 3 || len(ms[1].ToolCalls) != 1 || ms[2].Role != "tool" || ms[2].ToolCallID != ms[1].ToolCalls[0].ID || ms[2].Content != "hi" {
		t.Errorf("the function response does not answer its call: %+v", ms)
	}
}

// TestSDKClientsAccumulate: the Anthropic and OpenAI Go SDKs' streaming
// clients read the capture's streamed answers into the scripted text and
// tool call with their own accumulators.
func TestSDKClientsAccumulate(t *testing.T) {
	ctx := context.Background()
	srv := start(t, Options{Answerer: scripted(t, toolScript)})
	ac := anthropic.NewClient(anthropicoption.WithBaseURL(srv.URL()), anthropicoption.WithAPIKey("sk-ant"), anthropicoption.WithMaxRetries(0))
	st := ac.Messages.NewStreaming(ctx, anthropic.MessageNewParams{Model: "claude-x", MaxTokens: 100,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("run it"))}})
	var m anthropic.Message
	for st.Next() {
		if err := m.Accumulate(st.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 2 || m.Content[0].Text != "I will run it." || m.Content[1].Name != "exec_command" || string(m.Content[1].Input) != `{"cmd":"echo hi"}` || m.StopReason != "tool_use" {
		t.Errorf("anthropic %+v", m.Content)
	}
	oc := openai.NewClient(option.WithBaseURL(srv.URL()+"/v1/"), option.WithAPIKey("sk-oa"), option.WithMaxRetries(0))
	cs := oc.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: "gpt-x", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("thanks")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}})
	var acc openai.ChatCompletionAccumulator
	for cs.Next() {
		acc.AddChunk(cs.Current())
	}
	if err := cs.Err(); err != nil {
		t.Fatal(err)
	}
	if acc.Choices[0].Message.Content != "It printed hi." || acc.Usage.TotalTokens == 0 || acc.Choices[0].FinishReason != "stop" {
		t.Errorf("openai %+v", acc.ChatCompletion)
	}
	if res, _ := post(t, srv.URL()+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"x"}]}`, nil); res.StatusCode != http.StatusInternalServerError {
		t.Errorf("beyond the answers: %d", res.StatusCode)
	}
}
