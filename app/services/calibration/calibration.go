// Package calibration is the app's Settings ▸ Agents: the agent CLIs found
// on this machine with the rendering profile each has (bundled, calibrated
// or none), and one calibration at a time in the background, its progress
// sent as events, cancellable, its profile saved only when it finished.
package calibration

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agents/calibrate"
	"hookstudio/app/agents/locate"
)

// EventState carries State after every change of a calibration.
const EventState = "agents:calibration"

// ErrRunning is returned when a calibration is already running.
var ErrRunning = errors.New("a calibration is already running")

// Profile origins of a CLI's version, as listed.
const (
	ProfileBundled    = "bundled"
	ProfileCalibrated = "calibrated"
	ProfileNone       = "none"
)

// CLI is an agent CLI as Settings ▸ Agents lists it.
type CLI struct {
	Agent   string `json:"agent"`
	Command string `json:"command"`
	Path    string `json:"path"` // "" when it is not on PATH
	Version string `json:"version"`
	// Profile says whether a rendering profile exists for the version:
	// bundled, calibrated or none.
	Profile string `json:"profile"`
	// Calibratable says whether calibration knows this agent's probes.
	Calibratable bool   `json:"calibratable"`
	Error        string `json:"error,omitempty"`
}

// State is the calibration running or last finished.
type State struct {
	Running   bool               `json:"running"`
	Agent     string             `json:"agent,omitempty"`
	CLI       string             `json:"cli,omitempty"`
	Progress  calibrate.Progress `json:"progress"`
	Lines     []string           `json:"lines"` // every progress message, in order
	Result    *Result            `json:"result,omitempty"`
	Error     string             `json:"error,omitempty"`
	Cancelled bool               `json:"cancelled,omitempty"`
}

// Result is a finished calibration: the profile saved and what differs
// from the nearest one known before.
type Result struct {
	Ref        string           `json:"ref"`
	File       string           `json:"file"`
	Nearest    string           `json:"nearest,omitempty"`
	Changes    []profile.Change `json:"changes"`
	DurationMS int64            `json:"duration_ms"`
	// RequestFile is where the CLI's request model was saved ("": none
	// learned for this agent): runs under it then show its own words.
	RequestFile string `json:"request_file,omitempty"`
}

// Service lists the CLIs and runs calibrations.
type Service struct {
	emit    func(string, any)
	dataDir string
	catalog *profile.Catalog
	finder  *locate.Finder

	mu     sync.Mutex
	state  State
	cancel context.CancelFunc
	done   chan struct{}
}

// New makes the service; profiles are saved under dataDir, catalog and
// finder are the app's (the runs' choice reads the same).
func New(emit func(string, any), dataDir string, catalog *profile.Catalog, finder *locate.Finder) *Service {
	return &Service{emit: emit, dataDir: dataDir, catalog: catalog, finder: finder, state: State{Lines: []string{}}}
}

// agents are the agent CLIs Settings ▸ Agents looks for.
var agents = []string{profile.ClaudeCode, "codex", "gemini-cli", "qwen-code", "copilot-cli"}

// CLIs lists each agent's CLI found on PATH with its version and profile.
func (s *Service) CLIs(ctx context.Context) ([]CLI, error) {
	out := make([]CLI, 0, len(agents))
	for _, a := range agents {
		c := CLI{Agent: a, Command: locate.Command(a), Profile: ProfileNone, Calibratable: a == profile.ClaudeCode}
		found, err := s.finder.Find(ctx, a)
		c.Path, c.Version = found.Path, found.Version
		switch {
		case errors.Is(err, locate.ErrNotFound):
		case err != nil:
			c.Error = err.Error()
		default:
			c.Profile = s.origin(a, c.Version)
		}
		out = append(out, c)
	}
	return out, nil
}

func (s *Service) origin(agent, version string) string {
	es, err := s.catalog.Versions(agent)
	if err != nil {
		return ProfileNone
	}
	if i := slices.IndexFunc(es, func(e profile.Entry) bool { return e.Version == version }); i >= 0 {
		return string(es[i].Origin)
	}
	return ProfileNone
}

// State is the calibration running or last finished.
func (s *Service) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.copyLocked()
}

func (s *Service) copyLocked() State {
	st := s.state
	st.Lines = slices.Clone(s.state.Lines)
	return st
}

// Start calibrates cli (agent's CLI; "" the one on PATH) in the
// background; each step is an EventState.
func (s *Service) Start(agent, cli string) (State, error) {
	if cli == "" {
		found, err := s.finder.Find(context.Background(), agent)
		if err != nil {
			return s.State(), fmt.Errorf("calibrate %s: %w", agent, err)
		}
		cli = found.Path
	}
	known, err := s.catalog.All(agent)
	if err != nil {
		known = nil // a broken calibrated file: compare with none rather than refuse
	}
	s.mu.Lock()
	if s.state.Running {
		s.mu.Unlock()
		return s.State(), ErrRunning
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.state = State{Running: true, Agent: agent, CLI: cli, Lines: []string{}}
	s.cancel, s.done = cancel, done
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
	go func() {
		defer close(done)
		defer cancel()
		res, err := calibrate.Run(ctx, calibrate.Options{Agent: agent, CLI: cli, Known: known, Progress: s.progress})
		s.finish(ctx, res, err)
	}()
	return st, nil
}

func (s *Service) progress(p calibrate.Progress) {
	s.mu.Lock()
	s.state.Progress = p
	s.state.Lines = append(s.state.Lines, fmt.Sprintf("run %d/%d %s: %s", p.Run, p.Runs, p.Probe, p.Message))
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
}

// finish saves a calibration's profile and request model, only when it
// ended well.
func (s *Service) finish(ctx context.Context, res *calibrate.Result, err error) {
	var out *Result
	if err == nil {
		var file string
		if file, err = calibrate.Save(s.dataDir, res.Profile); err == nil {
			out = &Result{Ref: res.Profile.Ref(), File: file, Nearest: res.Nearest, Changes: res.Changes, DurationMS: res.Duration.Milliseconds()}
		}
		if err == nil && res.Request != nil {
			out.RequestFile, err = calibrate.SaveRequest(s.dataDir, res.Request)
		}
	}
	s.mu.Lock()
	s.state.Running, s.state.Result = false, out
	switch {
	case ctx.Err() != nil:
		s.state.Cancelled, s.state.Error = true, "cancelled: nothing was saved"
	case err != nil:
		s.state.Error = err.Error() + "\nnothing was saved"
	}
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
}

// Cancel stops the calibration running: its CLI and hooks end, nothing is
// saved. It returns once the calibration has stopped.
func (s *Service) Cancel() State {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	return s.State()
}

// Close cancels a calibration still running (the app is closing).
func (s *Service) Close() { s.Cancel() }
