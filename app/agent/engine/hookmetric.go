package engine

// HookMetric is one executable hook's counters over a run (seed 001's
// list: runs, successes, failures, skips, total time). Added for the hook
// systems (app/hooks/cmdhook first) so the history stores one type for all of
// them; the engine itself does not compute it.
type HookMetric struct {
	System    string  `json:"system"` // command | process | request
	Event     string  `json:"event"`  // native event name
	Hook      string  `json:"hook"`
	Source    string  `json:"source,omitempty"`
	Runs      int     `json:"runs"`      // invocations that ran (reused results included)
	Successes int     `json:"successes"` // ended ok, modified, stopped, skipped the tool
	Failures  int     `json:"failures"`  // error or timeout
	Skips     int     `json:"skips"`     // not run: the chain ended before it (stop, on_error abort, chain timeout)
	TotalMS   float64 `json:"total_ms"`
}
