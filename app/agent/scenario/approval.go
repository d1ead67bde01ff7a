package scenario

import (
	"hookstudio/app/format/yamlpos"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Approval is the scenario's approval policy (seed 002): which tool calls
// pause the run for a human decision, and how long a decision may take.
type Approval struct {
	Tools          []string `json:"tools,omitempty"`           // these tools need approval
	TimeoutMS      int      `json:"timeout_ms,omitempty"`      // 0: 30000
	BudgetExceeded bool     `json:"budget_exceeded,omitempty"` // once the token budget is used up, every tool call needs approval
}

// Scripted approval decisions, for headless runs.
const (
	DecisionApprove = "approve"
	DecisionDeny    = "deny"
	DecisionTimeout = "timeout"
)

// ApprovalDecision is one scripted answer to an approval request; requests
// take them in order, the first unused one for their tool.
type ApprovalDecision struct {
	Tool     string `json:"tool,omitempty"` // "" any tool
	Decision string `json:"decision"`       // approve, deny or timeout
	Feedback string `json:"feedback,omitempty"`
	Line     int    `json:"line"`
}

// Budget is the run's token budget. Warning and Critical are fractions
// (0.8) of TotalTokens; 0 takes the defaults (80 % and 95 %).
type Budget struct {
	TotalTokens int     `json:"total_tokens"`
	Warning     float64 `json:"warning,omitempty"`
	Critical    float64 `json:"critical,omitempty"`
	Stop        bool    `json:"stop,omitempty"` // end the run at 100 %
}

// The scenario-level fields of run control (approval:, approvals:,
// budget:), listed in scenarioFields.
func (d *decoder) approvalField(s *Scenario) field {
	return field{name: "approval", decode: func(k, v *yaml.Node, path string) {
		a := &Approval{}
		if d.object(v, path, d.approvalFields(a)) {
			s.Approval = a
		}
	}}
}

func (d *decoder) approvalsField(s *Scenario) field {
	return field{name: "approvals", decode: func(k, v *yaml.Node, path string) {
		d.list(v, path, func(i int, item *yaml.Node, p string) {
			ad := ApprovalDecision{Line: item.Line}
			// A missing or invalid decision is reported by the decoder.
			if d.object(item, p, d.approvalDecisionFields(&ad)) && ad.Decision != "" {
				s.Approvals = append(s.Approvals, ad)
			}
		})
	}}
}

func (d *decoder) budgetField(s *Scenario) field {
	return field{name: "budget", decode: func(k, v *yaml.Node, path string) {
		b := &Budget{}
		if d.object(v, path, d.budgetFields(b)) && b.TotalTokens > 0 {
			if b.Warning > 0 && b.Critical > 0 && b.Warning > b.Critical {
				d.warnf(v, CodeInvalidValue, "%s: the warning threshold %.2f is above the critical one %.2f", path, b.Warning, b.Critical)
			}
			s.Budget = b
		}
	}}
}

func (d *decoder) approvalFields(a *Approval) []field {
	return []field{
		{name: "tools", decode: func(k, v *yaml.Node, path string) {
			d.list(v, path, func(i int, item *yaml.Node, p string) {
				if name, ok := d.str(item, p); ok && name != "" {
					a.Tools = append(a.Tools, name)
				}
			})
		}},
		{name: "timeout_ms", decode: func(k, v *yaml.Node, path string) {
			if n, ok := d.wholeNumber(v, path); ok {
				if n <= 0 {
					d.errorf(v, CodeInvalidValue, "%s must be positive (milliseconds), e.g. timeout_ms: 30000", path)
					return
				}
				a.TimeoutMS = n
			}
		}},
		{name: "budget_exceeded", decode: func(k, v *yaml.Node, path string) {
			a.BudgetExceeded, _ = d.boolean(v, path)
		}},
	}
}

func (d *decoder) approvalDecisionFields(ad *ApprovalDecision) []field {
	values := []string{DecisionApprove, DecisionDeny, DecisionTimeout}
	return []field{
		{name: "tool", decode: func(k, v *yaml.Node, path string) { ad.Tool, _ = d.str(v, path) }},
		{name: "decision", required: true, hint: "approve, deny or timeout", decode: func(k, v *yaml.Node, path string) {
			s, ok := d.str(v, path)
			if !ok {
				return
			}
			if !slices.Contains(values, s) {
				d.errorf(v, CodeInvalidValue, "%s is %q; expected one of: %s.%s", path, s, strings.Join(values, ", "), suggestion(s, values))
				return
			}
			ad.Decision = s
		}},
		{name: "feedback", decode: func(k, v *yaml.Node, path string) { ad.Feedback, _ = d.str(v, path) }},
	}
}

func (d *decoder) budgetFields(b *Budget) []field {
	return []field{
		{name: "total_tokens", required: true, hint: "the run's token budget, e.g. total_tokens: 2000", decode: func(k, v *yaml.Node, path string) {
			if n, ok := d.wholeNumber(v, path); ok {
				if n <= 0 {
					d.errorf(v, CodeInvalidValue, "%s must be positive, e.g. total_tokens: 2000", path)
					return
				}
				b.TotalTokens = n
			}
		}},
		{name: "warning", decode: func(k, v *yaml.Node, path string) { b.Warning, _ = d.threshold(v, path) }},
		{name: "critical", decode: func(k, v *yaml.Node, path string) { b.Critical, _ = d.threshold(v, path) }},
		{name: "stop", decode: func(k, v *yaml.Node, path string) { b.Stop, _ = d.boolean(v, path) }},
	}
}

// wholeNumber decodes a whole number.
func (d *decoder) wholeNumber(n *yaml.Node, path string) (int, bool) {
	v, ok := d.deref(n)
	if !ok {
		return 0, false
	}
	var i int
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" && v.Decode(&i) == nil {
		return i, true
	}
	d.errorf(n, CodeWrongType, "%s must be a whole number, not %s", path, yamlpos.Describe(v))
	return 0, false
}

// threshold decodes a budget threshold: a fraction (0.8) or a percentage
// (80), returned as a fraction.
func (d *decoder) threshold(n *yaml.Node, path string) (float64, bool) {
	v, ok := d.deref(n)
	if !ok {
		return 0, false
	}
	var f float64
	if v.Kind != yaml.ScalarNode || (v.ShortTag() != "!!int" && v.ShortTag() != "!!float") || v.Decode(&f) != nil {
		d.errorf(n, CodeWrongType, "%s must be a number (0.8 or 80 for 80 %%), not %s", path, yamlpos.Describe(v))
		return 0, false
	}
	if f > 1 && f <= 100 {
		f /= 100
	}
	if f <= 0 || f > 1 {
		d.errorf(n, CodeInvalidValue, "%s must be between 0 and 1 (or 0 and 100 %%), e.g. 0.8", path)
		return 0, false
	}
	return f, true
}

// opsLevels describes the run-control mappings for the schema test.
func opsLevels() []Level {
	var d *decoder
	levels := []namedFields{
		{"approval", d.approvalFields(new(Approval))},
		{"approval_decision", d.approvalDecisionFields(new(ApprovalDecision))},
		{"budget", d.budgetFields(new(Budget))},
	}
	return toLevels(levels)
}
