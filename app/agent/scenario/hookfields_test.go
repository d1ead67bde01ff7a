package scenario

import (
	"reflect"
	"slices"
	"testing"
)

// TestHookFields: model, agent, hook_answers, a tool call's error and a round's
// compaction, with their positioned diagnostics.
func TestHookFields(t *testing.T) {
	const head = "name: t\ntools: [{name: read_file}]\n"
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"model", head + "model: gpt-4o\nrequests: [{user: hi}]\n", nil},
		{"empty model", head + "model: \"\"\nrequests: [{user: hi}]\n", []string{"3:8 error empty-value"}},
		{"model not a string", head + "model: [a]\nrequests: [{user: hi}]\n", []string{"3:8 error wrong-type"}},
		{"agent", head + "agent: claude-code@2.1.332\nrequests: [{user: hi}]\n", nil},
		{"agent without a version", head + "agent: claude-code\nrequests: [{user: hi}]\n", nil},
		{"agent not a version", head + "agent: claude-code@latest\nrequests: [{user: hi}]\n", []string{"3:8 error invalid-value"}},
		{"hook answers", head + "hook_answers:\n  reviewer: '{}'\n  guard: ['{}', '{\"action\": \"skip\"}']\nrequests: [{user: hi}]\n", nil},
		{"hook answers not a mapping", head + "hook_answers: [a]\nrequests: [{user: hi}]\n", []string{"3:15 error wrong-type"}},
		{"hook answer not a string", head + "hook_answers:\n  reviewer: {action: skip}\nrequests: [{user: hi}]\n", []string{"4:13 error wrong-type"}},
		{"hook answers empty list", head + "hook_answers:\n  reviewer: []\nrequests: [{user: hi}]\n", []string{"4:13 error empty-value"}},
		{"tool call error", head + "requests:\n  - user: hi\n    rounds:\n      - tool_calls: [{name: read_file, error: ENOENT}]\n      - content: done\n", nil},
		{"result and error", head + "requests:\n  - user: hi\n    rounds:\n      - tool_calls: [{name: read_file, result: x, error: ENOENT}]\n      - content: done\n", []string{"6:51 error result-and-error"}},
		{"empty error", head + "requests:\n  - user: hi\n    rounds:\n      - tool_calls: [{name: read_file, error: \"\"}]\n      - content: done\n", []string{"6:47 error empty-value"}},
		{"compact shorthand", head + "requests:\n  - user: hi\n    rounds:\n      - compact: micro\n        content: done\n", nil},
		{"compact mapping", head + "requests:\n  - user: hi\n    rounds:\n      - compact: {kind: auto, summary: S}\n        content: done\n", nil},
		{"compact unknown kind", head + "requests:\n  - user: hi\n    rounds:\n      - compact: full\n        content: done\n", []string{"6:18 error invalid-value"}},
		{"compact without kind", head + "requests:\n  - user: hi\n    rounds:\n      - compact: {summary: S}\n        content: done\n", []string{"6:18 error missing-field"}},
		{"compact unknown field", head + "requests:\n  - user: hi\n    rounds:\n      - compact: {kind: auto, sumary: S}\n        content: done\n", []string{"6:31 warning unknown-field"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := Parse("s/scenarios/t.yaml", []byte(tt.in))
			if got := keys(ds); !slices.Equal(got, tt.want) {
				t.Errorf("diagnostics %v, want %v\n%v", got, tt.want, ds)
			}
		})
	}
}

func TestHookFieldValues(t *testing.T) {
	sc, ds := Parse("t.yaml", []byte(`
name: t
model: gpt-4o-mini
hook_answers:
  one: '{}'
  two: [a, b]
tools: [{name: read_file}]
requests:
  - user: hi
    rounds:
      - compact: micro
        tool_calls: [{name: read_file, error: ENOENT}]
      - compact: {kind: auto, summary: S}
        content: done
`))
	if len(ds) != 0 {
		t.Fatalf("%v", ds)
	}
	if sc.Model != "gpt-4o-mini" || !reflect.DeepEqual(sc.HookAnswers, map[string][]string{"one": {"{}"}, "two": {"a", "b"}}) {
		t.Errorf("model %q answers %v", sc.Model, sc.HookAnswers)
	}
	r := sc.Requests[0].Rounds
	if r[0].Compact == nil || r[0].Compact.Kind != CompactMicro || r[0].ToolCalls[0].Error != "ENOENT" {
		t.Errorf("round 0 %+v", r[0])
	}
	if r[1].Compact == nil || *r[1].Compact != (Compact{Kind: CompactAuto, Summary: "S"}) {
		t.Errorf("round 1 %+v", r[1].Compact)
	}
}
