package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var summaryLine = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed\n\z`)

// examples is a copy of the prompt-hook example skills a test may change
// (the ones with executable hooks would need --trust).
func examples(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, skill := range []string{"file-tools", "persona-memory", "pitfalls", "planner"} {
		copyTree(t, filepath.Join("..", "..", "skills", skill), filepath.Join(dir, skill))
	}
	return dir
}

type jsonTest struct {
	Scenarios []struct {
		File        string     `json:"file"`
		Status      string     `json:"status"`
		Diagnostics []jsonDiag `json:"diagnostics"`
		Results     []struct {
			Kind     string   `json:"kind"`
			Call     *int     `json:"call"`
			Request  *int     `json:"request"`
			Expected string   `json:"expected"`
			Actual   string   `json:"actual"`
			Pass     bool     `json:"pass"`
			Want     []string `json:"want"`
			Got      []string `json:"got"`
			Messages []string `json:"messages"`
			File     string   `json:"file"`
			Line     int      `json:"line"`
		} `json:"results"`
		Passed int `json:"passed"`
		Failed int `json:"failed"`
	} `json:"scenarios"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

func testJSON(t *testing.T, args ...string) (jsonTest, int) {
	t.Helper()
	out, stderr, code := runCLI(t, append([]string{"test", "--json"}, args...)...)
	var got jsonTest
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON (exit %d, stderr %s): %v\n%s", code, stderr, err, out)
	}
	return got, code
}

// TestTestExamplesPass: every example scenario states its README's facts
// and they hold. This is `hookctl test skills` in `make test`.
func TestTestExamplesPass(t *testing.T) {
	out, stderr, code := runCLI(t, "test", "--trust", filepath.Join("..", "..", "skills"))
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s\n%s", code, stderr, out)
	}
	m := summaryLine.FindStringSubmatch(out)
	if m == nil || m[2] != "0" || m[1] == "0" {
		t.Fatalf("summary line missing or wrong:\n%s", out)
	}
	got, _ := testJSON(t, "--trust", filepath.Join("..", "..", "skills"))
	for _, name := range []string{"file-tools/scenarios/fix-line-limit.yaml", "persona-memory/scenarios/remembered-profile.yaml",
		"pitfalls/scenarios/pile-up.yaml", "planner/scenarios/answer-without-tools.yaml",
		"planner/scenarios/multi-step-change.yaml", "planner/scenarios/tools-disabled.yaml",
		"guard-rails/scenarios/guarded-session.yaml", "plugin-tools/scenarios/plugin-tools.yaml", "plugin-tools/scenarios/with-approval.yaml",
		"pitfalls/scenarios/ops-policy.yaml",
		"claude-guard/scenarios/release.yaml", "codex-guard/scenarios/release.yaml", "qwen-guard/scenarios/release.yaml",
		"gemini-guard/scenarios/release.yaml", "copilot-guard/scenarios/release.yaml"} {
		found := false
		for _, s := range got.Scenarios {
			if s.File == name {
				found = true
				if s.Passed < 5 || s.Failed != 0 {
					t.Errorf("%s: %d passed, %d failed; every example states its README's facts", name, s.Passed, s.Failed)
				}
			}
		}
		if !found {
			t.Errorf("%s was not tested", name)
		}
	}
}

