package studio

import (
	"context"
	"errors"
	"slices"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/reqhook"
)

// HooksetsLoader is the app's ExecLoader: every executable hook system
// through app/hooks/hooksets, with one command-hook result cache kept between
// runs, so a hook whose input and files did not change is not run again
// (its step says "reused"). counter gives request hooks token usage for
// the mock model.
func HooksetsLoader(counter reqhook.TokenCounter, opts ...LoaderOption) ExecLoader {
	cache := cmdhook.NewCache()
	return func(_ context.Context, req ExecRequest) (ExecSet, error) {
		hs := hooksetsSet{counter: counter}
		for _, o := range opts {
			o(&hs)
		}
		picker, err := hs.agents.picker(req.Agent)
		if err != nil {
			return nil, err
		}
		set, err := hooksets.Load(req.Root, hooksets.Options{UserFile: hs.user.Get(), ClaudeUserSettings: hs.user.Claude(), Drafts: req.Drafts,
			Scenario: withoutSkills(req.Scenario, req.Skills, req.Disabled), Cache: req.cache(cache), Trusted: req.Trusted, Completer: req.Completer,
			Agents: picker})
		if set == nil {
			return nil, err
		}
		if !req.Trusted && errors.Is(err, hooksets.ErrNotTrusted) {
			err = nil // parsing for the trust prompt: that is the point
		}
		hs.set = set
		return hs, err
	}
}

type hooksetsSet struct {
	set     *hooksets.Set
	counter reqhook.TokenCounter
	policy  *RequestPolicySetting // the settings' request policy (reqpolicy.go)
	user    *UserHooksSetting     // the settings' user-level hooks.yaml and Claude Code settings.json (userhooks.go)
	agents  *AgentsSetting        // the agent CLI version runs render as (agents.go)
}

func (h hooksetsSet) Handlers() []engine.Handler     { return h.set.Handlers() }
func (h hooksetsSet) Hooks() []engine.HookInfo       { return h.set.Hooks() }
func (h hooksetsSet) Diagnostics() []diag.Diagnostic { return h.set.Diagnostics() }
func (h hooksetsSet) Metrics() []engine.HookMetric   { return h.set.Metrics() }
func (h hooksetsSet) Close() error                   { return h.set.Close() }

func (h hooksetsSet) Commands() []ExecCommand { return execCommands(h.set.Commands()) }

// FolderCommands lists every command trusting the folder allows.
func (h hooksetsSet) FolderCommands() []ExecCommand { return execCommands(h.set.FolderCommands()) }

func execCommands(cs []cmdhook.Command) []ExecCommand {
	out := make([]ExecCommand, len(cs))
	for i, c := range cs {
		out[i] = ExecCommand{Source: c.Source, Event: string(c.Event), Hook: c.Hook, Skill: c.Skill, Command: c.Command, Dir: c.Dir}
	}
	return out
}

// Active says whether a run has hooks to run at all (handlers, or request
// hooks such as a scenario's request policy, which start nothing).
func (h hooksetsSet) Active() bool {
	return len(h.set.Handlers()) > 0 || h.set.RequestHooks(hooksets.RequestRun{Backend: "mock", Counter: h.counter, Policy: h.policy.Policy()}) != nil
}

// Prepare adds the request hooks (seed 004), innermost, when the run
// needs them.
func (h hooksetsSet) Prepare(cfg *engine.Config) {
	h.set.WithRequestHooks(cfg, hooksets.RequestRun{Backend: "mock", Counter: h.counter, Policy: h.policy.Policy()})
	cfg.Agent = h.set.Agent()
}

// withoutSkills is sc with the skills switched off in the UI left out of
// every request, so their executable hooks do not run either.
func withoutSkills(sc *scenario.Scenario, all []string, disabled map[string]bool) *scenario.Scenario {
	if sc == nil || len(disabled) == 0 {
		return sc
	}
	keep := func(list []string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return disabled[s] })
	}
	c := *sc
	if c.EnabledSkills == nil {
		c.EnabledSkills = keep(all)
	} else {
		c.EnabledSkills = keep(c.EnabledSkills)
	}
	c.Requests = slices.Clone(sc.Requests)
	for i := range c.Requests {
		if c.Requests[i].EnabledSkills != nil {
			c.Requests[i].EnabledSkills = keep(c.Requests[i].EnabledSkills)
		}
	}
	return &c
}
