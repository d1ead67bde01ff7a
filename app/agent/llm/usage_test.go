package llm

import (
	"context"
	"testing"

	"hookstudio/app/agent/engine"
)

// TestReportedUsage: the providers' reported token usage reaches the
// reply (token budgets); OpenAI streams are asked to include it.
func TestReportedUsage(t *testing.T) {
	t.Run("openai", func(t *testing.T) {
		s := newServer(t, sse(chunk(`{"role":"assistant","content":"hi"}`, ""), chunk(`{}`, "stop"),
			`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":812,"completion_tokens":37,"total_tokens":849}}`,
			"[DONE]"), openAIText("no usage"))
		m := newTestOpenAI(t, s, nil)
		rep, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Content != "hi" || rep.Usage == nil || *rep.Usage != (engine.Usage{InputTokens: 812, OutputTokens: 37}) {
			t.Errorf("reply %+v usage %+v", rep, rep.Usage)
		}
		if so, _ := s.body(t, 0)["stream_options"].(map[string]any); so["include_usage"] != true {
			t.Errorf("stream_options %v", s.body(t, 0)["stream_options"])
		}
		rep, err = m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
		if err != nil || rep.Usage != nil {
			t.Errorf("without usage in the stream: %+v, %v", rep.Usage, err)
		}
	})
	t.Run("anthropic", func(t *testing.T) {
		s := newServer(t, anthropicStream("end_turn", block{text: []string{"Done."}}))
		m := newTestAnthropic(t, s, nil)
		rep, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
		if err != nil {
			t.Fatal(err)
		}
		// message_start says 12 in, message_delta 20 out in all.
		if rep.Usage == nil || *rep.Usage != (engine.Usage{InputTokens: 12, OutputTokens: 20}) {
			t.Errorf("usage %+v", rep.Usage)
		}
	})
}