// TestTestBrokenHook: a hook changed to break a fact the README states
// fails, with the call, what was expected and what the call saw.
func TestTestBrokenHook(t *testing.T) {
	dir := examples(t)
	hooks := filepath.Join(dir, "file-tools", "hooks", "hooks.json")
	data, err := os.ReadFile(hooks)
	if err != nil {
		t.Fatal(err)
	}
	// search_text no longer triggers the hint: round 3 sees one copy, not two.
	broken := strings.Replace(string(data), `"tool_filter": ["read_file", "search_text"]`, `"tool_filter": ["read_file"]`, 1)
	if broken == string(data) {
		t.Fatal("the example hooks.json changed; update this test")
	}
	if err := os.WriteFile(hooks, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	scenarioFile := filepath.Join(dir, "file-tools", "scenarios", "fix-line-limit.yaml")
	got, code := testJSON(t, dir, scenarioFile)
	if code != exitProblems || got.Failed == 0 {
		t.Fatalf("exit %d, %d failed; want a failure", code, got.Failed)
	}
	var failures []string
	for _, r := range got.Scenarios[0].Results {
		if r.Pass {
			continue
		}
		call := -1
		if r.Call != nil {
			call = *r.Call
		}
		failures = append(failures, r.Kind)
		// Round 3 is LLM call #5 (index 4): it saw one copy of the hint.
		if r.Kind == "sees" && call == 4 {
			if strings.Join(r.Want, "|") != "truncated-content-hint ×2" || strings.Join(r.Got, "|") != "truncated-content-hint ×1" {
				t.Errorf("want/got %v / %v", r.Want, r.Got)
			}
			if r.Line == 0 || r.File != "file-tools/scenarios/fix-line-limit.yaml" || len(r.Messages) == 0 {
				t.Errorf("failure without position or messages: %+v", r)
			}
			return
		}
	}
	t.Errorf("no sees failure for call #5; failures: %v", failures)
}

// TestTestReadableFailure pins the text of a failure: where, what was
// expected, what the call saw, a diff and the messages around the spot.
func TestTestReadableFailure(t *testing.T) {
	dir := examples(t)
	hooks := filepath.Join(dir, "file-tools", "hooks", "hooks.json")
	data, _ := os.ReadFile(hooks)
	os.WriteFile(hooks, []byte(strings.Replace(string(data), `"tool_filter": ["read_file", "search_text"]`, `"tool_filter": ["read_file"]`, 1)), 0o644)
	out, _, code := runCLI(t, "test", dir, filepath.Join(dir, "file-tools", "scenarios", "fix-line-limit.yaml"))
	if code != exitProblems {
		t.Fatalf("exit %d", code)
	}
	golden := filepath.Join("testdata", "golden", "test-broken-hook.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/hookctl -update)", err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/hookctl -update after checking):\n%s", golden, out)
	}
}

