package events

import (
	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// Headless is a scenario's approval policy, answered by its scripted
// decisions (approvals:), and its budget on a run nobody is asked about:
// hookctl test and the app's live simulation run a scenario this way, so
// their traces are the same. The events are kept, not shown.
type Headless struct {
	mon    *Monitor
	stream *Stream
}

// AttachHeadless puts sc's policy, scripted approver and budget on cfg
// (Attach: last among the handlers). tokens counts the mock's usage for
// the budget; it may be nil when sc has none. Call Finish after
// engine.Run.
func AttachHeadless(cfg *engine.Config, sc *scenario.Scenario, tokens TokenCounter) *Headless {
	o := Options{Stream: NewStream(StreamOptions{})}.ForScenario(sc)
	if sc.Budget != nil {
		o.Tokens = tokens
	}
	return &Headless{mon: Attach(cfg, o), stream: o.Stream}
}

// Finish emits how the run ended, closes the stream and returns the
// events to store.
func (h *Headless) Finish(tr *engine.Trace, runErr error) []Event {
	h.mon.Finish(tr, runErr)
	h.stream.Close()
	return h.stream.Persistent()
}
