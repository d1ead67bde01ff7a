package llm

import (
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// TestScenarioToolResults: the tools' own results come first, by arguments
// then fixed; results scripted in rounds fill what they leave open.
func TestScenarioToolResults(t *testing.T) {
	fixed := "fixed listing"
	data := []byte(`name: t
tools:
  - name: read_file
    result: "fixed contents"
    results:
      - {arguments: {path: a.go}, result: "package a"}
  - name: list_dir
requests:
  - user: go
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a.go}, result: "scripted a"}, {name: list_dir, arguments: {path: .}, result: "` + fixed + `"}]
      - content: done
`)
	sc, ds := scenario.Parse("t.yaml", data)
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatalf("scenario: %+v", d)
		}
	}
	tr := ScriptedToolResults(sc)
	tests := []struct {
		name string
		call engine.ToolCall
		want string
		ok   bool
	}{
		{"tool results by arguments win over scripted rounds", engine.ToolCall{Name: "read_file", Arguments: map[string]any{"path": "a.go"}}, "package a", true},
		{"the tool's fixed result for other arguments", engine.ToolCall{Name: "read_file", Arguments: map[string]any{"path": "b.go"}}, "fixed contents", true},
		{"scripted rounds fill a tool without results", engine.ToolCall{Name: "list_dir", Arguments: map[string]any{"path": "src"}}, fixed, true},
		{"unknown tool: ask the user", engine.ToolCall{Name: "write_file"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tr.Lookup(tt.call)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Lookup = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
