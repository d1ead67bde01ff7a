package scenario

import (
	"path"

	"go.yaml.in/yaml/v3"
)

// RequestPolicy is seed 004's built-in policy hook for headless runs
// (request_policy:): a rate limit per minute, a token quota, and model
// globs to allow or deny (app/hooks/reqhook enforces it).
type RequestPolicy struct {
	RateLimitPerMinute int      `json:"rate_limit_per_minute,omitempty"`
	TokenQuota         int      `json:"token_quota,omitempty"`
	Allow              []string `json:"allow,omitempty"`
	Deny               []string `json:"deny,omitempty"`
}

// Attempt is one scripted try of a mock model request (attempts:): the
// HTTP status it gets and why it failed. The mock retries until a 2xx
// attempt; if the last one fails, the call fails with its status.
type Attempt struct {
	Status int    `json:"status"`
	Reason string `json:"reason,omitempty"`
	Line   int    `json:"line"`
}

// Succeeded says whether the attempt's status is a success (2xx).
func (a Attempt) Succeeded() bool { return a.Status >= 200 && a.Status < 300 }

// requestPolicyField is the scenario's request_policy: (scenarioFields).
func (d *decoder) requestPolicyField(s *Scenario) field {
	return field{name: "request_policy", decode: func(k, v *yaml.Node, path string) {
		p := &RequestPolicy{}
		if d.object(v, path, d.requestPolicyFields(p)) {
			s.RequestPolicy = p
		}
	}}
}

func (d *decoder) requestPolicyFields(p *RequestPolicy) []field {
	globs := func(dst *[]string) func(k, v *yaml.Node, p string) {
		return func(k, v *yaml.Node, at string) {
			d.list(v, at, func(i int, item *yaml.Node, ip string) {
				g, ok := d.str(item, ip)
				if !ok {
					return
				}
				if _, err := path.Match(g, ""); err != nil || g == "" {
					d.errorf(item, CodeInvalidValue, "%s is %q, not a model pattern; use * and ? as in gpt-4*", ip, g)
					return
				}
				*dst = append(*dst, g)
			})
		}
	}
	positive := func(dst *int, example string) func(k, v *yaml.Node, p string) {
		return func(k, v *yaml.Node, at string) {
			if n, ok := d.integer(v, at); ok {
				if n <= 0 {
					d.errorf(v, CodeInvalidValue, "%s must be positive, e.g. %s", at, example)
					return
				}
				*dst = n
			}
		}
	}
	return []field{
		{name: "rate_limit_per_minute", decode: positive(&p.RateLimitPerMinute, "rate_limit_per_minute: 60")},
		{name: "token_quota", decode: positive(&p.TokenQuota, "token_quota: 100000")},
		{name: "allow", decode: globs(&p.Allow)},
		{name: "deny", decode: globs(&p.Deny)},
	}
}

// attemptsField is attempts: on a request (its direct call), its planning
// or a round.
func (d *decoder) attemptsField(dst *[]Attempt) field {
	return field{name: "attempts", decode: func(k, v *yaml.Node, at string) {
		d.list(v, at, func(i int, item *yaml.Node, ip string) {
			a := Attempt{Line: item.Line}
			if d.object(item, ip, d.attemptFields(&a)) && a.Status != 0 {
				if n := len(*dst); n > 0 && (*dst)[n-1].Succeeded() {
					d.warnf(item, CodeInvalidValue, "%s comes after a successful attempt and is never made", ip)
					return
				}
				*dst = append(*dst, a)
			}
		})
	}}
}

func (d *decoder) attemptFields(a *Attempt) []field {
	return []field{
		{name: "status", required: true, hint: "the HTTP status of the attempt, e.g. status: 429", decode: func(k, v *yaml.Node, at string) {
			if n, ok := d.integer(v, at); ok {
				if n < 100 || n > 599 {
					d.errorf(v, CodeInvalidValue, "%s is %d; an HTTP status is between 100 and 599 (429 rate limited, 503 unavailable, 200 ok)", at, n)
					return
				}
				a.Status = n
			}
		}},
		{name: "reason", decode: func(k, v *yaml.Node, at string) { a.Reason, _ = d.str(v, at) }},
	}
}

// requestLevels describes the request-hook mappings for the schema test.
func requestLevels() []Level {
	var d *decoder
	levels := []namedFields{
		{"request_policy", d.requestPolicyFields(new(RequestPolicy))},
		{"attempt", d.attemptFields(new(Attempt))},
	}
	return toLevels(levels)
}
