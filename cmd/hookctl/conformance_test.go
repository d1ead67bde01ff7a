package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture"
)

// TestRealAgentClaudeCodeConformance: every conformance project of Claude
// Code (testdata/claude-conformance: one project per case, its scenario in
// .hookstudio/scenarios/case.yaml), through the real `claude -p` against
// an in-process capture and through the simulator with that CLI's
// calibrated request model, gives the same calls: as many, each with the
// same messages — the CLI's system prompt, its context around the prompt,
// the hooks' words, the conversation — and the same tools, for both
// pinned CLIs. A prompt a hook blocks makes no request: what claude -p
// prints is the simulator's notice. The two CLIs run side by side.
func TestRealAgentClaudeCodeConformance(t *testing.T) {
	cases, err := os.ReadDir(filepath.Join("testdata", "claude-conformance"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cli := range pinnedClaude {
		t.Run(cli.version, func(t *testing.T) {
			t.Parallel()
			claude := agentTool(t, cli.rel)
			calibrateOnce(t, profile.ClaudeCode, claude)
			for _, c := range cases {
				t.Run(c.Name(), func(t *testing.T) {
					src := filepath.Join("testdata", "claude-conformance", c.Name())
					sc := loadCase(t, src)
					home := filepath.Join(t.TempDir(), "home")
					if err := os.MkdirAll(home, 0o755); err != nil {
						t.Fatal(err)
					}
					simProj := copyProject(t, src)
					out, errOut, code := simulateAgent(t, "--skills", simProj, "--trust", "--no-history", "--json", "--agent", "claude-code@"+cli.version,
						"--home", home, filepath.Join(simProj, ".hookstudio", "scenarios", "case.yaml"))
					if code != exitOK {
						t.Fatalf("simulate: exit %d: %s", code, errOut)
					}
					realProj := copyProject(t, src)
					real, printed := claudeCalls(t, claude, realProj, home, sc)
					if len(real) == 0 {
						// a blocked prompt: the simulator's notice is what the CLI printed
						if notice := blockedNotice(t, out); notice != printed {
							t.Errorf("a blocked prompt: the simulator says %q, claude -p printed %q", notice, printed)
						}
						return
					}
					sim, m := simulatedCalls(t, out)
					compareRequests(t, sim, real, requestNorm(m, simProj, realProj))
				})
			}
		})
	}
}

// blockedNotice is what the simulation says a UserPromptSubmit hook that
// blocked the prompt told the user ("" none).
func blockedNotice(t *testing.T, out string) string {
	t.Helper()
	var doc struct {
		Steps []struct {
			HookCall *struct {
				System, Event, Outcome, Notice string
			} `json:"hook_call"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("simulate --json: %v", err)
	}
	for _, st := range doc.Steps {
		if hc := st.HookCall; hc != nil && hc.System == "claude-code" && hc.Event == "UserPromptSubmit" && hc.Outcome == "blocked" {
			return hc.Notice
		}
	}
	return ""
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

// scripted answers the n-th request with the n-th answer.
type scripted []capture.Answer

// scriptedSub answers the session's requests from main and a
// sub-agent's (those capture.SubagentHeader names) from sub, each by its
// own count: Claude Code sends the sub-agent's calls between the
// session's.
type scriptedSub struct {
	main, sub scripted
	mu        sync.Mutex
	n         map[bool]int
}

func (s *scriptedSub) Answer(ctx context.Context, _ int, req *capture.Request) (*capture.Answer, error) {
	s.mu.Lock()
	sub := req.Subagent != ""
	n := s.n[sub]
	s.n[sub]++
	s.mu.Unlock()
	if sub {
		return s.sub.Answer(ctx, n, req)
	}
	return s.main.Answer(ctx, n, req)
}

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
		if !covered[s.ID] && !subagentOutcome(s.ID) {
			t.Errorf("no conformance case produces %s (%s)", s.ID, s.Hook)
		}
	}
}

// subagentOutcome says whether an outcome is a sub-agent's hook's: the
// conformance cases compare whole requests, which a sub-agent's are not
// until its own request model is calibrated, so the real CLIs check them
// in TestRealAgentClaudeCodeSubagentSessions and the simulator's words in
// claudehook's TestSubagentHooks.
func subagentOutcome(id string) bool { return strings.HasPrefix(id, "Subagent") }

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
