package studio

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/convert"
)

// Export for another agent: the folders with hooks and the targets are
// offered; a plan says what cannot carry over at the source's positions
// (root-relative) and writes nothing; writing writes the plan, a second
// time changes nothing; a file in the way stops it until forced.
func TestExportFor(t *testing.T) {
	s, _, ctx := newService(t)
	root := claudeGuardRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	ch, err := s.ConvertChoices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ch.Sources, ConvertSource{Folder: "claude-guard", Agent: convert.ClaudeCode, Title: "Claude Code"}) {
		t.Errorf("sources: %+v", ch.Sources)
	}
	if len(ch.Targets) != len(convert.Targets()) || !slices.ContainsFunc(ch.Targets, func(c ConvertTarget) bool {
		return c.Agent == convert.ClaudeCode && c.Hosted
	}) {
		t.Errorf("targets: %+v", ch.Targets)
	}

	req := ConvertRequest{Source: "claude-guard", To: convert.Codex}
	p, err := s.PlanConversion(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "claude-guard-codex")
	if p.Dir != out || p.DirRel != "claude-guard-codex" || p.From != convert.ClaudeCode || !p.CanWrite || p.Wrote || p.Written != 3 || p.Left != 1 {
		t.Fatalf("plan: %+v", p)
	}
	if !slices.ContainsFunc(p.Diagnostics, func(d diag.Diagnostic) bool {
		return d.Code == convert.CodeSkillScoped && d.File == "claude-guard/skills/release/SKILL.md" && d.Line > 0 && d.Column > 0
	}) {
		t.Errorf("the skill's hook is not named at its position: %+v", p.Diagnostics)
	}
	hooks := fileOf(t, p, ".codex/hooks.json")
	var doc struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(hooks.Text), &doc); err != nil || doc.Hooks["PreToolUse"] == nil || hooks.Action != convert.ActionCreate {
		t.Errorf("hooks file %+v: %v", hooks, err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a plan wrote %s: %v", out, err)
	}

	p, err = s.WriteConversion(ctx, req)
	if err != nil || !p.Wrote {
		t.Fatalf("write: %v %+v", err, p)
	}
	for _, f := range p.Files {
		fi, err := os.Stat(filepath.Join(out, filepath.FromSlash(f.Path)))
		if err != nil || f.Role == "script" && fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: %v %v", f.Path, fi, err)
		}
	}
	if p, err = s.PlanConversion(ctx, req); err != nil || slices.ContainsFunc(p.Files, func(f ConvertFile) bool { return f.Action != convert.ActionUnchanged }) {
		t.Errorf("written again: %v %+v", err, p.Files)
	}

	// a script of other content in the way: nothing written, until forced
	guard := filepath.Join(out, ".codex/hooks/guard.sh")
	if err := os.WriteFile(guard, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err = s.WriteConversion(ctx, req)
	if err != nil || p.Wrote || p.CanWrite || len(p.Conflicts) != 1 || p.Conflicts[0].Code != convert.CodeExists || p.Conflicts[0].File != ".codex/hooks/guard.sh" {
		t.Fatalf("a file in the way: %v %+v", err, p)
	}
	if data, _ := os.ReadFile(guard); string(data) != "#!/bin/sh\nexit 0\n" {
		t.Error("the file in the way was replaced")
	}
	req.Force = true
	if p, err = s.WriteConversion(ctx, req); err != nil || !p.Wrote || fileOf(t, p, ".codex/hooks/guard.sh").Action != convert.ActionReplace {
		t.Errorf("forced: %v %+v", err, p)
	}

	// an explicit folder, the open folder's own layout for a package
	p, err = s.PlanConversion(ctx, ConvertRequest{Source: "claude-guard", To: convert.GeminiCLI, Dir: "out/gemini"})
	if err != nil || p.DirRel != "out/gemini" || p.Layout != convert.LayoutPackage {
		t.Errorf("to a folder: %v %+v", err, p)
	}
	// a folder without hooks, a folder that is none
	if _, err := s.PlanConversion(ctx, ConvertRequest{Source: "claude-guard/scenarios", To: convert.Codex}); !errors.Is(err, ErrNoHooksToConvert) {
		t.Errorf("no hooks: %v", err)
	}
	if _, err := s.PlanConversion(ctx, ConvertRequest{Source: "nowhere", To: convert.Codex}); err == nil {
		t.Error("a missing folder was converted")
	}
	if _, err := s.PlanConversion(ctx, ConvertRequest{Source: "claude-guard", To: "droid"}); !errors.Is(err, convert.ErrUnknownAgent) {
		t.Errorf("an unknown target: %v", err)
	}
}

// The same scenario under each agent whose hook system this build hosts:
// the folder's hooks converted, run in a scratch folder, the run kept for
// History's compare; an agent without a system, or an untrusted folder,
// is refused before anything runs.
func TestRenderUnder(t *testing.T) {
	data := t.TempDir()
	rec, hist := &recorder{}, &fakeRecorder{}
	s, err := New(withAppHooks(Config{DataDir: data, Tokens: counter(t), Emit: rec.emit, History: hist}, nil, nil))
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
	const file = "claude-guard/scenarios/release.yaml"
	if _, err := s.RenderUnder(ctx, file, convert.ClaudeCode); !errors.Is(err, ErrNotTrustedToRender) {
		t.Errorf("untrusted: %v", err)
	}
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	for _, agent := range convert.Targets() {
		t.Run(agent, func(t *testing.T) {
			if !s.hosts(agent) {
				if _, err := s.RenderUnder(ctx, file, agent); !errors.Is(err, ErrNotHosted) {
					t.Errorf("not hosted: %v", err)
				}
				return
			}
			id, err := s.RenderUnder(ctx, file, agent)
			if err != nil {
				t.Fatal(err)
			}
			hist.mu.Lock()
			run := hist.runs[int(id)-1]
			hist.mu.Unlock()
			if run.ScenarioFile != file || len(run.Trace.HookCalls) == 0 || run.Trace.Agent == nil || run.Trace.Agent.Agent != agent {
				t.Fatalf("kept %s with %d hook call(s), agent %+v", run.ScenarioFile, len(run.Trace.HookCalls), run.Trace.Agent)
			}
			// the guard blocked the recursive delete there too: a tool
			// message of the last call is its words in the tool's place
			words := ""
			for _, m := range run.Trace.CallMessages(len(run.Trace.Calls) - 1) {
				if m.Role == "tool" && m.InPlace && m.HookCall != nil {
					words = m.Content
				}
			}
			if words == "" {
				t.Fatal("no tool message of the last call is the converted guard's")
			}
			// with its reason: the adapter gives an agent that would show
			// the model only the exit code (Copilot CLI) a denial with it
			if !strings.Contains(words, "Recursive deletes are blocked") {
				t.Errorf("the converted guard's reason is not in its tool message %q", words)
			}
		})
	}
	if _, err := s.RenderUnder(ctx, file, "droid"); !errors.Is(err, convert.ErrUnknownAgent) {
		t.Errorf("droid: %v", err)
	}
	if _, err := s.RenderUnder(ctx, file, "claude-code@9.9.9"); !errors.Is(err, profile.ErrUnknownVersion) {
		t.Errorf("an unknown version: %v", err)
	}
}

func fileOf(t *testing.T, p ConvertPlan, path string) ConvertFile {
	t.Helper()
	i := slices.IndexFunc(p.Files, func(f ConvertFile) bool { return f.Path == path })
	if i < 0 {
		t.Fatalf("no %s in %+v", path, p.Files)
	}
	return p.Files[i]
}
