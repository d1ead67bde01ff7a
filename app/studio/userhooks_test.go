package studio

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	s, err := New(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit, ExecHooks: HooksetsLoader(nil, WithUserHooks(u))})
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
