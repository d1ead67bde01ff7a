// Package hooksets builds the registry of every hook system Hook Studio
// hosts (Registry) and loads a folder's executable hooks through it (Load):
// parsed once, drafts laid over the files, then asked what a run would
// start (the trust prompt) and attached to any number of runs. hookctl and
// the app reach the hook systems only through this package and the
// registry.
package hooksets

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/codexhook"
	"hookstudio/app/hooks/copilothook"
	"hookstudio/app/hooks/droidhook"
	"hookstudio/app/hooks/geminihook"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/prochook"
	"hookstudio/app/hooks/qwenhook"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/hooks/skills"
	"hookstudio/schema"
)

// RegistryOptions are what the systems keep between runs and read from the
// app's settings.
type RegistryOptions struct {
	// ReuseResults keeps command hook results between runs: a hook whose
	// input and files did not change is not run again (the app).
	ReuseResults bool
	// Policy is the app's request policy, asked at each run (nil: the
	// scenario's request_policy only).
	Policy func() *reqhook.Policy
}

// Registry is every hook system Hook Studio hosts, one registration each,
// in the order their handlers run: command hooks outermost, then process
// hooks, Claude Code's, and request hooks innermost. A new system is its
// folder under app/hooks and one line here.
func Registry(opts RegistryOptions) *registry.Registry {
	var cache *cmdhook.Cache
	if opts.ReuseResults {
		cache = cmdhook.NewCache()
	}
	r, err := registry.New(
		promptHooks(),
		cmdhook.Registration(cache),
		prochook.Registration(),
		claudehook.Registration(),
		codexhook.Registration(),
		qwenhook.Registration(),
		droidhook.Registration(),
		geminihook.Registration(),
		copilothook.Registration(),
		reqhook.Registration(opts.Policy),
	)
	if err != nil {
		panic(err) // the built-in registrations are checked by the tests
	}
	return r
}