// TestTestJUnit parses the JUnit report back: one suite per scenario, one
// case per result, failures typed by kind, counts that add up.
func TestTestJUnit(t *testing.T) {
	dir := examples(t)
	hooks := filepath.Join(dir, "planner", "hooks", "hooks.json")
	data, _ := os.ReadFile(hooks)
	// step-check becomes persistent: it piles up and enters the history.
	os.WriteFile(hooks, []byte(strings.Replace(string(data), `"timing": "before_each_agent",
      "role": "user",
      "persistent": false`, `"timing": "before_each_agent",
      "role": "user",
      "persistent": true`, 1)), 0o644)
	report := filepath.Join(t.TempDir(), "report.xml")
	got, code := testJSON(t, dir, "--junit", report)
	if code != exitProblems {
		t.Fatalf("exit %d", code)
	}
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Line      int    `xml:"line,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &suites); err != nil {
		t.Fatalf("junit is not XML: %v\n%s", err, raw)
	}
	if suites.Tests != got.Passed+got.Failed || suites.Failures != got.Failed || suites.Errors != 0 {
		t.Errorf("junit counts %d tests, %d failures; JSON %d passed, %d failed", suites.Tests, suites.Failures, got.Passed, got.Failed)
	}
	if len(suites.Suites) != len(got.Scenarios) {
		t.Fatalf("%d suites for %d scenarios", len(suites.Suites), len(got.Scenarios))
	}
	kinds := map[string]bool{}
	for i, s := range suites.Suites {
		if s.Name != got.Scenarios[i].File || s.Tests != len(s.Cases) || s.Failures != got.Scenarios[i].Failed {
			t.Errorf("suite %s: %d tests, %d failures; want %s with %d failed", s.Name, s.Tests, s.Failures, got.Scenarios[i].File, got.Scenarios[i].Failed)
		}
		for _, c := range s.Cases {
			if c.Name == "" || c.Classname != s.Name || c.Line == 0 {
				t.Errorf("incomplete case %+v", c)
			}
			if c.Failure != nil {
				kinds[c.Failure.Type] = true
				if !strings.Contains(c.Failure.Text, "expected:") || c.Failure.Message == "" {
					t.Errorf("failure without detail: %+v", c.Failure)
				}
			}
		}
	}
	// A persistent step-check piles up (sees ×1 fails) and is yielded.
	if !kinds["sees"] || !kinds["yields"] {
		t.Errorf("failure kinds %v, want sees and yields", kinds)
	}
}

// TestTestUpdateRoundTrip: --update writes the observations into a
// scenario that had none, keeping its comments; then the scenario passes.
func TestTestUpdateRoundTrip(t *testing.T) {
	dir := examples(t)
	file := filepath.Join(dir, "pitfalls", "scenarios", "pile-up.yaml")
	data, _ := os.ReadFile(file)
	// Start from the scenario without expectations.
	plain, _, _ := strings.Cut(string(data), "# What the skill's README claims")
	os.WriteFile(file, []byte(plain), 0o644)
	out, stderr, code := runCLI(t, "test", "--update", dir, file)
	if code != exitOK {
		t.Fatalf("update: exit %d, %s\n%s", code, stderr, out)
	}
	after, _ := os.ReadFile(file)
	for _, comment := range []string{"# Three agent rounds: progress-log is injected three times", "# No agent loop here, yet the planning call already carries five"} {
		if !strings.Contains(string(after), comment) {
			t.Errorf("comment %q lost by --update:\n%s", comment, after)
		}
	}
	if !strings.Contains(string(after), "copies: 5") || !strings.Contains(string(after), "status: ok") {
		t.Errorf("observations not written:\n%s", after)
	}
	got, code := testJSON(t, dir, file)
	if code != exitOK || got.Failed != 0 || got.Passed < 10 {
		t.Errorf("after --update: exit %d, %d passed, %d failed", code, got.Passed, got.Failed)
	}
	// The snapshot catches a change: progress-log made non-persistent.
	hooks := filepath.Join(dir, "pitfalls", "hooks", "hooks.json")
	hd, _ := os.ReadFile(hooks)
	os.WriteFile(hooks, []byte(strings.Replace(string(hd), `"persistent": true`, `"persistent": false`, 1)), 0o644)
	if got, code := testJSON(t, dir, file); code != exitProblems || got.Failed == 0 {
		t.Errorf("snapshot did not catch the change: exit %d, %d failed", code, got.Failed)
	}
}

// TestTestBrokenExpectationNeverPasses: an invalid expectation is a
// failure with a positioned diagnostic, and so is one about a call that
// does not exist.
func TestTestBrokenExpectationNeverPasses(t *testing.T) {
	dir := examples(t)
	file := filepath.Join(dir, "planner", "scenarios", "tools-disabled.yaml")
	data, _ := os.ReadFile(file)
	tests := []struct {
		name, add string
		status    string
		code      string
	}{
		{"unknown kind", "  - {call: 1, see: request-scope}\n", "invalid", "unknown-expectation"},
		{"wrong shape", "  - {call: 1, sees: {hook: request-scope, copies: many}}\n", "invalid", "wrong-type"},
		{"call that does not exist", "  - {call: 9, not_sees: request-scope}\n", "ok", ""},
		{"round that never plays", "  - {request: 1, round: 0, not_sees: step-check}\n", "ok", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.WriteFile(file, append(append([]byte{}, data...), tt.add...), 0o644)
			got, code := testJSON(t, dir, file)
			if code != exitProblems || got.Failed == 0 {
				t.Fatalf("exit %d, %d failed; a broken expectation must fail", code, got.Failed)
			}
			s := got.Scenarios[0]
			if s.Status != tt.status {
				t.Errorf("status %s, want %s", s.Status, tt.status)
			}
			if tt.code != "" {
				found := false
				for _, d := range s.Diagnostics {
					found = found || (d.Code == tt.code && d.Line > 0 && d.Column > 0)
				}
				if !found {
					t.Errorf("no positioned %s diagnostic: %+v", tt.code, s.Diagnostics)
				}
				return
			}
			last := s.Results[0] // the added line is the file's last
			for _, r := range s.Results {
				if r.Line > last.Line {
					last = r
				}
			}
			if last.Pass || last.Call != nil {
				t.Errorf("expectation about nothing: %+v", last)
			}
		})
	}
	out, _, _ := runCLI(t, "test", dir, file)
	if !strings.Contains(out, "tools-disabled.yaml:") || !summaryLine.MatchString(out) {
		t.Errorf("human output lacks the position or the summary:\n%s", out)
	}
}

func TestTestUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"bad color", []string{"test", "--color=pink"}, exitUsage},
		{"unknown flag", []string{"test", "--nope"}, exitUsage},
		{"scenario outside the root", []string{"test", filepath.Join("..", "..", "skills"), "main.go"}, exitUsage},
		{"missing scenario", []string{"test", filepath.Join("..", "..", "skills"), filepath.Join("..", "..", "skills", "nope.yaml")}, exitUsage},
		{"trust accepted", []string{"test", filepath.Join("..", "..", "skills"), "--trust"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, stderr, code := runCLI(t, tt.args...); code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
		})
	}
}

// execFolder is a skills folder whose command hook skips every rm -rf.
func execFolder(t *testing.T, expect string) (dir, file string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"ops/hooks/hooks.yaml": `pre_tool_execution:
  - name: block-rm
    command: "grep -q 'rm -rf' && echo '{\"action\": \"skip\", \"system_message\": \"blocked\"}' || echo '{}'"
    filter:
      tool_name: run_command
`,
		"ops/scenarios/clean.yaml": `name: clean
tools: [{name: run_command}]
requests:
  - user: clean up
    planning: {need_tool: true, content: "1. clean"}
    rounds:
      - tool_calls:
          - {name: run_command, arguments: {command: "rm -rf build"}, result: removed}
          - {name: run_command, arguments: {command: "ls"}, result: "a b"}
      - content: done
expect:
` + expect,
	}
	for p, c := range files {
		p = filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(dir, "ops", "scenarios", "clean.yaml")
}

// TestTestExecutableHooks checks the kinds about executable hooks end to
// end: a real command hook skips a tool call, with --trust.
func TestTestExecutableHooks(t *testing.T) {
	tests := []struct {
		expect string
		pass   bool
	}{
		{"  - {round: 0, tool: {name: run_command, status: skipped, count: 1}}\n", true},
		{"  - {round: 0, tool: {name: run_command, status: ran, count: 1}}\n", true},
		{"  - {tool: {name: run_command, status: denied}}\n", false},
		{"  - {round: 0, hook_outcome: {hook: block-rm, outcome: skipped, count: 1}}\n", true},
		{"  - {round: 0, hook_outcome: {hook: block-rm, outcome: ok, count: 1}}\n", true},
		{"  - {hook_outcome: {hook: block-rm, outcome: timeout}}\n", false},
		{"  - {event: {name: pre_tool_execution, hook: block-rm, count: 2}}\n", true},
		{"  - {event: before_tool}\n", true},
		{"  - {event: post_tool_execution}\n", false},
		{"  - {round: 1, sees_message: {role: tool, contains: removed, count: 0}}\n", true},
		{"  - status: ok\n", true},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.expect), func(t *testing.T) {
			dir, file := execFolder(t, tt.expect)
			got, code := testJSON(t, dir, file, "--trust")
			if len(got.Scenarios) != 1 || len(got.Scenarios[0].Results) != 1 {
				t.Fatalf("exit %d, %+v", code, got)
			}
			r := got.Scenarios[0].Results[0]
			if r.Pass != tt.pass || (code == exitOK) != tt.pass {
				t.Errorf("pass %v (exit %d), want %v: expected %s; actual %s", r.Pass, code, tt.pass, r.Expected, r.Actual)
			}
		})
	}
}

// TestTestNeedsTrust: a folder with command hooks is refused without
// --trust, listing what would run, as simulate does.
func TestTestNeedsTrust(t *testing.T) {
	dir, file := execFolder(t, "  - status: ok\n")
	_, stderr, code := runCLI(t, "test", dir, file)
	if code != exitNotTrusted || !strings.Contains(stderr, "--trust") || !strings.Contains(stderr, "ops/hooks/hooks.yaml") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if _, _, code := runCLI(t, "test", dir, file, "--trust"); code != exitOK {
		t.Errorf("with --trust: exit %d", code)
	}
}
