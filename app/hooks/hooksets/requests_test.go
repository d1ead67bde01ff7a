package hooksets

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
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
	sc, _ := scenario.Parse("s/scenarios/x.yaml", []byte("requests: [{user: hi, reply: ok}]\n"))
	s, err := Load(root, Options{Scenario: sc})
	if !errors.Is(err, ErrNotTrusted) || len(s.Commands()) != 2 || !strings.HasPrefix(string(s.Commands()[0].Event), "request: ") {
		t.Fatalf("untrusted: %v, commands %+v", err, s.Commands())
	}
	if h := s.RequestHooks(RequestRun{Backend: "mock"}); h != nil {
		t.Errorf("an untrusted set built request hooks")
	}
	if len(s.Hooks()) != 2 || s.Hooks()[0].System != reqhook.System || len(s.Diagnostics()) != 1 {
		t.Errorf("hooks %+v, diagnostics %v", s.Hooks(), s.Diagnostics())
	}
	fp := s.Fingerprint()
	if !strings.Contains(fp, "+req:") {
		t.Errorf("fingerprint %q lacks the request hooks", fp)
	}

	s, err = Load(root, Options{Scenario: sc, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Model: llm.NewMock(sc), Handlers: s.Handlers()}
	if h := s.WithRequestHooks(&cfg, RequestRun{Backend: "mock"}); h == nil || len(cfg.Handlers) != 1 || cfg.Handlers[0] != h {
		t.Fatalf("request hooks not wired: %v", cfg.Handlers)
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
	plain := tree(t, map[string]string{})
	s, err = Load(plain, Options{Scenario: sc, Trusted: true})
	if err != nil || s.RequestHooks(RequestRun{}) != nil {
		t.Errorf("plain folder: %v", err)
	}
	if s.RequestHooks(RequestRun{Policy: reqhook.NewPolicy(reqhook.PolicyConfig{Deny: []string{"x"}}, nil)}) == nil {
		t.Errorf("a settings policy needs request hooks")
	}
	if h := s.RequestHooks(RequestRun{Backend: "openai:work", Policy: reqhook.NewPolicy(reqhook.PolicyConfig{}, nil)}); h == nil {
		t.Errorf("no host for a real run with a policy")
	}
}