// promptHooks is seed 000's prompt hooks (hooks.json and its .md prompts).
// They are the simulated agent's own hooks: the host loads them (skills.Load)
// and hands them to the engine, so they have no Load here; and
// app/hooks/skills sits below the engine, so their registration is written
// here rather than in that package.
func promptHooks() registry.System {
	return registry.System{
		Name:  "prompt",
		Title: "prompt hooks (seed 000's hooks.json)",
		Files: []registry.File{
			{Kind: "hooks-json", Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/hooks/hooks.json"}, Schema: schema.Hooks},
		},
		Lint: func(file string, text []byte) []diag.Diagnostic {
			_, ds := skills.ParseHooks(file, text)
			return ds
		},
	}
}

// ErrNotTrusted is returned by Attach for a run that would start commands
// in a folder nobody trusted.
var ErrNotTrusted = errors.New("the folder's hooks are not trusted")

// Options say what to load.
type Options struct {
	// User are the systems' user-level files by system name (the app's
	// settings, hookctl's flags); "" none.
	User map[string]string
	// Drafts are unsaved editor texts by path relative to the root.
	Drafts map[string][]byte
	// Mode is where the programs' documents and code disagree, which runs
	// follow; "" reads the folder's setting (hostmode.File, code when
	// absent).
	Mode hostmode.Mode
}

// Set is a folder's executable hooks, parsed once. Nothing runs until
// Attach; it is safe to use from several goroutines (it is not changed).
type Set struct {
	parts []part
	diags []diag.Diagnostic
	mode  hostmode.Mode
}

type part struct {
	sys registry.System
	cfg registry.Loaded
}

// Load reads every system's configuration under root. Nothing runs here.
func Load(ctx context.Context, reg *registry.Registry, root string, opts Options) (*Set, error) {
	s := &Set{mode: opts.Mode}
	if s.mode == "" {
		mode, ds, err := hostmode.Load(root)
		if err != nil {
			return nil, fmt.Errorf("load hooks: %w", err)
		}
		s.mode = mode
		s.diags = append(s.diags, ds...)
	}
	for _, sys := range reg.Systems() {
		if sys.Load == nil {
			continue
		}
		req := registry.LoadRequest{Root: root, Drafts: opts.Drafts, Mode: s.mode}
		if sys.User != nil {
			req.User = opts.User[sys.Name]
			if d, ok := userFileProblem(sys, req.User); ok {
				s.diags = append(s.diags, d)
				req.User = ""
			}
		}
		cfg, err := sys.Load(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("load hooks: %w", err)
		}
		s.parts = append(s.parts, part{sys, cfg})
		s.diags = append(s.diags, cfg.Diagnostics()...)
	}
	diag.Sort(s.diags)
	return s, nil
}

// CodeUserFile: a user-level file named in the settings or by a flag is
// missing or of the wrong kind, so none of its hooks load.
const CodeUserFile = "user-file-missing"

// userFileProblem says why the user-level file a setting or flag names
// cannot be read, rather than loading it as none without a word.
func userFileProblem(sys registry.System, path string) (diag.Diagnostic, bool) {
	if path == "" {
		return diag.Diagnostic{}, false
	}
	u := sys.User
	what := cmp.Or(u.Name, "file")
	fix := fmt.Sprintf("correct it (Settings, or hookctl's --%s) or clear it", u.Flag)
	d := diag.Diagnostic{File: path, Severity: diag.Error, Code: CodeUserFile}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		d.Message = fmt.Sprintf("the user-level %s of %s cannot be read (%v), so none of its hooks load: %s", what, sys.Title, err, fix)
	case u.Folder && !fi.IsDir():
		d.Message = fmt.Sprintf("the user-level %s of %s is a file, not a folder, so none of its hooks load: %s", what, sys.Title, fix)
	case !u.Folder && fi.IsDir():
		d.Message = fmt.Sprintf("the user-level %s of %s is a folder, not a file, so none of its hooks load: %s", what, sys.Title, fix)
	default:
		return diag.Diagnostic{}, false
	}
	return d, true
}

// Mode is the host behaviour runs follow.
func (s *Set) Mode() hostmode.Mode { return s.mode }

// Diagnostics are the problems of every hook configuration, sorted.
func (s *Set) Diagnostics() []diag.Diagnostic { return s.diags }

// Hooks describes every executable hook for the skills panel.
func (s *Set) Hooks() []engine.HookInfo {
	out := []engine.HookInfo{}
	for _, p := range s.parts {
		out = append(out, p.cfg.Hooks()...)
	}
	return out
}

// Commands lists exactly what a run of sc would start, for the trust
// prompt.
func (s *Set) Commands(sc *scenario.Scenario) []registry.Command { return s.commands(sc, false) }

// FolderCommands lists every command the folder's hooks (and sc's
// register_hook calls) may start, whichever scenario runs: what trusting
// the folder allows.
func (s *Set) FolderCommands(sc *scenario.Scenario) []registry.Command { return s.commands(sc, true) }

func (s *Set) commands(sc *scenario.Scenario, folder bool) []registry.Command {
	var out []registry.Command
	for _, p := range s.parts {
		out = append(out, p.cfg.Commands(sc, folder)...)
	}
	return out
}

// SkillNames is what a scenario's enabled_skills may name in the folder:
// its skill folders and what the hook systems add (Claude Code's skills).
func (s *Set) SkillNames(folders []string) scenario.SkillNames {
	names := scenario.SkillNames{Folders: folders}
	for _, p := range s.parts {
		p.cfg.Skills(&names)
	}
	return names
}

// Active says whether a run of sc has executable hooks to run at all
// (some start nothing, as a request policy, and need no trust).
func (s *Set) Active(sc *scenario.Scenario) bool {
	for _, p := range s.parts {
		if p.cfg.Active(sc) {
			return true
		}
	}
	return false
}

