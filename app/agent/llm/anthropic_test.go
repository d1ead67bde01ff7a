package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

func newTestAnthropic(t *testing.T, s *server, tune func(*Options)) *Anthropic {
	t.Helper()
	o := Options{BaseURL: s.URL, Model: "claude-test", APIKey: fakeKey, MaxRetries: 0, RetryBase: time.Millisecond}
	if tune != nil {
		tune(&o)
	}
	m, err := NewAnthropic(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// anthropicEvents builds a Messages event stream: text blocks and tool
// uses (name, id, arguments in pieces), in order.
type block struct {
	text  []string // a text block's deltas
	tool  string   // a tool_use block's name
	id    string
	input []string // partial_json pieces
}

func anthropicStream(stop string, blocks ...block) handler {
	ev := []string{"message_start\n" + `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}`}
	ev = append(ev, "ping\n"+`{"type":"ping"}`)
	for i, b := range blocks {
		if b.tool != "" {
			ev = append(ev, "content_block_start\n"+fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, b.id, b.tool))
			for _, p := range b.input {
				pj, _ := json.Marshal(p)
				ev = append(ev, "content_block_delta\n"+fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, pj))
			}
		} else {
			ev = append(ev, "content_block_start\n"+fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
			for _, p := range b.text {
				pj, _ := json.Marshal(p)
				ev = append(ev, "content_block_delta\n"+fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, pj))
			}
		}
		ev = append(ev, "content_block_stop\n"+fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
	}
	ev = append(ev,
		"message_delta\n"+fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":20}}`, stop),
		"message_stop\n"+`{"type":"message_stop"}`)
	return sse(ev...)
}

func TestAnthropicFullScenario(t *testing.T) {
	s := newServer(t,
		anthropicStream("end_turn", block{text: []string{"```json\n{\"need_tool\": ", "true, \"plan\": \"read\"}\n```"}}),
		anthropicStream("tool_use", block{text: []string{"Reading."}}, block{tool: "read_file", id: "toolu_1", input: []string{`{"pa`, `th": "main.go"}`}}),
		anthropicStream("tool_use", block{tool: "grep", id: "toolu_2", input: []string{`{"pattern":"TODO"}`}}, block{tool: "read_file", id: "toolu_3", input: []string{`{"path":"go.mod"}`}}),
		anthropicStream("end_turn", block{text: []string{"Done", "."}}),
	)
	m := newTestAnthropic(t, s, nil)
	sc, hs := testScenario()
	var streamed strings.Builder
	tr, err := engine.Run(context.Background(), sc, hs, engine.Config{
		Model: m, MaxRounds: 5,
		Tools:    &ToolRunner{Results: ToolResults{Fixed: map[string]string{"read_file": "package main", "grep": "main.go:3: TODO"}}},
		OnStream: func(_ int, s string) { streamed.WriteString(s) },
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(tr.Calls) != 4 || tr.Requests[0].Reply != "Done." {
		t.Fatalf("calls = %d, reply %q", len(tr.Calls), tr.Requests[0].Reply)
	}
	if nt := tr.Calls[0].NeedTool; nt == nil || !*nt {
		t.Errorf("planning decision = %v", nt)
	}
	if got := tr.Calls[1].ToolCalls; len(got) != 1 || got[0].ID != "toolu_1" || got[0].Arguments["path"] != "main.go" {
		t.Errorf("round 0 calls = %+v", got)
	}
	if got := tr.Calls[2].ToolCalls; len(got) != 2 || got[0].Name != "grep" || got[1].ID != "toolu_3" {
		t.Errorf("round 1 calls = %+v", got)
	}
	if !strings.Contains(streamed.String(), "Reading.") || !strings.HasSuffix(streamed.String(), "Done.") {
		t.Errorf("streamed %q", streamed.String())
	}

	for i, r := range s.requests() {
		if r.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != fakeKey || r.Header.Get("Anthropic-Version") == "" {
			t.Errorf("request %d: path %s, headers %v", i, r.Path, r.Header)
		}
		if strings.Contains(string(r.Body), fakeKey) {
			t.Errorf("request %d body holds the key", i)
		}
	}
	// The last request: top-level system is the system prompt only; every
	// later system message (hooks, built-in prompts) is a <system> text
	// block in a user turn; turns alternate; tool results are tool_result
	// blocks; tools are offered.
	body := s.body(t, 3)
	sys := body["system"].([]any)
	if len(sys) != 1 || sys[0].(map[string]any)["text"] != "You are a coding assistant." {
		t.Errorf("system = %v", sys)
	}
	if len(body["tools"].([]any)) != 2 {
		t.Errorf("tools = %v", body["tools"])
	}
	if _, ok := s.body(t, 0)["tools"]; ok {
		t.Error("the planning call was offered tools")
	}
	msgs := body["messages"].([]any)
	var midSystem, toolResults int
	prev := ""
	for k, mm := range msgs {
		turn := mm.(map[string]any)
		role := turn["role"].(string)
		if role == prev {
			t.Errorf("turn %d repeats role %s", k, role)
		}
		prev = role
		for _, b := range turn["content"].([]any) {
			blk := b.(map[string]any)
			switch blk["type"] {
			case "text":
				if txt := blk["text"].(string); strings.HasPrefix(txt, SystemOpen) {
					if role != "user" || !strings.HasSuffix(txt, SystemClose) {
						t.Errorf("turn %d: system block %q in a %s turn", k, txt, role)
					}
					midSystem++
				}
			case "tool_result":
				toolResults++
			}
		}
	}
	wantMid := 0
	for _, m := range tr.CallMessages(3)[1:] {
		if m.Role == "system" {
			wantMid++
		}
	}
	if midSystem != wantMid || toolResults != 3 {
		t.Errorf("mid-conversation system blocks = %d (trace has %d), tool results = %d (want 3)", midSystem, wantMid, toolResults)
	}
}

// TestAnthropicMapping pins the mapping documented in docs/providers.md.
func TestAnthropicMapping(t *testing.T) {
	msgs := []engine.Message{
		{Role: "system", Content: "You are a coding assistant.", Origin: engine.OriginSystemPrompt},
		{Role: "system", Content: "Answer in English.", Origin: engine.OriginHistory},
		{Role: "user", Content: "Fix main.go", Origin: engine.OriginUserInput},
		{Role: "system", Content: "Be terse.", Origin: engine.OriginHook, Hook: "persona"},
		{Role: "assistant", Content: "Reading.", Origin: engine.OriginAssistant, ToolCalls: []engine.ToolCall{{ID: "toolu_1", Name: "read_file", Arguments: map[string]any{"path": "main.go"}}}},
		{Role: "tool", Content: "package main", Origin: engine.OriginTool, Tool: "read_file", ToolCallID: "toolu_1"},
		{Role: "system", Content: "Check for truncation.", Origin: engine.OriginHook, Hook: "tool-hint"},
		{Role: "user", Content: "Mind the tests.", Origin: engine.OriginHook, Hook: "reminder"},
		{Role: "system", Content: "Call the next tool or answer.", Origin: engine.OriginPrompt, Prompt: engine.PromptAgentLoop},
	}
	s := newServer(t, anthropicStream("end_turn", block{text: []string{"ok"}}))
	m := newTestAnthropic(t, s, nil)
	if _, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, msgs, nil)); err != nil {
		t.Fatal(err)
	}
	body := s.body(t, 0)
	got, _ := json.MarshalIndent(map[string]any{"system": body["system"], "messages": body["messages"]}, "", "  ")
	want := `{
  "messages": [
    {
      "content": [
        {
          "text": "Fix main.go",
          "type": "text"
        },
        {
          "text": "\u003csystem\u003e\nBe terse.\n\u003c/system\u003e",
          "type": "text"
        }
      ],
      "role": "user"
    },
    {
      "content": [
        {
          "text": "Reading.",
          "type": "text"
        },
        {
          "id": "toolu_1",
          "input": {
            "path": "main.go"
          },
          "name": "read_file",
          "type": "tool_use"
        }
      ],
      "role": "assistant"
    },
    {
      "content": [
        {
          "content": [
            {
              "text": "package main",
              "type": "text"
            }
          ],
          "is_error": false,
          "tool_use_id": "toolu_1",
          "type": "tool_result"
        },
        {
          "text": "\u003csystem\u003e\nCheck for truncation.\n\u003c/system\u003e",
          "type": "text"
        },
        {
          "text": "Mind the tests.",
          "type": "text"
        },
        {
          "text": "\u003csystem\u003e\nCall the next tool or answer.\n\u003c/system\u003e",
          "type": "text"
        }
      ],
      "role": "user"
    }
  ],
  "system": [
    {
      "text": "You are a coding assistant.\n\nAnswer in English.",
      "type": "text"
    }
  ]
}`
	if string(got) != want {
		t.Errorf("mapping:\n%s\nwant:\n%s", got, want)
	}
}

func TestAnthropicFailures(t *testing.T) {
	tests := []struct {
		name     string
		script   []handler
		is       error
		requests int
	}{
		{"401", []handler{status(401, nil, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key `+fakeKey+`"}}`)}, ErrKeyRejected, 1},
		{"529 overloaded, retried, then given up", []handler{status(529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)}, ErrHTTPStatus, 3},
		{"no message_stop", []handler{sse("message_start\n"+`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"x","usage":{"input_tokens":1,"output_tokens":1}}}`,
			"content_block_start\n"+`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			"content_block_delta\n"+`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"par"}}`)}, ErrStreamDropped, 1},
		{"malformed event", []handler{sse("message_start\n{\"type\":\"message_start\",")}, ErrMalformedStream, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.script...)
			m := newTestAnthropic(t, s, func(o *Options) { o.MaxRetries = 2 })
			_, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
			if !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			if strings.Contains(err.Error(), fakeKey) {
				t.Errorf("err holds the key: %v", err)
			}
			if n := len(s.requests()); n != tt.requests {
				t.Errorf("requests = %d, want %d", n, tt.requests)
			}
		})
	}
}

func TestAnthropicErrorEventMidStream(t *testing.T) {
	start := "message_start\n" + `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"x","usage":{"input_tokens":1,"output_tokens":1}}}`
	overloaded := "error\n" + `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	tests := []struct {
		name     string
		events   []string
		requests int // retried only while nothing reached the user
		status   int
	}{
		{"before any text: retried, then given up", []string{start, overloaded}, 3, 529},
		{"after text: not retried", []string{start,
			"content_block_start\n" + `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			"content_block_delta\n" + `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hal"}}`,
			overloaded}, 1, 529},
		{"invalid request: not retried", []string{start, "error\n" + `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`}, 1, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, sse(tt.events...))
			m := newTestAnthropic(t, s, func(o *Options) { o.MaxRetries = 2 })
			_, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
			var se *StatusError
			if !errors.As(err, &se) || !errors.Is(err, ErrStreamError) || se.Status != tt.status || !se.InStream || se.Message == "" {
				t.Fatalf("err = %v (%#v), want an in-stream error with status %d and the server's message", err, se, tt.status)
			}
			if n := len(s.requests()); n != tt.requests {
				t.Errorf("requests = %d, want %d", n, tt.requests)
			}
		})
	}
}

func TestAnthropicCancelMidStream(t *testing.T) {
	observed := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		writeEvent(w, "content_block_start\n"+`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		writeEvent(w, "content_block_delta\n"+`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`)
		select {
		case <-r.Context().Done():
			close(observed)
		case <-time.After(10 * time.Second):
		}
	})
	m := newTestAnthropic(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	call := callFor(engine.PhaseDirect, userOnly("hi"), nil)
	call.Stream = func(string) { cancel() }
	if _, err := m.Complete(ctx, call); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	select {
	case <-observed:
	case <-time.After(20 * time.Second):
		t.Fatal("the server never saw the request cancelled")
	}
}
