// Package hooksets loads every executable hook system of a skills root
// (command hooks today; process and request hooks add themselves here)
// and hands the engine their handlers in order. hookctl and the app call
// only this package.
package hooksets

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agents/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/prochook"
)

// Options say what to load and whether it may run.
type Options struct {
	// UserFile is the user-level command hooks file (settings; "" none).
	UserFile string
	// ClaudeUserSettings is Claude Code's user-level settings.json (an app
	// setting, hookctl --claude-user-settings; "" none).
	ClaudeUserSettings string
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
	// Mode is where the programs' documents and code disagree, which the
	// run follows; "" reads the folder's setting (hostmode.File, code
	// when absent).
	Mode hostmode.Mode
	// Agents chooses the rendering profile of Claude Code's hooks (nil:
	// the scenario's agent: or the newest bundled profile).
	Agents *profile.Picker
}

// Set is the hook systems of one run. Close it when the run ends.
type Set struct {
	cmdCfg   *cmdhook.Config
	cmd      *cmdhook.Handler
	procCfg  *prochook.Config
	proc     *prochook.Handler
	commands []cmdhook.Command
	folder   []cmdhook.Command // every command of the folder (the trust prompt's list)
	handlers []engine.Handler
	diags    []diag.Diagnostic
	req      requestSet // request hooks (requests.go)
	mode     hostmode.Mode
	ccCfg    *claudehook.Config
	cc       *claudehook.Handler
	agent    *engine.Agent
}

// Agent is the agent CLI version whose renderings the run shows (nil when
// the run has no Claude Code hooks and the scenario names no agent).
func (s *Set) Agent() *engine.Agent { return s.agent }

// Mode is the host behaviour the run follows.
func (s *Set) Mode() hostmode.Mode { return s.mode }

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
	s := &Set{cmdCfg: cfg, diags: cfg.Diagnostics, mode: opts.Mode}
	if s.mode == "" {
		mode, ds, err := hostmode.Load(root)
		if err != nil {
			return nil, fmt.Errorf("load hooks: %w", err)
		}
		s.mode = mode
		s.diags = append(s.diags, ds...)
	}
	// Command hooks: only what this scenario can reach (a skill it never
	// enables needs no trust), plus what its register_hook calls add; the
	// trust prompt lists the whole folder's.
	s.commands = append(cfg.CommandsFor(opts.Scenario), cmdhook.ScenarioCommands(opts.Scenario)...)
	s.folder = append(cfg.Commands(), cmdhook.ScenarioCommands(opts.Scenario)...)
	// Process hooks (seed 003): PicoClaw configs, read now, started by the run.
	pc, err := prochook.Read(context.Background(), root, nil, opts.Drafts)
	if err != nil {
		return nil, fmt.Errorf("load hooks: %w", err)
	}
	s.procCfg = pc
	s.diags = append(s.diags, pc.Diagnostics...)
	diag.Sort(s.diags)
	// Like command hooks, only the process hooks this scenario can reach.
	runnable := prochook.Runnable(pc.Hooks, s.mode)
	procs := prochook.Reachable(runnable, opts.Scenario)
	s.commands = append(s.commands, processCommands(procs)...)
	s.folder = append(s.folder, processCommands(runnable)...)
	// Claude Code's hooks: settings files, plugins, SKILL.md frontmatter.
	cc, err := claudehook.Load(root, claudehook.LoadOptions{UserSettings: opts.ClaudeUserSettings, Drafts: opts.Drafts})
	if err != nil {
		return nil, fmt.Errorf("load hooks: %w", err)
	}
	s.ccCfg = cc
	var prof *profile.Profile
	// a profile only for a run where Claude Code's hooks can fire (or whose
	// scenario names the version): the others render nothing of Claude Code's
	if len(cc.Active(enabledSkills(opts.Scenario))) > 0 || scenarioAgent(opts.Scenario) != "" {
		p, ch, err := opts.Agents.Choose(profile.ClaudeCode, scenarioAgent(opts.Scenario))
		if err != nil {
			return nil, fmt.Errorf("load hooks: %w", err)
		}
		prof, s.agent = p, &engine.Agent{Agent: ch.Agent, Version: ch.Version, By: ch.By}
	}
	s.diags = append(s.diags, cc.Diagnostics...)
	diag.Sort(s.diags)
	s.commands = append(s.commands, claudeCommands(cc.Commands(enabledSkills(opts.Scenario)))...)
	s.folder = append(s.folder, claudeCommands(cc.Commands(nil))...)
	if err := s.loadRequests(root, opts.Drafts, opts.Scenario, opts.Trusted); err != nil { // requests.go
		return nil, err
	}
	if !opts.Trusted && len(s.commands) > 0 {
		return s, fmt.Errorf("%d command(s) would run: %w", len(s.commands), ErrNotTrusted)
	}
	if len(cfg.HooksFor(opts.Scenario)) > 0 || hasRegister(opts.Scenario) {
		h, err := cmdhook.New(cmdhook.Options{Root: root, Config: cfg, Scenario: opts.Scenario, Completer: opts.Completer,
			Cache: opts.Cache, Trusted: true, Mode: s.mode})
		if err != nil {
			return s, fmt.Errorf("command hooks: %w", err)
		}
		s.cmd = h
		s.handlers = append(s.handlers, h)
	}
	if len(procs) > 0 {
		s.proc = prochook.New(procs, prochook.Options{Mode: s.mode})
		s.handlers = append(s.handlers, s.proc)
	}
	if len(cc.Hooks) > 0 {
		h, err := claudehook.New(claudehook.Options{Config: cc, Scenario: opts.Scenario, Completer: opts.Completer, Profile: prof})
		if err != nil {
			return s, err
		}
		s.cc = h
		s.handlers = append(s.handlers, h)
	}
	// Request hooks (seed 004) go here: command hooks are outermost,
	// process hooks next, then Claude Code's, request hooks innermost.
	return s, nil
}

