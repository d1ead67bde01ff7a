package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/agent/scenario"
)

// TestRealAgentClaudeCodeConformance: the same Claude Code hooks and the
// same scripted answers, once through the simulator and once through the
// real `claude -p` against hookctl capture, give the model the same
// hook-visible messages (testdata/claude-conformance: one project per
// case, its scenario in .hookstudio/scenarios/case.yaml). What differs by
// nature (Claude Code's own system prompt, tools and attachments; the
// simulated agent's planning round) is not compared.
func TestRealAgentClaudeCodeConformance(t *testing.T) {
	claude := agentTool(t, "node_modules/.bin/claude")
	cases, err := os.ReadDir(filepath.Join("testdata", "claude-conformance"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			src := filepath.Join("testdata", "claude-conformance", c.Name())
			sc := loadCase(t, src)
			simulated := simulateCase(t, copyProject(t, src))
			real := claudeCase(t, claude, copyProject(t, src), sc)
			if !slices.Equal(byEvent(simulated.hooks), byEvent(real.hooks)) {
				t.Errorf("hook messages of the last call\nsimulator %q\nclaude -p  %q", simulated.hooks, real.hooks)
			}
			if !slices.Equal(simulated.tools, real.tools) {
				t.Errorf("tool results that carry hook text\nsimulator %q\nclaude -p  %q", simulated.tools, real.tools)
			}
			// every tool result a hook wrote in the simulator (a deny's bare
			// reason too) is the real CLI's tool result at the same place
			for k, text := range simulated.written {
				if k >= len(real.results) || real.results[k] != text {
					t.Errorf("tool result %d: simulator %q (written by a hook), claude -p %q", k, text, at(real.results, k))
				}
			}
			t.Logf("hook text the model read: %q %q; tool results a hook wrote: %v", real.hooks, real.tools, simulated.written)
			if len(real.hooks)+len(real.tools)+len(simulated.written) == 0 {
				t.Error("the case shows no hook text: it proves nothing")
			}
		})
	}
}

// visible is what hooks put before the model in the last call: messages
// hooks added (role: content) and tool results that are a hook's words.
// written maps the k-th tool result to its text where a hook wrote it (the
// simulator's side); results are every tool result's text (the real CLI's).
type visible struct {
	hooks, tools []string
	written      map[int]string
	results      []string
}

// eventRe finds the event a hook message speaks for ("UserPromptSubmit
// hook success: …", "<system-reminder>\nPostToolUse:Bash hook …").
var eventRe = regexp.MustCompile(`\b([A-Z][A-Za-z]+)(?::[\w.-]+)? hook `)

// byEvent sorts each run of consecutive messages of one event: the real
// CLI runs an event's handlers in parallel and places their output in the
// order they finish (seen under load), the simulator in declaration order.
func byEvent(msgs []string) []string {
	out := slices.Clone(msgs)
	event := func(m string) string {
		if e := eventRe.FindStringSubmatch(m); e != nil {
			return e[1]
		}
		return m
	}
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && event(out[j]) == event(out[i]) {
			j++
		}
		slices.Sort(out[i:j])
		i = j
	}
	return out
}

func at(list []string, k int) string {
	if k < len(list) {
		return list[k]
	}
	return "(none)"
}

func loadCase(t *testing.T, dir string) *scenario.Scenario {
	t.Helper()
	sc, _, err := scenario.LoadFile(dir, ".hookstudio/scenarios/case.yaml")
	if err != nil || sc == nil {
		t.Fatalf("scenario: %v", err)
	}
	return sc
}

