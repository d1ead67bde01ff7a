package capture

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"hookstudio/app/agentdata/profile"
)

// TestClaudeMessageReadsAsRequest: a Claude Code request read a message at
// a time (ClaudeMessage, as the session importer reads a transcript's
// messages) is the request read whole as a capture records it — hooks'
// words, the agent's words around them and the agent's own paragraphs of
// one system message joined, message for message. Its hook texts are
// rendered by the bundled profiles of both pinned versions.
func TestClaudeMessageReadsAsRequest(t *testing.T) {
	catalog := profile.NewCatalog("")
	render := func(version, id string, v profile.Values) string {
		t.Helper()
		p, err := catalog.Get(profile.ClaudeCode, version)
		if err != nil {
			t.Fatal(err)
		}
		o := p.Outcome(id)
		if o == nil {
			t.Fatalf("%s has no %s", p.Ref(), id)
		}
		return o.Renderings[0].Render(v).Content
	}
	bash := profile.Values{Event: "PostToolUse", Tool: "Bash", Text: "post context one"}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	type msg = map[string]any
	messages := []msg{
		{"role": "user", "content": []any{text("<system-reminder>\nToday's date is 2026-11-27.\n</system-reminder>"), text("clean the build folder")}},
		// 2.1.332: hooks' paragraphs among the agent's own in one system message
		{"role": "system", "content": render("2.1.332", "SessionStart.stdout", profile.Values{Event: "SessionStart", Text: "a monorepo"}) +
			"\n\n# Environment\nPrimary working directory: /p\n\nPlatform: linux\n\n" +
			render("2.1.332", "UserPromptSubmit.context", profile.Values{Event: "UserPromptSubmit", Text: "shared with CI"}) +
			"\n\nToday's date is 2026-11-27."},
		{"role": "assistant", "content": []any{text("Let me look."), map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{"command": "ls"}}}},
		{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": "build"},
			// 2.1.197: a tool hook's context as a wrapped text block after the result
			text(render("2.1.197", "PostToolUse.context", bash) + "\n"),
			text(render("2.1.197", "PostToolUse.context", profile.Values{Event: "PostToolUse", Tool: "Bash", Text: "post context two"})),
		}},
		{"role": "system", "content": render("2.1.332", "PostToolUse.context", bash) + "\n\n" +
			render("2.1.332", "PostToolUse.context", profile.Values{Event: "PostToolUse", Tool: "Bash", Text: "post context two"})},
		{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t2", "name": "Bash", "input": map[string]any{"command": "rm -rf build"}}}},
		{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t2", "is_error": true,
			"content": render("2.1.332", "PreToolUse.exit2", profile.Values{Event: "PreToolUse", Tool: "Bash", Command: "guard.sh", Text: "no rm -rf here"})}}},
		{"role": "assistant", "content": []any{text("The hook blocked it.")}},
		{"role": "user", "content": render("2.1.332", "Stop.block", profile.Values{Event: "Stop", Text: "Run the tests first."})},
		{"role": "system", "content": "Platform: linux\n\nShell: bash"},
	}
	body, err := json.Marshal(map[string]any{"model": "claude-x", "max_tokens": 100,
		"system": []any{text("You are a Claude agent.")}, "messages": messages})
	if err != nil {
		t.Fatal(err)
	}
	ar := NewAgentReader(catalog)
	whole := Call{API: Anthropic, Headers: map[string]string{"User-Agent": "claude-cli/2.1.332 (external, sdk-cli)"}}
	completeCall(&whole, body, geminiPath{}, nil, nil, false, ar)
	if whole.Agent == nil || whole.Agent.Name != profile.ClaudeCode {
		t.Fatalf("the request is not told as Claude Code's: %+v", whole.Agent)
	}

	one := AnthropicSystem(json.RawMessage(`[{"type": "text", "text": "You are a Claude agent."}]`))
	for _, m := range messages {
		content, _ := json.Marshal(m["content"])
		ms, warnings := ar.ClaudeMessage(m["role"].(string), content)
		if len(warnings) > 0 {
			t.Errorf("warnings %v", warnings)
		}
		one = append(one, ms...)
	}
	for _, ms := range [][]Message{one, whole.Messages} {
		for i := range ms {
			ms[i].block = 0 // which system text block of the request: counted per message when read one by one
		}
	}
	if !reflect.DeepEqual(one, whole.Messages) {
		t.Errorf("read a message at a time:\n%v\nread whole:\n%v", one, whole.Messages)
	}
	// not vacuous: hooks read, their wrapper the agent's, the agent's paragraphs joined
	hooks, joined := 0, false
	for _, m := range whole.Messages {
		if m.Origin == OriginHook {
			hooks++
		}
		joined = joined || m.Content == "# Environment\nPrimary working directory: /p\n\nPlatform: linux"
	}
	if hooks != 8 || !joined || !slices.ContainsFunc(whole.Messages, func(m Message) bool { return m.Hook == "Stop" && m.AgentBefore != "" }) {
		t.Errorf("%d hook messages, joined %v: %v", hooks, joined, whole.Messages)
	}
}
