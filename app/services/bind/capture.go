package bind

import (
	"context"
	"encoding/json"
	"fmt"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/store/history"
	"hookstudio/app/store/profiles"
)

// Capture is bound as window.go.bind.Capture: the app as a real agent's
// model endpoint (app/capture), its captures kept in the run history.
type Capture struct {
	session *capture.Session
	store   *history.Store // nil: no history
}

// NewCapture binds a capture session; store may be nil (nothing is kept).
func NewCapture(emit func(string, any), store *history.Store, tokens capture.Counter) *Capture {
	var keep capture.KeepStore
	if store != nil {
		keep = store
	}
	return &Capture{session: capture.NewSession(emit, keep, tokens), store: store}
}

// WithProfiles lets the capture forward to the app's model profiles, each
// resolved with its key when a capture starts.
func (c *Capture) WithProfiles(store func() *profiles.Store) *Capture {
	c.session.WithUpstreams(func(name string) (*capture.Upstream, error) { return capture.UpstreamOf(store(), name) })
	return c
}

// UseCaptureAgents makes c read the agents' hook texts with the profiles
// of catalog (bundled and calibrated into the data folder). A function, so
// that Wails does not offer it to the frontend.
func UseCaptureAgents(c *Capture, catalog *profile.Catalog) {
	c.session.WithAgents(capture.NewAgentReader(catalog))
}

// State is the capture as it is now.
func (c *Capture) State() (capture.SessionState, error) { return c.session.State(), nil }

// Start listens on 127.0.0.1 and answers the agent from the answers file,
// the user, or a forward to a model profile.
func (c *Capture) Start(opts capture.SessionOptions) (capture.SessionState, error) {
	return c.session.Start(opts)
}

// Stop closes the endpoint and keeps the capture in the history.
func (c *Capture) Stop() (capture.SessionState, error) { return c.session.Stop(context.Background()) }

// StopCapture ends a capture still running when the app closes (kept).
func StopCapture(c *Capture) {
	if c.session.State().Running {
		_, _ = c.session.Stop(context.Background())
	}
}

// Reply answers the request waiting for the user (a manual capture).
func (c *Capture) Reply(n int, answer capture.Answer) (capture.SessionState, error) {
	return c.session.Reply(n, &answer)
}

// SavedScenario is where a capture was saved as a scenario, and what it
// does not replay.
type SavedScenario struct {
	Path  string   `json:"path"`
	Notes []string `json:"notes"`
}

// SaveScenario saves the capture kept as run runID as a scenario file at
// path whose mock replays its answers: the last capture from its calls,
// an older one read back from the history.
func (c *Capture) SaveScenario(runID int64, path string) (SavedScenario, error) {
	calls, name := c.session.LastCalls(runID), ""
	if calls == nil {
		if c.store == nil {
			return SavedScenario{}, fmt.Errorf("run #%d: no history to read it from", runID)
		}
		run, err := c.store.LoadRun(context.Background(), history.RunID(runID))
		if err != nil {
			return SavedScenario{}, err
		}
		switch run.Source {
		case history.SourceSession:
			// an imported session: its calls as the transcript gives them
			var s sessions.Session
			if run.Session == nil || json.Unmarshal(run.Session.Data, &s) != nil {
				return SavedScenario{}, fmt.Errorf("run #%d: its session is not readable", runID)
			}
			calls = sessions.Calls(run.Trace, s)
		case history.SourceCapture:
			// the calls as recorded, from the capture's journal; a capture kept
			// before the journal, from its trace
			if calls, err = capture.CallsOfRun(context.Background(), c.store, runID, nil); err != nil {
				return SavedScenario{}, err
			}
			if calls == nil {
				calls = capture.CallsFromTrace(run.Trace)
			}
		default:
			return SavedScenario{}, fmt.Errorf("run #%d is a %s run, not a capture or an imported session", runID, run.Source)
		}
		name = run.Scenario
	}
	if name == "" {
		name = capture.Name(calls)
	}
	notes, err := capture.SaveScenario(path, name, calls)
	if notes == nil {
		notes = []string{}
	}
	return SavedScenario{Path: path, Notes: notes}, err
}
