package studio

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
)

// TestOpsPolicyLive: the live simulation answers the scenario's approvals
// with its script and keeps its budget, as hookctl test does, so every
// expectation of skills/pitfalls/scenarios/ops-policy.yaml passes in the
// app too, and the denied run_command's tool message carries the scripted
// feedback. The scenario starts no process, so the folder needs no trust.
func TestOpsPolicyLive(t *testing.T) {
	root := t.TempDir()
	copyTree(t, "../../../skills/pitfalls", filepath.Join(root, "pitfalls"))
	rec := &recorder{}
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.Select(ctx, "pitfalls/scenarios/ops-policy.yaml"); err != nil {
		t.Fatal(err)
	}
	v := waitTrace(t, rec, from, func(v TraceView) bool {
		return v.File == "pitfalls/scenarios/ops-policy.yaml" && !v.Pending && v.Status != "running"
	})
	if v.Status != "ok" || v.Exec.NotRun != "" {
		t.Fatalf("status %s %s, exec %+v", v.Status, v.Error, v.Exec)
	}
	if len(v.Expectations) != 12 {
		t.Fatalf("%d expectation results, want the scenario's 12", len(v.Expectations))
	}
	for _, r := range v.Expectations {
		if !r.Pass {
			t.Errorf("expectation at line %d (%s) fails: %+v", r.Line, r.Kind, r)
		}
	}
	var denied, feedback bool
	for _, st := range v.Steps {
		if hc := st.HookCall; hc != nil && hc.System == "policy" && hc.Hook == "approval" && hc.Outcome == engine.OutcomeDenied {
			denied = true
		}
	}
	for _, m := range v.Messages {
		if m.Role == "tool" && strings.Contains(m.Content, "Do not restart production services from the agent") {
			feedback = true
		}
	}
	if !denied || !feedback {
		t.Fatalf("the scripted denial is missing: policy hook call %v, tool message %v", denied, feedback)
	}
}

// TestScriptedApprovalNeedsNoTrust: a folder with no executable hooks
// (here, no loader at all) still answers the scenario's approvals with its
// script: the denied read_file's tool message carries the feedback, and
// the next call sees it.
func TestScriptedApprovalNeedsNoTrust(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	write(t, filepath.Join(root, "files/scenarios/demo.yaml"), scenarioYAML+`approval: {tools: [read_file]}
approvals:
  - {tool: read_file, decision: deny, feedback: NOT-THAT-FILE}
expect:
  - {round: 0, tool: {name: read_file, status: denied}}
  - {round: 1, sees_message: {role: tool, contains: NOT-THAT-FILE}}
`)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	v := s.Trace()
	if v.Status != "ok" || v.Exec.Ran {
		t.Fatalf("status %s, exec %+v", v.Status, v.Exec)
	}
	if got := strings.Join(passes(v.Expectations), ", "); strings.Contains(got, "FAIL") || len(v.Expectations) != 2 {
		t.Fatalf("expectations: %s", got)
	}
}