// Attach adds to cfg the handlers of every system a run reaches, in the
// registry's order (and wraps cfg.Model for those around the request).
// A run that would start a command without run.Trusted gets nothing and
// ErrNotTrusted. Close the Run when it ends.
func (s *Set) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if n := len(s.Commands(run.Scenario)); n > 0 && !run.Trusted {
		return nil, fmt.Errorf("%d command(s) would run: %w", n, ErrNotTrusted)
	}
	r := &Run{}
	for _, p := range s.parts {
		a, err := p.cfg.Attach(cfg, run)
		if err != nil {
			_ = r.Close()
			return nil, fmt.Errorf("%s hooks: %w", p.sys.Name, err)
		}
		if a != nil {
			r.parts = append(r.parts, a)
		}
	}
	return r, nil
}

// Run is the hook systems' part of one run.
type Run struct{ parts []registry.Attached }

// Metrics are every hook's counters of the run so far.
func (r *Run) Metrics() []engine.HookMetric {
	out := []engine.HookMetric{}
	for _, p := range r.parts {
		out = append(out, p.Metrics()...)
	}
	return out
}

// Close kills whatever hook process is still running. It is safe to call
// more than once.
func (r *Run) Close() error {
	var errs []error
	for _, p := range r.parts {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}

// Profiles chooses the rendering profiles of a run of sc (issue 27), for
// each agent whose hooks the run renders (Claude Code, Gemini CLI, Copilot
// CLI, …): the scenario's agent: when it names that agent, else the
// picker's version (hookctl --agent, the app's picker) when it does, else
// the installed CLI's when a profile exists for it, else the newest
// bundled. A version asked for that has no profile is an error
// (*profile.UnknownVersionError) before anything runs. The result is
// runs.Spec.Profiles / registry.Run.Profiles.
func Profiles(p *profile.Picker, sc *scenario.Scenario) (func(agent string) registry.Profile, error) {
	want := map[string]string{}
	if sc != nil {
		if r, err := profile.ParseRef(sc.Agent); err == nil && r.Agent != "" {
			want[r.Agent] = sc.Agent
		}
	}
	agents := []string{profile.ClaudeCode}
	if p != nil && p.Flag.Agent != "" {
		agents = append(agents, p.Flag.Agent)
	}
	for a := range want {
		agents = append(agents, a)
	}
	var mu sync.Mutex
	chosen := map[string]*profile.Profile{}
	for _, a := range agents {
		if _, ok := chosen[a]; ok {
			continue
		}
		prof, _, err := p.Choose(a, want[a])
		if err != nil {
			return nil, fmt.Errorf("load hooks: %w", err)
		}
		chosen[a] = prof
	}
	return func(agent string) registry.Profile {
		mu.Lock()
		defer mu.Unlock()
		prof, ok := chosen[agent]
		if !ok {
			// chosen when first asked: the installed CLI's, else the newest bundled
			prof, _, _ = p.Choose(agent, "")
			chosen[agent] = prof
		}
		if prof == nil {
			return nil // an agent without profiles: its system's own renderings
		}
		return prof
	}, nil
}

// Check loads root with the systems that host agent's hooks
// (registry.System.Agent) and returns their diagnostics: what that agent's
// validator (hookctl validate) says of the folder. False when no system
// hosts the agent yet.
func Check(ctx context.Context, reg *registry.Registry, root, agent string) ([]diag.Diagnostic, bool, error) {
	var out []diag.Diagnostic
	found := false
	for _, sys := range reg.Systems() {
		if sys.Agent != agent || sys.Load == nil {
			continue
		}
		found = true
		cfg, err := sys.Load(ctx, registry.LoadRequest{Root: root, Mode: hostmode.Code})
		if err != nil {
			return nil, true, fmt.Errorf("check %s hooks: %w", agent, err)
		}
		out = append(out, cfg.Diagnostics()...)
	}
	diag.Sort(out)
	return out, found, nil
}
