package scenario

import (
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

func TestRequestPolicyAndAttempts(t *testing.T) {
	src := `name: retry
request_policy:
  rate_limit_per_minute: 30
  token_quota: 5000
  allow: ["gpt-*", mock]
  deny: ["gpt-4o*"]
tools: [{name: read}]
requests:
  - user: hi
    attempts: [{status: 503, reason: overloaded}, {status: 200}]
    planning:
      need_tool: true
      attempts: [{status: 429, reason: rate limited}, {status: 200}]
    rounds:
      - content: done
        attempts: [{status: 500}]
`
	sc, ds := Parse("s/scenarios/retry.yaml", []byte(src))
	if diag.HasErrors(ds) {
		t.Fatalf("diagnostics %v", ds)
	}
	p := sc.RequestPolicy
	if p == nil || p.RateLimitPerMinute != 30 || p.TokenQuota != 5000 || !slices.Equal(p.Allow, []string{"gpt-*", "mock"}) || !slices.Equal(p.Deny, []string{"gpt-4o*"}) {
		t.Errorf("policy %+v", p)
	}
	r := sc.Requests[0]
	if len(r.Attempts) != 2 || r.Attempts[0].Status != 503 || r.Attempts[0].Reason != "overloaded" || !r.Attempts[1].Succeeded() || r.Attempts[0].Line != 10 {
		t.Errorf("request attempts %+v", r.Attempts)
	}
	if len(r.Planning.Attempts) != 2 || r.Planning.Attempts[0].Status != 429 || r.Planning.Attempts[0].Reason != "rate limited" {
		t.Errorf("planning attempts %+v", r.Planning.Attempts)
	}
	if len(r.Rounds[0].Attempts) != 1 || r.Rounds[0].Attempts[0].Succeeded() {
		t.Errorf("round attempts %+v", r.Rounds[0].Attempts)
	}
}

func TestRequestPolicyAndAttemptsDiagnostics(t *testing.T) {
	src := `name: bad
request_policy:
  rate_limit_per_minute: 0
  deny: ["gpt-[", 3]
  limit: 5
requests:
  - user: hi
    reply: ok
    attempts:
      - status: 99
      - reason: no status
      - {status: 200}
      - {status: 429}
`
	_, ds := Parse("s/scenarios/bad.yaml", []byte(src))
	want := []struct {
		line int
		code string
		sev  diag.Severity
		text string
	}{
		{3, CodeInvalidValue, diag.Error, "must be positive"},
		{4, CodeInvalidValue, diag.Error, "not a model pattern"},
		{4, CodeWrongType, diag.Error, "deny[1]"},
		{5, CodeUnknownField, diag.Warning, "limit"},
		{10, CodeInvalidValue, diag.Error, "between 100 and 599"},
		{11, CodeMissingField, diag.Error, "status"},
		{13, CodeInvalidValue, diag.Warning, "never made"},
	}
	for _, w := range want {
		found := false
		for _, d := range ds {
			if d.Line == w.line && d.Code == w.code && d.Severity == w.sev && strings.Contains(d.Message, w.text) && d.Column > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s %s at line %d mentioning %q in %v", w.sev, w.code, w.line, w.text, ds)
		}
	}
}
