package reqhook

import (
	"fmt"
	"path"
	"sync"
	"time"
)

// PolicyConfig is the built-in policy hook (seed 004's PolicyEnforceHook):
// a rate limit, a token quota and allow/deny lists of model globs
// (path.Match: "gpt-4*", "claude-*-opus"). Zero values do not limit.
type PolicyConfig struct {
	RateLimitPerMinute int      `json:"rate_limit_per_minute,omitempty"`
	TokenQuota         int      `json:"token_quota,omitempty"`
	Allow              []string `json:"allow,omitempty"` // non-empty: only these models
	Deny               []string `json:"deny,omitempty"`
}

// Empty says the policy limits nothing.
func (c PolicyConfig) Empty() bool {
	return c.RateLimitPerMinute <= 0 && c.TokenQuota <= 0 && len(c.Allow) == 0 && len(c.Deny) == 0
}

// Validate names the first bad glob.
func (c PolicyConfig) Validate() error {
	for _, g := range append(append([]string{}, c.Allow...), c.Deny...) {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("model pattern %q: %w", g, err)
		}
	}
	if c.RateLimitPerMinute < 0 || c.TokenQuota < 0 {
		return fmt.Errorf("rate limit and token quota must not be negative")
	}
	return nil
}

// Policy enforces a PolicyConfig. One Policy may serve many runs (the
// app's settings): its counters are shared and guarded.
type Policy struct {
	cfg PolicyConfig
	now func() time.Time

	mu   sync.Mutex
	sent []time.Time // starts allowed within the last minute
	used int         // tokens used under the quota
}

// NewPolicy returns a policy; now is the clock (nil: time.Now).
func NewPolicy(cfg PolicyConfig, now func() time.Time) *Policy {
	if now == nil {
		now = time.Now
	}
	return &Policy{cfg: cfg, now: now}
}

// Config is the policy's configuration.
func (p *Policy) Config() PolicyConfig { return p.cfg }

// Check decides a request's start: allowed, or denied with an HTTP status
// and a message. An allowed request counts against the rate limit.
func (p *Policy) Check(model string) (ok bool, status int, msg string) {
	for _, g := range p.cfg.Deny {
		if m, _ := path.Match(g, model); m {
			return false, 403, fmt.Sprintf("model %s is denied by the policy (deny %q)", model, g)
		}
	}
	if len(p.cfg.Allow) > 0 {
		allowed := false
		for _, g := range p.cfg.Allow {
			if m, _ := path.Match(g, model); m {
				allowed = true
				break
			}
		}
		if !allowed {
			return false, 403, fmt.Sprintf("model %s is not in the policy's allow list", model)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if q := p.cfg.TokenQuota; q > 0 && p.used >= q {
		return false, 429, fmt.Sprintf("token quota of %d used up (%d used)", q, p.used)
	}
	now := p.now()
	if lim := p.cfg.RateLimitPerMinute; lim > 0 {
		keep := p.sent[:0]
		for _, t := range p.sent {
			if now.Sub(t) < time.Minute {
				keep = append(keep, t)
			}
		}
		p.sent = keep
		if len(p.sent) >= lim {
			return false, 429, fmt.Sprintf("rate limit of %d requests per minute reached", lim)
		}
	}
	p.sent = append(p.sent, now)
	return true, 0, ""
}

// Use counts a finished request's tokens against the quota.
func (p *Policy) Use(tokens int) {
	p.mu.Lock()
	p.used += tokens
	p.mu.Unlock()
}

// Used is how many tokens the quota has counted.
func (p *Policy) Used() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}
