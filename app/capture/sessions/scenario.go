package sessions

import (
	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
)

// Calls are an imported session's model calls as a capture records them —
// each call's message list, answer and the tools it offered — so Save as
// scenario turns a session into a scenario as it does a capture: the
// answers and tool results as recorded, replayed against today's hooks.
func Calls(tr *engine.Trace, s Session) []capture.Call {
	calls := capture.CallsFromTrace(tr)
	for _, info := range s.Calls {
		if info.Call >= 0 && info.Call < len(calls) && len(info.Tools) > 0 {
			calls[info.Call].Tools = info.Tools
		}
	}
	return calls
}

// ScenarioYAML is an imported session as a scenario file, and the notes
// on what it does not replay.
func ScenarioYAML(tr *engine.Trace, s Session) ([]byte, []string, error) {
	return capture.ScenarioYAML(Name(s), Calls(tr, s))
}
