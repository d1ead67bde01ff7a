package scenario

import (
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

// TestSubagentScript: a tool call's subagent scripts the sub-agent's
// rounds, checked as a request's are, with positioned diagnostics.
func TestSubagentScript(t *testing.T) {
	const head = "name: t\ntools: [{name: Agent}, {name: Bash}]\nrequests:\n  - user: hi\n    rounds:\n      - tool_calls:\n          - name: Agent\n"
	const tail = "      - content: done\n"
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"rounds", head + "            subagent: {rounds: [{tool_calls: [{name: Bash, result: x}]}, {content: found}]}\n" + tail, nil},
		{"nested", head + "            subagent:\n              rounds:\n                - tool_calls: [{name: Agent, subagent: {rounds: [{content: deep}]}}]\n                - content: found\n" + tail, nil},
		{"no rounds", head + "            subagent: {}\n" + tail, []string{"8:23 error missing-field"}},
		{"empty rounds", head + "            subagent: {rounds: []}\n" + tail, []string{"8:24 error no-rounds"}},
		{"empty round", head + "            subagent: {rounds: [{}]}\n" + tail, []string{"8:33 error empty-round"}},
		{"last round calls tools", head + "            subagent: {rounds: [{tool_calls: [{name: Bash}]}]}\n" + tail, []string{"8:33 warning no-final-answer"}},
		{"result too", head + "            result: x\n            subagent: {rounds: [{content: found}]}\n" + tail, []string{"7:13 warning subagent-result"}},
		{"undeclared tool inside", head + "            subagent: {rounds: [{tool_calls: [{name: Bsh}]}, {content: found}]}\n" + tail, []string{"8:54 error unknown-tool"}},
		{"unknown field", head + "            subagent: {rounds: [{content: found}], prompt: x}\n" + tail, []string{"8:52 warning unknown-field"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := Parse("s/scenarios/t.yaml", []byte(tt.in))
			if got := keys(ds); !slices.Equal(got, tt.want) {
				t.Errorf("diagnostics %v, want %v\n%v", got, tt.want, ds)
			}
		})
	}
	s, ds := Parse("t.yaml", []byte(head+"            subagent:\n              rounds:\n                - tool_calls: [{name: Bash, arguments: {command: ls}, result: a.o}]\n                - content: found a.o\n"+tail))
	if s == nil || diag.HasErrors(ds) {
		t.Fatalf("parse: %v", ds)
	}
	sa := s.Requests[0].Rounds[0].ToolCalls[0].Subagent
	if sa == nil || len(sa.Rounds) != 2 || sa.Rounds[1].Content != "found a.o" || sa.Rounds[0].ToolCalls[0].Result != "a.o" || sa.Line != 9 {
		t.Errorf("subagent %+v", sa)
	}
}

// TestCheckAgentToolsInSubagent: under an agent, a sub-agent's call of a
// tool the agent lacks is an error named by its path.
func TestCheckAgentToolsInSubagent(t *testing.T) {
	src := "name: t\ntools: [{name: Agent}, {name: Reed}]\nrequests:\n  - user: hi\n    rounds:\n      - tool_calls:\n          - name: Agent\n            subagent: {rounds: [{tool_calls: [{name: Reed}]}, {content: x}]}\n      - content: done\n"
	s, ds := Parse("t.yaml", []byte(src))
	if s == nil || diag.HasErrors(ds) {
		t.Fatalf("parse: %v", ds)
	}
	var errs []diag.Diagnostic
	for _, d := range CheckAgentTools(s, "demo", []string{"Agent", "Read"}) {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 || errs[0].Code != CodeAgentTool || errs[0].Line != 8 ||
		!strings.Contains(errs[0].Message, "requests[0].rounds[0].tool_calls[0].subagent.rounds[0].tool_calls[0]") {
		t.Errorf("diagnostics %v", errs)
	}
}
