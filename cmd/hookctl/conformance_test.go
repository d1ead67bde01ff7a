package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture"
)

// TestRealAgentClaudeCodeConformance: the same Claude Code hooks and the
// same scripted answers, once through the simulator and once through the
// real `claude -p` against an in-process capture, give the model the same
// hook-visible messages (testdata/claude-conformance: one project per
// case, its scenario in .hookstudio/scenarios/case.yaml) — for each pinned
// CLI, the simulator rendering with that version's profile. A prompt a
// hook blocks makes no request: what claude -p prints is the simulator's
// notice. What differs by nature (Claude Code's own system prompt, tools
// and attachments; the simulated agent's planning round) is not compared.
// The two CLIs run side by side.
func TestRealAgentClaudeCodeConformance(t *testing.T) {
	cases, err := os.ReadDir(filepath.Join("testdata", "claude-conformance"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cli := range pinnedClaude {
		t.Run(cli.version, func(t *testing.T) {
			t.Parallel()
			claude := agentTool(t, cli.rel)
			for _, c := range cases {
				t.Run(c.Name(), func(t *testing.T) {
					src := filepath.Join("testdata", "claude-conformance", c.Name())
					sc := loadCase(t, src)
					simulated := simulateCase(t, copyProject(t, src), cli.version)
					real := claudeCase(t, claude, copyProject(t, src), sc)
					compareCase(t, simulated, real)
				})
			}
		})
	}
}

// compareCase says where the simulator and the real CLI part.
func compareCase(t *testing.T, simulated, real visible) {
	t.Helper()
	if simulated.notice != "" || real.notice != "" {
		if simulated.notice != real.notice || real.requests != 0 {
			t.Errorf("a blocked prompt: the simulator says %q, claude -p printed %q after %d request(s)", simulated.notice, real.notice, real.requests)
		}
		t.Logf("claude -p printed %q", real.notice)
		return
	}
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
}

// visible is what hooks put before the model in the last call: messages
// hooks added (role: content) and tool results that are a hook's words.
// written maps the k-th tool result to its text where a hook wrote it (the
// simulator's side); results are every tool result's text (the real CLI's).
type visible struct {
	hooks, tools []string
	written      map[int]string
	results      []string
	notice       string // a blocked prompt's words to the user
	requests     int    // the real CLI's requests
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

func simulateCase(t *testing.T, proj, version string) visible {
	t.Helper()
	out, errOut, code := runCLI(t, "simulate", "--skills", proj, "--trust", "--no-history", "--json", "--agent", "claude-code@"+version,
		filepath.Join(proj, ".hookstudio", "scenarios", "case.yaml"))
	if code != exitOK {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	var doc struct {
		Steps []struct {
			HookCall *struct {
				System, Event, Outcome, Notice string
			} `json:"hook_call"`
		} `json:"steps"`
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
	v := visible{written: map[int]string{}}
	for _, st := range doc.Steps {
		if hc := st.HookCall; hc != nil && hc.System == "claude-code" && hc.Event == "UserPromptSubmit" && hc.Outcome == "blocked" {
			v.notice = hc.Notice
		}
	}
	calls := doc.Requests[0].LLMCalls
	if len(calls) == 0 {
		return v
	}
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
			v.hooks = append(v.hooks, m.Role+": "+strings.TrimRight(m.Content, "\n"))
		case m.Role == "tool" && (strings.Contains(m.Content, " hook ") || strings.HasPrefix(m.Content, "Hook ")): // in a hook's voice, as capture tells it
			v.tools = append(v.tools, m.Content)
		}
	}
	return v
}

// claudeCase runs the real CLI in proj against an in-process capture
// answering what the scenario's rounds script; the capture reads the hook
// texts with every bundled profile.
func claudeCase(t *testing.T, claude, proj string, sc *scenario.Scenario) visible {
	t.Helper()
	var answers []capture.Answer
	var allowed []string
	for _, rd := range sc.Requests[0].Rounds {
		a := capture.Answer{Content: rd.Content}
		for _, tc := range rd.ToolCalls {
			args, _ := json.Marshal(tc.Arguments)
			a.ToolCalls = append(a.ToolCalls, capture.ToolCall{Name: tc.Name, Arguments: args})
			if !slices.Contains(allowed, tc.Name) {
				allowed = append(allowed, tc.Name)
			}
		}
		answers = append(answers, a)
	}
	srv, err := capture.Listen(capture.Options{Answerer: scripted(answers)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	args := []string{"-p", sc.Requests[0].User}
	if len(allowed) > 0 {
		args = append(args, "--allowedTools", strings.Join(allowed, " "))
	}
	// the project's plugins, which the simulator reads as it reads the
	// project: the CLI loads them when told
	plugins, _ := filepath.Glob(filepath.Join(proj, "*", ".claude-plugin", "plugin.json"))
	for _, p := range plugins {
		args = append(args, "--plugin-dir", filepath.Dir(filepath.Dir(p)))
	}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	printed := runClaude(t, claude, proj, home, srv.URL(), "sk-ant-test", args...)
	_ = srv.Close() // every answered call recorded
	calls := srv.Calls()
	v := visible{requests: len(calls)}
	if len(calls) == 0 {
		v.notice = strings.TrimSuffix(string(printed), "\n")
		return v
	}
	if len(calls) != len(answers) {
		t.Fatalf("claude -p made %d model calls, the scenario scripts %d", len(calls), len(answers))
	}
	for _, m := range calls[len(calls)-1].Messages {
		if m.Role == "tool" {
			v.results = append(v.results, m.Content)
		}
		switch {
		case m.Role == "tool" && m.Origin == capture.OriginHook:
			v.tools = append(v.tools, m.Content)
		case m.Origin == capture.OriginHook:
			// a block another block follows ends with a newline (2.1.197): not the hook's
			v.hooks = append(v.hooks, m.Role+": "+strings.TrimRight(m.Content, "\n"))
		}
	}
	return v
}

// scripted answers the n-th request with the n-th answer.
type scripted []capture.Answer

func (s scripted) Answer(_ context.Context, n int, _ *capture.Request) (*capture.Answer, error) {
	if n >= len(s) {
		return nil, fmt.Errorf("%w: the case scripts %d answers", capture.ErrNoAnswer, len(s))
	}
	a := s[n]
	return &a, nil
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

// TestConformanceCoversEveryOutcome: the conformance cases, together,
// produce every outcome a Claude Code profile renders (read from what each
// case's hooks answered in the simulator), so the real CLIs check them all.
func TestConformanceCoversEveryOutcome(t *testing.T) {
	cases, err := os.ReadDir(filepath.Join("testdata", "claude-conformance"))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, c := range cases {
		proj := copyProject(t, filepath.Join("testdata", "claude-conformance", c.Name()))
		out, errOut, code := runCLI(t, "simulate", "--skills", proj, "--trust", "--no-history", "--json",
			filepath.Join(proj, ".hookstudio", "scenarios", "case.yaml"))
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.Name(), code, errOut)
		}
		var doc struct {
			Steps []struct {
				HookCall *struct {
					System, Event, Outcome string
					ExitCode               *int            `json:"exit_code"`
					Input                  json.RawMessage `json:"input"`
					Output                 json.RawMessage `json:"output"`
					OutputText             string          `json:"output_text"`
				} `json:"hook_call"`
			} `json:"steps"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		resolved := resolvedPaths(loadCase(t, filepath.Join("testdata", "claude-conformance", c.Name())))
		for _, st := range doc.Steps {
			hc := st.HookCall
			if hc == nil || hc.System != "claude-code" {
				continue
			}
			event, _, _ := strings.Cut(hc.Event, ":")
			for _, kind := range outputKinds(hc.ExitCode, hc.Output, hc.OutputText, resolved(hc.Input)) {
				covered[profile.ID(event, kind)] = true
			}
		}
	}
	for _, s := range profile.Outcomes(profile.ClaudeCode) {
		if !covered[s.ID] {
			t.Errorf("no conformance case produces %s (%s)", s.ID, s.Hook)
		}
	}
}

// resolvedPaths says of a hook's stdin whether its call is one whose
// relative file path (as the scenario's model wrote it) Claude Code
// resolved before the hook read it.
func resolvedPaths(sc *scenario.Scenario) func(input json.RawMessage) bool {
	var rel []string
	for _, r := range sc.Requests {
		for _, rd := range r.Rounds {
			for _, tc := range rd.ToolCalls {
				if p, ok := tc.Arguments["file_path"].(string); ok && !filepath.IsAbs(p) {
					rel = append(rel, p)
				}
			}
		}
	}
	return func(input json.RawMessage) bool {
		var in struct {
			ToolInput struct {
				FilePath string `json:"file_path"`
			} `json:"tool_input"`
		}
		_ = json.Unmarshal(input, &in)
		return slices.ContainsFunc(rel, func(p string) bool { return strings.HasSuffix(in.ToolInput.FilePath, "/"+p) })
	}
}

// outputKinds are the kinds of output one hook call gave (resolved: of a
// call whose file path Claude Code resolved).
func outputKinds(exit *int, output json.RawMessage, text string, resolved bool) []string {
	if exit != nil && *exit == 2 {
		return []string{profile.KindExit2}
	}
	var out struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		Specific struct {
			AdditionalContext        string `json:"additionalContext"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	var kinds []string
	if len(output) == 0 {
		if text != "" && (exit == nil || *exit == 0) {
			kinds = append(kinds, profile.KindStdout)
		}
		return kinds
	}
	_ = json.Unmarshal(output, &out)
	if out.Decision == "block" {
		kinds = append(kinds, profile.KindBlock)
	}
	if out.Specific.AdditionalContext != "" {
		kinds = append(kinds, profile.KindContext)
	}
	deny := out.Specific.PermissionDecision == "deny" || out.Decision == "block"
	switch {
	case deny && resolved && out.Specific.PermissionDecisionReason == "" && out.Reason == "":
		kinds = append(kinds, profile.KindDenyResolvedNoReason)
	case deny && resolved:
		kinds = append(kinds, profile.KindDenyResolved)
	case deny && out.Specific.PermissionDecisionReason == "" && out.Reason == "":
		kinds = append(kinds, profile.KindDenyNoReason)
	case out.Specific.PermissionDecision == "deny":
		kinds = append(kinds, profile.KindDeny)
	case out.Specific.PermissionDecision == "ask" && out.Specific.PermissionDecisionReason != "":
		kinds = append(kinds, profile.KindAsk)
	case out.Specific.PermissionDecision == "ask":
		kinds = append(kinds, profile.KindAskNoReason)
	}
	return kinds
}
