package reqhook

import (
	"context"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// KindRequestHooks is a request-hooks.yaml for the editor.
const KindRequestHooks = "request-hooks"

// Registration is request hooks (seed 004) as the registry knows them:
// start and end commands around every model request, from the root's
// .hookstudio/request-hooks.yaml and each skill's hooks/request-hooks.yaml,
// with the built-in policy. policy is the app's policy setting, asked at
// each run (nil, or nil returned: the scenario's request_policy, if any).
func Registration(policy func() *Policy) registry.System {
	return registry.System{
		Name:  System,
		Title: "request hooks (seed 004)",
		Label: "req",
		Files: []registry.File{
			{Kind: KindRequestHooks, Role: registry.Config, Level: registry.Root, Patterns: []string{ProjectFile}, Schema: schema.RequestHooks, Trust: true},
			{Kind: KindRequestHooks, Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/" + SkillFile}, Schema: schema.RequestHooks, Trust: true},
		},
		Dirs: []string{".hookstudio"},
		Starter: &registry.Starter{Path: ProjectFile, Text: `# Request hooks (seed 004): commands run at the start and the end of every
# model request, whichever skills a scenario enables. For example:
#
# start:
#   - name: note
#     command: "cat >/dev/null"
{}
`},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := LoadDrafts(req.Root, req.Drafts)
			if err != nil {
				return nil, err
			}
			return &loaded{root: req.Root, cfg: cfg, policy: policy}, nil
		},
	}
}

// loaded is a folder's request hooks for the registry.
type loaded struct {
	root   string
	cfg    *Config
	policy func() *Policy
}

func (l *loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l *loaded) Skills(*scenario.SkillNames)    {} // its skills are the folders
func (l *loaded) Hooks() []engine.HookInfo       { return l.cfg.Infos() }

// Commands lists every start and end hook: they run around every request,
// whichever skills a scenario enables.
func (l *loaded) Commands(*scenario.Scenario, bool) []registry.Command {
	var out []registry.Command
	for _, hs := range [][]Hook{l.cfg.Start, l.cfg.End} {
		for _, h := range hs {
			out = append(out, registry.Command{Source: h.Source, Event: "request: " + h.Event, Hook: h.Name,
				Skill: h.Skill, Command: h.Command, Dir: h.Dir})
		}
	}
	return out
}

// runPolicy is the policy of a run of sc: the app's setting, else the
// scenario's request_policy.
func (l *loaded) runPolicy(sc *scenario.Scenario) *Policy {
	if l.policy != nil {
		if p := l.policy(); p != nil {
			return p
		}
	}
	return PolicyFromScenario(sc, nil)
}

// Active: declared hooks, a policy or scripted attempts (which start
// nothing, so they run without trust).
func (l *loaded) Active(sc *scenario.Scenario) bool { return Needed(l.cfg, sc, l.runPolicy(sc)) }

// Attach wraps the run's model and adds the Host last (request hooks are
// innermost) when the run needs one, so other runs stay exactly as runs
// without request hooks. Without trust the declared hooks stay out.
func (l *loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	policy := l.runPolicy(run.Scenario)
	hooks := l.cfg
	if !run.Trusted {
		hooks = nil
	}
	if !Needed(hooks, run.Scenario, policy) {
		return nil, nil
	}
	opts := Options{Root: l.root, Config: hooks, Scenario: run.Scenario, Policy: policy, Counter: run.Tokens, RunID: run.RunID}
	if provider, profile, ok := strings.Cut(run.Backend, ":"); ok {
		opts.Real, opts.Streaming, opts.Credential, opts.Email = true, true, profile, run.Email
		opts.Route = provider + ".chat"
		if provider == "anthropic" {
			opts.Route = "anthropic.messages"
		}
	}
	h := New(opts)
	cfg.Model = h.Model(cfg.Model)
	cfg.Handlers = append(cfg.Handlers, h)
	return attached{h}, nil
}

// attached is a run's request hooks; their figures are in the trace's
// request contexts, not per-hook counters.
type attached struct{ *Host }

func (attached) Metrics() []engine.HookMetric { return nil }
