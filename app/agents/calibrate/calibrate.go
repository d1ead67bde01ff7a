// Package calibrate learns an agent CLI's rendering profile from the CLI
// itself: it runs the CLI offline against an in-process capture endpoint
// with a probe project whose hooks produce every outcome the simulator
// renders, each with words of its own, finds those words in the requests
// the CLI sent, and reads the role, place, wrapper, preamble, template and
// join around them (docs/rendering-profiles.md).
package calibrate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/agents/locate"
	"hookstudio/app/store/atomicfile"
)

// Errors a calibration reports (wrapped in a *ProbeError that names the
// probe).
var (
	// ErrNotOffline: the CLI did not start, or never reached the endpoint.
	ErrNotOffline = errors.New("the CLI did not run offline against the capture endpoint")
	// ErrTextNotFound: a probe's hook text is in none of the requests.
	ErrTextNotFound = errors.New("the hook's text was not found in the capture")
	// ErrUnreadable: the text was found but no rendering gives it back.
	ErrUnreadable = errors.New("the hook's text was found but could not be read as a rendering")
	// ErrToolDependent: the CLI words an outcome one way for one tool and
	// another way for another, which a profile cannot say.
	ErrToolDependent = errors.New("the CLI words this outcome apart by tool")
	// ErrUnsupported: no probe project for this agent yet.
	ErrUnsupported = errors.New("calibration is not available for this agent")
)

// ProbeError is a calibration that failed at one probe: a run of the CLI
// ("main", "prompt-exit2") or an outcome ("PreToolUse.context").
type ProbeError struct {
	Probe string
	Err   error
}

func (e *ProbeError) Error() string { return "probe " + e.Probe + ": " + e.Err.Error() }
func (e *ProbeError) Unwrap() error { return e.Err }

// Progress is a step of a calibration, for a progress line or bar.
type Progress struct {
	Run      int    `json:"run"`  // 1-based index of the CLI run
	Runs     int    `json:"runs"` // how many runs there are
	Probe    string `json:"probe"`
	Requests int    `json:"requests"` // requests the endpoint answered in this run
	Message  string `json:"message"`
}

// Options configure a calibration.
type Options struct {
	Agent string // "claude-code"
	CLI   string // the CLI's path
	// Known are the profiles to compare with (the nearest version's
	// differences are reported).
	Known []*profile.Profile
	// Progress is told each step (nil: nobody).
	Progress func(Progress)
	// RunTimeout bounds one run of the CLI (0: 3 minutes).
	RunTimeout time.Duration
	// DataDir is the app's data folder, whose calibrated profiles read the
	// hook words in a request calibration's runs ("": the bundled only).
	DataDir string
	// ProfileOnly learns the rendering profile and not the request model.
	ProfileOnly bool
}

// Result is a calibration's outcome: the profile, and how it differs from
// the nearest known one.
type Result struct {
	Profile  *profile.Profile `json:"profile"`
	CLI      string           `json:"cli"`
	Nearest  string           `json:"nearest,omitempty"` // agent@version, "" when none is known
	Changes  []profile.Change `json:"changes"`
	Duration time.Duration    `json:"duration_ns"`
	Requests int              `json:"requests"`
	// Request is the CLI's request model (nil: not learned for this agent
	// yet): save it with SaveRequest, into the user's data folder only.
	Request *request.Model `json:"request_model,omitempty"`
}

// Run calibrates opts.CLI. Nothing is written: Save the result's profile.
// A cancelled ctx ends the CLI and its hooks at once.
func Run(ctx context.Context, opts Options) (*Result, error) {
	start := time.Now()
	spec, known := agentSpecs()[opts.Agent]
	if opts.Agent != profile.ClaudeCode && !known {
		return nil, fmt.Errorf("%s: %w (known: %s)", opts.Agent, ErrUnsupported, strings.Join(Agents(), ", "))
	}
	if opts.RunTimeout <= 0 {
		opts.RunTimeout = 3 * time.Minute
	}
	// the CLI runs in the probe project: a relative path would name another file there
	if cli, err := filepath.Abs(opts.CLI); err == nil {
		opts.CLI = cli
	}
	if opts.Progress == nil {
		opts.Progress = func(Progress) {}
	}
	version, err := locate.NewFinder().Version(ctx, opts.CLI)
	if err != nil {
		return nil, &ProbeError{Probe: "version", Err: fmt.Errorf("%w: %w", ErrNotOffline, err)}
	}
	var p *profile.Profile
	var requests int
	if known {
		p, requests, err = calibrateAgent(ctx, opts, spec, version)
	} else {
		p, requests, err = claudeCode(ctx, opts, version)
	}
	if err != nil {
		return nil, err
	}
	// what is saved must load: the same checks as any profile file
	if _, err := profile.Parse(profile.Path("", p.Agent, p.Version), profile.Encode(p)); err != nil {
		return nil, &ProbeError{Probe: "profile", Err: fmt.Errorf("%w: %w", ErrUnreadable, err)}
	}
	res := &Result{Profile: p, CLI: opts.CLI, Changes: []profile.Change{}, Requests: requests}
	if n := profile.Nearest(opts.Known, p.Version); n != nil && n.Version == p.Version && n.Agent == p.Agent {
		// the agent's own paragraphs a run shows vary with its turns: what
		// an earlier calibration of this version saw is kept
		p.AgentParagraphs = slices.Compact(slices.Sorted(slices.Values(slices.Concat(p.AgentParagraphs, n.AgentParagraphs))))
	}
	if n := profile.Nearest(opts.Known, p.Version); n != nil {
		res.Nearest, res.Changes = n.Ref(), profile.Diff(n, p)
	}
	if _, ok := reqAgents()[opts.Agent]; ok && !opts.ProfileOnly {
		// the request around the hooks' words, read with the profile just
		// learned (a version no profile knew yet words its hooks anew)
		words, err := os.MkdirTemp("", "hookstudio-calprofile-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(words)
		if _, err := Save(words, p); err != nil {
			return nil, err
		}
		ro := opts
		ro.DataDir = words
		if res.Request, err = Request(ctx, ro); err != nil {
			return nil, err
		}
	}
	res.Duration = time.Since(start)
	return res, nil
}

// Save writes p to the data folder (agents/<agent>/<version>.json) at
// once: a reader sees the old file or the new one, never a part.
func Save(dataDir string, p *profile.Profile) (string, error) {
	file := profile.Path(dataDir, p.Agent, p.Version)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", fmt.Errorf("save the profile: %w", err)
	}
	if err := atomicfile.Write(file, profile.Encode(p), 0o644); err != nil {
		return "", fmt.Errorf("save the profile: %w", err)
	}
	return file, nil
}
