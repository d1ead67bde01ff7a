package hooksets

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/hooks/skills"
)

type noSkillHooks struct{}

func (noSkillHooks) Hooks([]string) []skills.Hook { return nil }

func TestRequestHooks(t *testing.T) {
	root := tree(t, map[string]string{
		".hookstudio/request-hooks.yaml": "start:\n  - command: \"cat > /dev/null; echo start >> log\"\nend:\n  - command: \"cat > /dev/null; echo end >> log\"\n",
		"s/hooks/request-hooks.yaml":     "end:\n  - {command: 3}\n",
	})
	sc := mock(t, "requests: [{user: hi, reply: ok}]\n")
	s := load(t, root, Options{})
	if cs := s.Commands(sc); len(cs) != 2 || !strings.HasPrefix(cs[0].Event, "request: ") {
		t.Fatalf("commands %+v", cs)
	}
	if _, _, err := attach(t, s, sc, false); !errors.Is(err, ErrNotTrusted) {
		t.Errorf("an untrusted run got request hooks: %v", err)
	}
	if len(s.Hooks()) != 2 || s.Hooks()[0].System != reqhook.System || len(s.Diagnostics()) != 1 {
		t.Errorf("hooks %+v, diagnostics %v", s.Hooks(), s.Diagnostics())
	}

	cfg, _, err := attach(t, s, sc, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Handlers) != 1 {
		t.Fatalf("request hooks not wired: %v", cfg.Handlers)
	}
	if _, ok := cfg.Handlers[0].(*reqhook.Host); !ok {
		t.Fatalf("handler %T", cfg.Handlers[0])
	}
	tr, err := engine.Run(context.Background(), sc, noSkillHooks{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, hc := range tr.HookCalls {
		got = append(got, hc.Event+":"+hc.Hook)
	}
	if strings.Join(got, " ") != "request_start:cat request_end:usage_stats request_end:cat" {
		t.Errorf("hook calls %v", got)
	}

	// Without declared hooks, a policy or attempts a run gets none.
	plain := load(t, tree(t, map[string]string{}), Options{})
	if cfg, _, err := attach(t, plain, sc, true); err != nil || len(cfg.Handlers) != 0 || plain.Active(sc) {
		t.Errorf("plain folder: %v %v", err, cfg.Handlers)
	}
	// A settings policy needs request hooks, and runs without trust (it starts nothing).
	deny := reqhook.NewPolicy(reqhook.PolicyConfig{Deny: []string{"x"}}, nil)
	reg := Registry(RegistryOptions{Policy: func() *reqhook.Policy { return deny }})
	withPolicy, err := Load(context.Background(), reg, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !withPolicy.Active(sc) {
		t.Error("a settings policy is not active")
	}
	cfg = engine.Config{Model: llm.NewMock(sc)}
	r, err := withPolicy.Attach(&cfg, registry.Run{Scenario: sc, Backend: "openai:work"})
	if err != nil || len(cfg.Handlers) != 1 {
		t.Errorf("no host for a real run with a policy: %v", err)
	}
	_ = r.Close()
}
