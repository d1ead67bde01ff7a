package events

import "hookstudio/app/agent/scenario"

// Default budget thresholds, as fractions of the total (seed 002, 6.7).
const (
	DefaultWarning  = 0.80
	DefaultCritical = 0.95
)

// Budget is a run's token budget, checked after every LLM call with the
// provider's reported usage, or for the mock the o200k count of the call's
// messages and answer. Each level (warning, critical, exceeded) is
// announced once, the first time the run reaches it. With Stop, reaching
// 100 % ends the run (a hard abort at after_llm: the budget is the run's,
// so ending only the request would let the next one spend again); without
// it the run goes on, and Policy.BudgetExceeded can make every later tool
// call ask for approval.
type Budget struct {
	TotalTokens int
	Warning     float64 // 0: DefaultWarning
	Critical    float64 // 0: DefaultCritical
	Stop        bool
}

// BudgetOf is the scenario's token budget, nil when it has none.
func BudgetOf(sc *scenario.Scenario) *Budget {
	b := sc.Budget
	if b == nil || b.TotalTokens <= 0 {
		return nil
	}
	return &Budget{TotalTokens: b.TotalTokens, Warning: b.Warning, Critical: b.Critical, Stop: b.Stop}
}

// Budget levels, in the order a run reaches them.
const (
	LevelWarning  = "warning"
	LevelCritical = "critical"
	LevelExceeded = "exceeded"
)

func (b *Budget) thresholds() []struct {
	level string
	ratio float64
} {
	w, c := b.Warning, b.Critical
	if w <= 0 {
		w = DefaultWarning
	}
	if c <= 0 {
		c = DefaultCritical
	}
	return []struct {
		level string
		ratio float64
	}{{LevelWarning, w}, {LevelCritical, c}, {LevelExceeded, 1}}
}