// scenarioAgent is the scenario's agent: when it names Claude Code.
func scenarioAgent(sc *scenario.Scenario) string {
	if sc == nil || sc.Agent == "" {
		return ""
	}
	if r, err := profile.ParseRef(sc.Agent); err != nil || r.Agent != profile.ClaudeCode {
		return ""
	}
	return sc.Agent
}

// claudeCommands lists Claude Code's command and http handlers in the
// trust prompt's shape.
func claudeCommands(cs []claudehook.Command) []cmdhook.Command {
	var out []cmdhook.Command
	for _, c := range cs {
		out = append(out, cmdhook.Command{Source: c.Source, Event: cmdhook.Event("claude-code: " + c.Event), Hook: c.Command,
			Skill: c.Skill, Command: c.Command, Dir: c.Dir})
	}
	return out
}

// enabledSkills are the skills some request of sc enables (nil: every
// skill, when the scenario names none).
func enabledSkills(sc *scenario.Scenario) []string {
	if sc == nil || sc.EnabledSkills == nil {
		return nil
	}
	out := append([]string{}, sc.EnabledSkills...)
	for _, r := range sc.Requests {
		out = append(out, r.EnabledSkills...) // nil: the scenario's, already in
	}
	return out
}

// processCommands lists what the process hooks would start, in the trust
// prompt's shape.
func processCommands(hs []prochook.Hook) []cmdhook.Command {
	var out []cmdhook.Command
	for i := range hs {
		h := &hs[i]
		out = append(out, cmdhook.Command{Source: fmt.Sprintf("%s:%d", h.File, h.Line), Event: cmdhook.Event("process: hook." + strings.Join(h.Intercept, ", hook.")),
			Hook: h.Name, Skill: h.Skill, Command: h.CommandLine(), Dir: h.Dir})
	}
	return out
}

func hasRegister(sc *scenario.Scenario) bool {
	if sc == nil {
		return false
	}
	for _, r := range sc.Requests {
		for _, rd := range r.Rounds {
			for _, tc := range rd.ToolCalls {
				if cmdhook.IsRegister(tc.Name) {
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

// FolderCommands lists every command the folder's hooks may run, whichever
// scenario runs: what trusting the folder allows.
func (s *Set) FolderCommands() []cmdhook.Command { return s.folder }

// Fingerprint hashes every hook configuration read: trust is remembered
// by root and fingerprint.
func (s *Set) Fingerprint() string {
	fp := s.cmdCfg.Fingerprint()
	if s.procCfg != nil && s.procCfg.Fingerprint != "" {
		fp += "+" + s.procCfg.Fingerprint
	}
	if s.ccCfg != nil && len(s.ccCfg.Files) > 0 {
		fp += "+cc:" + s.ccCfg.Fingerprint()
	}
	return s.requestFingerprint(fp)
}

// Diagnostics are the problems of every hook configuration, sorted.
func (s *Set) Diagnostics() []diag.Diagnostic { return s.diags }

// Hooks describes every executable hook for the skills panel.
func (s *Set) Hooks() []engine.HookInfo {
	out := s.cmdCfg.HookInfos()
	if s.procCfg != nil {
		out = append(out, prochook.New(s.procCfg.Hooks, prochook.Options{}).Hooks()...)
	}
	if s.ccCfg != nil {
		out = append(out, s.ccCfg.HookInfos()...)
	}
	return append(out, s.requestInfos()...)
}

// Metrics are every hook's counters of the run so far.
func (s *Set) Metrics() []engine.HookMetric {
	out := []engine.HookMetric{}
	if s.cmd != nil {
		out = append(out, s.cmd.Metrics()...)
	}
	if s.proc != nil {
		out = append(out, s.proc.HookMetrics()...)
	}
	if s.cc != nil {
		out = append(out, s.cc.Metrics()...)
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
	if s.proc != nil {
		errs = append(errs, s.proc.Close())
	}
	if s.cc != nil {
		errs = append(errs, s.cc.Close())
	}
	return errors.Join(errs...)
}