// copyProject copies a case (scripts keep their mode) so hooks that write
// files leave the testdata alone.
func copyProject(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "project")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func simulateCase(t *testing.T, proj string) visible {
	t.Helper()
	out, errOut, code := runCLI(t, "simulate", "--skills", proj, "--trust", "--no-history", "--json",
		filepath.Join(proj, ".hookstudio", "scenarios", "case.yaml"))
	if code != exitOK {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	var doc struct {
		Requests []struct {
			LLMCalls []struct {
				Messages []struct {
					Role, Content, Origin, System string
					EditedBy                      string `json:"edited_by"`
				} `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) == 0 {
		t.Fatalf("simulate --json: %v", err)
	}
	calls := doc.Requests[0].LLMCalls
	v := visible{written: map[int]string{}}
	k := 0
	for _, m := range calls[len(calls)-1].Messages {
		if m.Role == "tool" {
			if m.System == "claude-code" && m.EditedBy != "" {
				v.written[k] = m.Content
			}
			k++
		}
		switch {
		case m.Origin == "hook" && m.System == "claude-code":
			v.hooks = append(v.hooks, m.Role+": "+m.Content)
		case m.Role == "tool" && (strings.Contains(m.Content, " hook ") || strings.HasPrefix(m.Content, "Hook ")): // in a hook's voice, as capture tells it
			v.tools = append(v.tools, m.Content)
		}
	}
	return v
}

// claudeCase runs the real CLI in proj against hookctl capture answering
// what the scenario's rounds script.
func claudeCase(t *testing.T, claude, proj string, sc *scenario.Scenario) visible {
	t.Helper()
	type call struct {
		Name      string         `yaml:"name"`
		Arguments map[string]any `yaml:"arguments"`
	}
	type answer struct {
		Content   string `yaml:"content,omitempty"`
		ToolCalls []call `yaml:"tool_calls,omitempty"`
	}
	var answers []answer
	var allowed []string
	for _, rd := range sc.Requests[0].Rounds {
		a := answer{Content: rd.Content}
		for _, tc := range rd.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, call{Name: tc.Name, Arguments: tc.Arguments})
			if !slices.Contains(allowed, tc.Name) {
				allowed = append(allowed, tc.Name)
			}
		}
		answers = append(answers, a)
	}
	data, err := yaml.Marshal(map[string]any{"answers": answers})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file, home := filepath.Join(dir, "answers.yaml"), filepath.Join(dir, "home")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "capture.json")
	url, wait := startCapture(t, "--answers", file, "--max-requests", itoa(len(answers)), "--json", out, "--no-history")
	args := []string{"-p", sc.Requests[0].User}
	if len(allowed) > 0 {
		args = append(args, "--allowedTools", strings.Join(allowed, " "))
	}
	runClaude(t, claude, proj, home, url, "sk-ant-test", args...)
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc capturedDoc
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Requests) != 1 {
		t.Fatalf("capture: %v", err)
	}
	calls := doc.Requests[0].LLMCalls
	if len(calls) != len(answers) {
		t.Fatalf("claude -p made %d model calls, the scenario scripts %d", len(calls), len(answers))
	}
	var v visible
	for _, m := range calls[len(calls)-1].Messages {
		if m.Role == "tool" {
			v.results = append(v.results, m.Content)
		}
		switch {
		case m.Role == "tool" && m.Origin == "hook":
			v.tools = append(v.tools, m.Content)
		case m.Origin == "hook":
			v.hooks = append(v.hooks, m.Role+": "+m.Content)
		}
	}
	return v
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestByEvent(t *testing.T) {
	got := byEvent([]string{"system: SessionStart:startup hook success: B", "system: SessionStart hook additional context: A",
		"system: UserPromptSubmit hook success: Z", "system: UserPromptSubmit hook additional context: Y", "user: Stop hook feedback:\nX"})
	want := []string{"system: SessionStart hook additional context: A", "system: SessionStart:startup hook success: B",
		"system: UserPromptSubmit hook additional context: Y", "system: UserPromptSubmit hook success: Z", "user: Stop hook feedback:\nX"}
	if !slices.Equal(got, want) {
		t.Errorf("byEvent = %q", got)
	}
}
