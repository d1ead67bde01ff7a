// Package hooksets loads every executable hook system of a skills root
// (command hooks today; process and request hooks add themselves here)
// and hands the engine their handlers in order. hookctl and the app call
// only this package.
package hooksets

import (
	"errors"
	"fmt"

	"hookstudio/app/cmdhook"
	"hookstudio/app/diag"
	"hookstudio/app/engine"
	"hookstudio/app/scenario"
)

// Options say what to load and whether it may run.
type Options struct {
	// UserFile is the user-level command hooks file (settings; "" none).
	UserFile string
	// Drafts are unsaved editor texts by path relative to the root.
	Drafts map[string][]byte
	// Scenario is the scenario to run: the skills enabled per request,
	// hook_answers, register_hook calls.
	Scenario *scenario.Scenario
	// Completer answers llm command hooks in a real run (nil: hook_answers).
	Completer cmdhook.Completer
	// Cache keeps command hook results between runs (nil: none).
	Cache *cmdhook.Cache
	// Trusted says the user trusted the folder's commands.
	Trusted bool
}

// Set is the hook systems of one run. Close it when the run ends.
type Set struct {
	cmdCfg   *cmdhook.Config
	cmd      *cmdhook.Handler
	commands []cmdhook.Command
	handlers []engine.Handler
	diags    []diag.Diagnostic
}

// ErrNotTrusted is cmdhook.ErrNotTrusted: the folder has commands to run
// and opts.Trusted is false.
var ErrNotTrusted = cmdhook.ErrNotTrusted

// Load reads every hook system's configuration under root and builds the
// handlers, outermost first. Nothing runs here. When the folder has
// commands to run and opts.Trusted is false it returns the Set (with
// Commands and Diagnostics, but no handlers) together with an error
// wrapping ErrNotTrusted, so the caller can ask the user.
func Load(root string, opts Options) (*Set, error) {
	cfg, err := cmdhook.Load(root, cmdhook.LoadOptions{UserFile: opts.UserFile, Drafts: opts.Drafts})
	if err != nil {
		return nil, fmt.Errorf("load hooks: %w", err)
	}
	s := &Set{cmdCfg: cfg, diags: cfg.Diagnostics}
	s.commands = append(cfg.Commands(), cmdhook.ScenarioCommands(opts.Scenario)...)
	if len(cfg.Hooks) > 0 || hasRegister(opts.Scenario) {
		if !opts.Trusted && len(s.commands) > 0 {
			return s, fmt.Errorf("%d command(s) would run: %w", len(s.commands), ErrNotTrusted)
		}
		h, err := cmdhook.New(cmdhook.Options{Root: root, Config: cfg, Scenario: opts.Scenario, Completer: opts.Completer,
			Cache: opts.Cache, Trusted: true})
		if err != nil {
			return s, fmt.Errorf("command hooks: %w", err)
		}
		s.cmd = h
		s.handlers = append(s.handlers, h)
	}
	// Process hooks (seed 003) and request hooks (seed 004) go here, in
	// that order: command hooks are outermost, request hooks innermost.
	return s, nil
}

func hasRegister(sc *scenario.Scenario) bool {
	if sc == nil {
		return false
	}
	for _, r := range sc.Requests {
		for _, rd := range r.Rounds {
			for _, tc := range rd.ToolCalls {
				if tc.Name == cmdhook.RegisterTool {
					return true
				}
			}
		}
	}
	return false
}

// Handlers are the engine handlers, outermost first (engine.Config.Handlers).
func (s *Set) Handlers() []engine.Handler { return s.handlers }

// Commands lists exactly what would run, for the trust prompt.
func (s *Set) Commands() []cmdhook.Command { return s.commands }

// Fingerprint hashes every hook configuration read: trust is remembered
// by root and fingerprint.
func (s *Set) Fingerprint() string { return s.cmdCfg.Fingerprint() }

// Diagnostics are the problems of every hook configuration, sorted.
func (s *Set) Diagnostics() []diag.Diagnostic { return s.diags }

// Hooks describes every executable hook for the skills panel.
func (s *Set) Hooks() []engine.HookInfo { return s.cmdCfg.HookInfos() }

// Metrics are every hook's counters of the run so far.
func (s *Set) Metrics() []engine.HookMetric {
	out := []engine.HookMetric{}
	if s.cmd != nil {
		out = append(out, s.cmd.Metrics()...)
	}
	return out
}

// Close kills whatever hook process is still running. It is safe to call
// more than once and on a Set without handlers.
func (s *Set) Close() error {
	var errs []error
	if s.cmd != nil {
		errs = append(errs, s.cmd.Close())
	}
	return errors.Join(errs...)
}
