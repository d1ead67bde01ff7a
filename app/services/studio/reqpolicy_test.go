package studio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/hooks/skills"
)

type noPromptHooks struct{}

func (noPromptHooks) Hooks([]string) []skills.Hook { return nil }

func TestRequestPolicySetting(t *testing.T) {
	dir := t.TempDir()
	p, err := LoadRequestPolicy(dir)
	if err != nil || p.Policy() != nil || !p.Get().Empty() {
		t.Fatalf("fresh setting: %v %+v", err, p.Get())
	}
	if err := p.Set(reqhook.PolicyConfig{Deny: []string{"gpt-["}}); err == nil {
		t.Errorf("a bad glob was accepted")
	}
	cfg := reqhook.PolicyConfig{Deny: []string{"mo*"}, RateLimitPerMinute: 5}
	if err := p.Set(cfg); err != nil {
		t.Fatal(err)
	}
	again, err := LoadRequestPolicy(dir)
	if err != nil || again.Get().RateLimitPerMinute != 5 || len(again.Get().Deny) != 1 || again.Policy() == nil {
		t.Fatalf("reloaded: %v %+v", err, again.Get())
	}
	if err := os.WriteFile(filepath.Join(dir, RequestPolicyFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRequestPolicy(dir); err == nil {
		t.Errorf("a damaged file loaded")
	}

	// The app's runs use it: the mock model is denied by the setting.
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".hookstudio"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".hookstudio", "request-hooks.yaml"), []byte("end: [{command: cat > /dev/null}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, _ := scenario.Parse("s/scenarios/x.yaml", []byte("requests: [{user: hi, reply: ok}]\n"))
	_, load := appHooks(p, nil)
	set, err := load(context.Background(), ExecRequest{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	cfg2 := engine.Config{Model: llm.NewMock(sc)}
	run, err := set.Attach(&cfg2, registry.Run{Scenario: sc, Trusted: true, Backend: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	_, err = engine.Run(context.Background(), sc, noPromptHooks{}, cfg2)
	var de *reqhook.DeniedError
	if !errors.As(err, &de) || de.Status != 403 || de.Hook != "policy" {
		t.Errorf("run under the settings' policy: %v", err)
	}
}
