package scenario

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// tooled is a scenario with tools, so planning and rounds play.
const tooled = "name: t\ntools: [{name: read_file}]\n"

func TestExpectDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"every kind valid", tooled + `requests:
  - user: hi
    expect:
      - yields: [memory]
      - reply: done
      - {phase: agent, round: 1, sees: {hook: memory, skill: s, copies: 2}}
    planning:
      need_tool: true
      expect:
        - sees: [plan, s/other]
        - not_sees: step
        - sees_message: {matches: "^x", role: system, origin: hook, count: 1}
        - order: {hook: plan, before: prompt:planning, after: [user, h.hook:x]}
        - max_prompt_tokens: 100
        - reply: {contains: a, equals: a}
    rounds:
      - content: done
        expect:
          - tool: {name: read_file, status: denied, count: 0}
          - hook_outcome: {hook: guard, system: command, event: PreToolUse, outcome: timeout}
          - event: before_tool
          - event: {name: stop, hook: h, system: process, count: 2}
expect:
  - status: ok
  - {call: 2, sees: memory}
  - {request: 1, yields: []}
  - {request: 1, phase: planning, reply: {matches: "a+"}}
`, nil},
		{"unknown kind with suggestion", tooled + "requests: [{user: hi}]\nexpect:\n  - see: memory\n", []string{"5:5 error unknown-expectation"}},
		{"unknown field in sees", tooled + "requests: [{user: hi}]\nexpect:\n  - sees: {hok: memory}\n", []string{"5:11 error missing-field", "5:12 error unknown-expectation"}},
		{"copies not a number", tooled + "requests: [{user: hi}]\nexpect:\n  - sees: {hook: m, copies: two}\n", []string{"5:29 error wrong-type"}},
		{"copies zero", tooled + "requests: [{user: hi}]\nexpect:\n  - sees: {hook: m, copies: 0}\n", []string{"5:29 error invalid-value"}},
		{"sees wrong type", tooled + "requests: [{user: hi}]\nexpect:\n  - sees: 3\n", []string{"5:11 error wrong-type"}},
		{"empty sees list", tooled + "requests: [{user: hi}]\nexpect:\n  - sees: []\n", []string{"5:11 error empty-value"}},
		{"expect not a list", tooled + "requests: [{user: hi}]\nexpect: {sees: m}\n", []string{"4:9 error wrong-type"}},
		{"entry not a mapping", tooled + "requests: [{user: hi}]\nexpect: [sees]\n", []string{"4:10 error wrong-type"}},
		{"call counts from 1", tooled + "requests: [{user: hi}]\nexpect:\n  - {call: 0, sees: m}\n", []string{"5:12 error invalid-value"}},
		{"round counts from 0", tooled + "requests: [{user: hi}]\nexpect:\n  - {round: -1, sees: m}\n", []string{"5:13 error invalid-value"}},
		{"bad phase", tooled + "requests: [{user: hi}]\nexpect:\n  - {phase: plan, sees: m}\n", []string{"5:13 error invalid-value"}},
		{"call with phase", tooled + "requests: [{user: hi}]\nexpect:\n  - {call: 1, phase: agent, sees: m}\n", []string{"5:6 error expect-address"}},
		{"round with planning", tooled + "requests: [{user: hi}]\nexpect:\n  - {phase: planning, round: 1, sees: m}\n", []string{"5:23 error expect-address"}},
		{"request beyond the scenario", tooled + "requests: [{user: hi}]\nexpect:\n  - {request: 2, yields: []}\n", []string{"5:18 error expect-address"}},
		{"address under a round", tooled + "requests:\n  - user: hi\n    rounds:\n      - content: x\n        expect: [{round: 1, sees: m}]\n", []string{"7:19 error expect-address"}},
		{"call under a request", tooled + "requests:\n  - user: hi\n    expect: [{call: 1, sees: m}]\n", []string{"5:15 error expect-address"}},
		{"status under a request", tooled + "requests:\n  - user: hi\n    expect: [{status: stopped}]\n", nil},
		{"status of a call", tooled + "requests:\n  - user: hi\n    expect: [{round: 0, status: ok}]\n", []string{"5:25 error expect-address"}},
		{"unknown status", tooled + "requests: [{user: hi}]\nexpect: [{status: stoped}]\n", []string{"4:19 error invalid-value"}},
		{"yields without request", tooled + "requests: [{user: hi}]\nexpect: [{yields: []}]\n", []string{"4:11 error expect-address"}},
		{"yields under a call", tooled + "requests:\n  - user: hi\n    planning: {expect: [{yields: []}]}\n", []string{"5:26 error expect-address"}},
		{"reply without address", tooled + "requests: [{user: hi}]\nexpect: [{reply: x}]\n", []string{"4:11 error expect-address"}},
		{"bad regex", tooled + "requests: [{user: hi}]\nexpect: [{request: 1, reply: {matches: '('}}]\n", []string{"4:40 error invalid-regex"}},
		{"message without text", tooled + "requests: [{user: hi}]\nexpect: [{sees_message: {role: user}}]\n", []string{"4:25 error missing-field"}},
		{"bad role", tooled + "requests: [{user: hi}]\nexpect: [{sees_message: {contains: x, role: sytem}}]\n", []string{"4:45 error invalid-value"}},
		{"order without before or after", tooled + "requests: [{user: hi}]\nexpect: [{order: {hook: x}}]\n", []string{"4:18 error missing-field"}},
		{"order bad tag", tooled + "requests: [{user: hi}]\nexpect: [{order: {hook: x, before: promt:planning}}]\n", []string{"4:36 error invalid-value"}},
		{"tool without status", tooled + "requests: [{user: hi}]\nexpect: [{tool: {name: read_file}}]\n", []string{"4:17 error missing-field"}},
		{"tool bad status", tooled + "requests: [{user: hi}]\nexpect: [{tool: {status: denyed}}]\n", []string{"4:26 error invalid-value"}},
		{"outcome bad value", tooled + "requests: [{user: hi}]\nexpect: [{hook_outcome: {hook: h, outcome: timedout}}]\n", []string{"4:44 error invalid-value"}},
		{"negative tokens", tooled + "requests: [{user: hi}]\nexpect: [{max_prompt_tokens: -1}]\n", []string{"4:30 error invalid-value"}},
		{"extension keys ignored", tooled + "requests: [{user: hi}]\nexpect: [{x-note: why, sees: {hook: m, x-a: 1}}]\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := Parse(testFile, []byte(tt.in))
			if got := keys(ds); !slices.Equal(got, nonNil(tt.want)) {
				t.Errorf("diagnostics %v, want %v", got, tt.want)
				for _, d := range ds {
					t.Log(d.Message)
				}
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestExpectSuggestions(t *testing.T) {
	tests := []struct{ in, want string }{
		{"expect: [{see: m}]", `Did you mean "sees"?`},
		{"expect: [{sees: {hok: m}}]", `Did you mean "hook"?`},
		{"expect: [{status: stoped}]", `Did you mean "stopped"?`},
		{"expect: [{not_see: m}]", `Did you mean "not_sees"?`},
	}
	for _, tt := range tests {
		_, ds := Parse(testFile, []byte(tooled+"requests: [{user: hi}]\n"+tt.in+"\n"))
		found := false
		for _, d := range ds {
			found = found || strings.Contains(d.Message, tt.want)
		}
		if !found {
			t.Errorf("%s: no diagnostic suggests %s: %v", tt.in, tt.want, ds)
		}
	}
}

func TestExpectationsResolve(t *testing.T) {
	in := tooled + `requests:
  - user: a
  - user: b
    expect:
      - {round: 2, sees: [x, s/y]}
    planning:
      expect: [{not_sees: z}]
    rounds:
      - tool_calls: [{name: read_file}]
      - content: done
        expect: [{sees_message: hi}]
expect:
  - {call: 3, max_prompt_tokens: 10}
`
	s, ds := Parse(testFile, []byte(in))
	if len(ds) > 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	type addr struct {
		Kind, Hook, Skill, Phase string
		Request, Call, Round     int
		Line                     int
	}
	deref := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	var got []addr
	for _, e := range s.Expectations() {
		got = append(got, addr{e.Kind, e.Hook, e.Skill, e.Phase, deref(e.Request), deref(e.Call), deref(e.Round), e.Line})
		if e.File != testFile || e.Path == "" || e.Column == 0 {
			t.Errorf("expectation without position: %+v", e)
		}
	}
	want := []addr{
		{"max_prompt_tokens", "", "", "", -1, 2, -1, 15},
		{"sees", "x", "", "agent", 1, -1, 2, 7},
		{"sees", "y", "s", "agent", 1, -1, 2, 7},
		{"not_sees", "z", "", "planning", 1, -1, -1, 9},
		{"sees_message", "", "", "agent", 1, -1, 1, 13},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resolved\n%+v\nwant\n%+v", got, want)
	}
}

// TestExpectCodesListed: every code the expectation parser emits is in
// Codes, which editors and the fuzz test rely on.
func TestExpectCodesListed(t *testing.T) {
	for _, c := range []string{CodeUnknownExpectation, CodeEmptyExpectation, CodeExpectAddress, CodeInvalidRegex} {
		if !slices.Contains(Codes(), c) {
			t.Errorf("Codes() lacks %s", c)
		}
	}
}
