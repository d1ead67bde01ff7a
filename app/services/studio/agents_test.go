package studio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/store/history"
)

// claudeGuardRoot is the claude-guard example without its scenario's
// agent:, so the app's choice decides how it renders.
func claudeGuardRoot(t *testing.T) string {
	root := t.TempDir()
	copyTree(t, "../../../skills/claude-guard", filepath.Join(root, "claude-guard"))
	sc := filepath.Join(root, "claude-guard", "scenarios", "release.yaml")
	data, err := os.ReadFile(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sc, []byte(strings.Replace(string(data), "agent: claude-code@2.1.332\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// The app renders Claude Code's hooks as the version chosen (the picker
// beside "hosts as"), keeps the choice, and refuses a version without a
// profile; History's "render with another version" keeps a run of the
// same scenario rendered as another version.
func TestAgentVersionInTheApp(t *testing.T) {
	data := t.TempDir()
	agents, err := LoadAgents(data)
	if err != nil {
		t.Fatal(err)
	}
	rec, hist := &recorder{}, &fakeRecorder{}
	s, err := New(withAppHooks(Config{DataDir: data, Tokens: counter(t), Emit: rec.emit, History: hist, Agents: agents}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, claudeGuardRoot(t)); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	v := waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending })
	if v.Agent == nil || v.Agent.Agent != profile.ClaudeCode || v.Agent.Version == "" {
		t.Fatalf("the view does not say which version it renders as: %+v", v.Agent)
	}

	if err := agents.Choose(profile.ClaudeCode, "2.1.5"); !errors.Is(err, profile.ErrUnknownVersion) {
		t.Errorf("an unknown version was chosen: %v", err)
	}
	if err := agents.Choose(profile.ClaudeCode, "2.1.197"); err != nil {
		t.Fatal(err)
	}
	from = rec.len()
	s.Reload(ctx)
	v = waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending && v.Agent != nil && v.Agent.Version == "2.1.197" })
	if v.Agent.By != profile.ByFlag {
		t.Errorf("chosen in the app, the run says %q", v.Agent.By)
	}
	again, err := LoadAgents(data)
	if err != nil || again.Chosen(profile.ClaudeCode) != "2.1.197" {
		t.Errorf("the choice is not kept: %v %q", err, again.Chosen(profile.ClaudeCode))
	}

	// render the same scenario as 2.1.332: a run of its own in the history
	n := hist.count()
	id, err := s.RenderAs(ctx, v.File, "claude-code@2.1.332")
	if err != nil {
		t.Fatal(err)
	}
	hist.mu.Lock()
	run := hist.runs[int(id)-1]
	hist.mu.Unlock()
	if hist.count() <= n || run.Trace.Agent == nil || run.Trace.Agent.Version != "2.1.332" || run.Source != history.SourceApp || run.ScenarioFile != v.File {
		t.Fatalf("render as 2.1.332 kept %+v (agent %+v)", run, run.Trace.Agent)
	}
	seen := false
	for _, m := range run.Trace.CallMessages(len(run.Trace.Calls) - 1) {
		seen = seen || m.Role == "system" && strings.HasPrefix(m.Content, "PostToolUse:Edit hook additional context:")
	}
	if !seen {
		t.Error("the 2.1.332 rendering of the edit note is not in the run")
	}
	if _, err := s.RenderAs(ctx, v.File, "claude-code@9.9.9"); !errors.Is(err, profile.ErrUnknownVersion) {
		t.Errorf("render as an unknown version: %v", err)
	}
}
