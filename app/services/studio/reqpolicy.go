package studio

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/store/atomicfile"
)

// RequestPolicyFile is the app's request policy setting in the data folder.
const RequestPolicyFile = "request-policy.json"

// RequestPolicySetting is the request policy hook configured in the app's
// settings (seed 004): one policy shared by every run, so its rate limit
// and quota count across runs until the setting changes. A scenario's own
// request_policy applies when the setting is empty.
type RequestPolicySetting struct {
	path string

	mu     sync.Mutex
	cfg    reqhook.PolicyConfig
	policy *reqhook.Policy // nil when cfg limits nothing
}

// LoadRequestPolicy reads the setting from dataDir (none yet: empty).
func LoadRequestPolicy(dataDir string) (*RequestPolicySetting, error) {
	p := &RequestPolicySetting{path: filepath.Join(dataDir, RequestPolicyFile)}
	var cfg reqhook.PolicyConfig
	found, err := atomicfile.ReadJSON(p.path, &cfg)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		return p, fmt.Errorf("request policy %s: %w", p.path, err)
	case err != nil:
		return p, fmt.Errorf("request policy: %w", err)
	case !found:
		return p, nil
	}
	if err := cfg.Validate(); err != nil {
		return p, fmt.Errorf("request policy %s: %w", p.path, err)
	}
	p.apply(cfg)
	return p, nil
}

func (p *RequestPolicySetting) apply(cfg reqhook.PolicyConfig) {
	p.cfg, p.policy = cfg, nil
	if !cfg.Empty() {
		p.policy = reqhook.NewPolicy(cfg, nil)
	}
}

// Get is the current setting.
func (p *RequestPolicySetting) Get() reqhook.PolicyConfig {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cfg
}

// Set validates, saves (atomically) and applies cfg; the counters start
// afresh.
func (p *RequestPolicySetting) Set(cfg reqhook.PolicyConfig) error {
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("request policy: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := atomicfile.WriteJSON(p.path, cfg, 0o644); err != nil {
		return fmt.Errorf("request policy: %w", err)
	}
	p.apply(cfg)
	return nil
}

// Policy is the policy runs use (nil: none configured, or p is nil).
func (p *RequestPolicySetting) Policy() *reqhook.Policy {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.policy
}
