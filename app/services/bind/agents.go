package bind

import (
	"context"
	"fmt"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/services/calibration"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// Agents is bound as window.go.bind.Agents: Settings ▸ Agents — the agent
// CLIs found, their rendering profiles, calibrations with their progress
// (EventState events).
type Agents struct {
	svc *calibration.Service
}

// NewAgents binds the calibration service.
func NewAgents(svc *calibration.Service) *Agents { return &Agents{svc: svc} }

// StopAgents cancels a calibration still running (the app is closing). A
// function, so that Wails does not offer it to the frontend.
func StopAgents(a *Agents) { a.svc.Close() }

// CLIs lists each agent's CLI found on PATH: path, version, profile.
func (a *Agents) CLIs() ([]calibration.CLI, error) { return a.svc.CLIs(context.Background()) }

// CalibrationState is the calibration running or last finished.
func (a *Agents) CalibrationState() (calibration.State, error) { return a.svc.State(), nil }

// Calibrate starts calibrating cli (agent's; "" the one on PATH).
func (a *Agents) Calibrate(agent, cli string) (calibration.State, error) {
	return a.svc.Start(agent, cli)
}

// CancelCalibration stops the calibration running; nothing is saved.
func (a *Agents) CancelCalibration() (calibration.State, error) { return a.svc.Cancel(), nil }

// UseAgents gives the studio binding the app's agent version setting.
func UseAgents(s *Studio, a *studio.AgentsSetting) { s.agents = a }

// AgentChoice is the picker beside "hosts as" for Claude Code.
func (s *Studio) AgentChoice() (studio.AgentChoice, error) {
	if s.agents == nil {
		return studio.AgentChoice{Agent: profile.ClaudeCode, Versions: []profile.Entry{}}, nil
	}
	return s.agents.Choice(s.context(), profile.ClaudeCode)
}

// SetAgentVersion makes runs render Claude Code's hooks as version ("":
// the installed CLI's, else the newest bundled) and simulates again.
func (s *Studio) SetAgentVersion(version string) (studio.State, error) {
	if s.agents == nil {
		return s.svc.State(), fmt.Errorf("this build has no agent version setting")
	}
	if err := s.agents.Choose(profile.ClaudeCode, version); err != nil {
		return s.svc.State(), err
	}
	s.svc.Reload(s.context())
	return s.svc.State(), nil
}

// RenderAs plays the open folder's scenario file once more rendered as
// agent (claude-code@VERSION) and keeps it in the history: its run id,
// for History's compare.
func (s *Studio) RenderAs(file, agent string) (history.RunID, error) {
	return s.svc.RenderAs(s.context(), file, agent)
}
