package studio

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/hooks/hooksets"
)

func TestUserHooksSetting(t *testing.T) {
	dir := t.TempDir()
	u, err := LoadUserHooks(dir)
	if err != nil || u.Get() != "" {
		t.Fatalf("fresh setting: %q %v", u.Get(), err)
	}
	for _, bad := range []string{"relative/hooks.yaml", dir} {
		if err := u.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
	file := filepath.Join(dir, "user", "hooks.yaml")
	if err := u.Set(file); err != nil {
		t.Fatal(err)
	}
	again, err := LoadUserHooks(dir)
	if err != nil || again.Get() != file {
		t.Errorf("reloaded %q %v", again.Get(), err)
	}
	if err := u.Set(""); err != nil || u.Get() != "" {
		t.Errorf("clear: %q %v", u.Get(), err)
	}
	var none *UserHooksSetting
	if none.Get() != "" {
		t.Error("a nil setting has a file")
	}
}

// The user-level file's commands are among the folder's, so trusting the
// folder covers them, and changing them asks again.
func TestUserHooksInTrustPrompt(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "hooks.yaml")
	write(t, user, "session_start:\n  - name: mine\n    command: echo from-user\n")
	u, _ := LoadUserHooks(dir)
	if err := u.Set(user); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit}, nil, u))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Close() })
	if _, err := s.Open(ctx, skillsRoot(t)); err != nil {
		t.Fatal(err)
	}
	st := s.State()
	if !slices.ContainsFunc(st.Exec.Commands, func(c ExecCommand) bool {
		return c.Command == "echo from-user" && strings.HasPrefix(c.Source, filepath.ToSlash(user))
	}) {
		t.Fatalf("the user's command is not in the trust prompt: %+v", st.Exec.Commands)
	}
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	write(t, user, "session_start:\n  - name: mine\n    command: echo changed\n")
	s.Reload(ctx)
	if st := s.State(); st.Exec.Trusted || !st.Exec.Changed {
		t.Errorf("a changed user command is still trusted: %+v", st.Exec)
	}
}

// Claude Code's user-level settings.json is persisted beside the hooks.yaml
// (one setting file), each set keeps the other, and the same path rules
// hold.
func TestClaudeUserSettingsSetting(t *testing.T) {
	dir := t.TempDir()
	u, err := LoadUserHooks(dir)
	if err != nil || u.Claude() != "" {
		t.Fatalf("fresh setting: %q %v", u.Claude(), err)
	}
	for _, bad := range []string{"relative/settings.json", dir} {
		if err := u.SetClaude(bad); err == nil {
			t.Errorf("SetClaude(%q) accepted", bad)
		}
	}
	yaml, cc := filepath.Join(dir, "hooks.yaml"), filepath.Join(dir, ".claude", "settings.json")
	if err := u.Set(yaml); err != nil {
		t.Fatal(err)
	}
	if err := u.SetClaude(cc + " "); err != nil {
		t.Fatal(err)
	}
	again, err := LoadUserHooks(dir)
	if err != nil || again.Claude() != cc || again.Get() != yaml {
		t.Errorf("reloaded %q %q %v", again.Claude(), again.Get(), err)
	}
	if err := again.Set(""); err != nil {
		t.Fatal(err)
	}
	if third, _ := LoadUserHooks(dir); third.Claude() != cc || third.Get() != "" {
		t.Errorf("clearing the hooks.yaml touched Claude Code's file: %q %q", third.Claude(), third.Get())
	}
	var none *UserHooksSetting
	if none.Claude() != "" {
		t.Error("a nil setting has a Claude Code file")
	}
}

// The user-level settings.json's hooks are loaded for every folder: their
// commands are in the trust prompt with the folder's.
func TestClaudeUserSettingsInTrustPrompt(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "settings.json")
	write(t, user, `{"model": "x", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo from-claude-user"}]}]}}`)
	u, _ := LoadUserHooks(dir)
	if err := u.SetClaude(user); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit}, nil, u))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Close() })
	if _, err := s.Open(ctx, skillsRoot(t)); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); !slices.ContainsFunc(st.Exec.Commands, func(c ExecCommand) bool {
		return c.Command == "echo from-claude-user" && strings.HasPrefix(c.Source, filepath.ToSlash(user))
	}) {
		t.Fatalf("the Claude Code user command is not in the trust prompt: %+v", st.Exec.Commands)
	}
}

// The agent CLIs' user-level files are one setting each, named by their
// system: Codex's config.toml, Qwen Code's and Gemini CLI's a
// settings.json, Copilot CLI's a folder of hook files; they reach the
// systems' Load.
func TestAgentUserFiles(t *testing.T) {
	dir := t.TempDir()
	u, err := LoadUserHooks(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	var systems []string
	for _, f := range u.UserFiles(reg) {
		systems = append(systems, f.System)
	}
	if !slices.Equal(systems, []string{"codex", "qwen-code", "gemini-cli", "copilot-cli"}) {
		t.Errorf("user files of %q", systems)
	}
	gemini, copilot := filepath.Join(dir, "settings.json"), filepath.Join(dir, "hooks")
	if err := u.SetUserFile(reg, "gemini-cli", gemini); err != nil {
		t.Fatal(err)
	}
	if err := u.SetUserFile(reg, "copilot-cli", dir); err != nil {
		t.Errorf("a folder for Copilot CLI: %v", err)
	}
	if err := u.SetUserFile(reg, "gemini-cli", dir); err == nil {
		t.Error("a folder for Gemini CLI's settings.json was accepted")
	}
	codex := filepath.Join(dir, "config.toml")
	if err := u.SetUserFile(reg, "codex", codex); err != nil {
		t.Fatal(err)
	}
	if err := u.SetUserFile(reg, "codex", dir); err == nil {
		t.Error("a folder for Codex's config.toml was accepted")
	}
	if err := u.SetUserFile(reg, "copilot-cli", gemini+"x/../../"); err != nil {
		t.Error(err)
	}
	if err := u.SetUserFile(reg, "nope", copilot); !errors.Is(err, ErrNoUserFile) {
		t.Errorf("unknown system: %v", err)
	}
	again, _ := LoadUserHooks(dir)
	if files := again.Files(reg); files["gemini-cli"] != gemini || files["copilot-cli"] == "" || files["codex"] != codex {
		t.Errorf("files %v", files)
	}
}
