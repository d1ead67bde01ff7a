package bind

import (
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// ConvertChoices lists the open folder's folders with hooks and the agents
// a hook set can be written for (Export for…).
func (s *Studio) ConvertChoices() (studio.ConvertChoices, error) {
	return s.svc.ConvertChoices(s.context())
}

// PlanConversion converts a folder's hooks for another agent and says what
// writing them would do; nothing is written.
func (s *Studio) PlanConversion(req studio.ConvertRequest) (studio.ConvertPlan, error) {
	return s.svc.PlanConversion(s.context(), req)
}

// WriteConversion writes the conversion the user confirmed, unless a file
// is in the way (req.Force replaces it) or the target refuses it.
func (s *Studio) WriteConversion(req studio.ConvertRequest) (studio.ConvertPlan, error) {
	return s.svc.WriteConversion(s.context(), req)
}

// RenderUnder plays the open folder's scenario file with its hooks
// converted for agent (AGENT or AGENT@VERSION) and keeps the run: its id,
// for History's compare.
func (s *Studio) RenderUnder(file, agent string) (history.RunID, error) {
	return s.svc.RenderUnder(s.context(), file, agent)
}
