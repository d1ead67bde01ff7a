package studio

import (
	"context"
	"slices"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
)

// HooksetsLoader is the app's ExecLoader: every executable hook system of
// reg through app/hooks/hooksets, with the user-level files the settings
// name (user; nil: none).
func HooksetsLoader(reg *registry.Registry, user *UserHooksSetting) ExecLoader {
	return func(ctx context.Context, req ExecRequest) (ExecSet, error) {
		set, err := hooksets.Load(ctx, reg, req.Root, hooksets.Options{User: user.Files(reg), Drafts: req.Drafts})
		if err != nil {
			return nil, err
		}
		return set, nil
	}
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

// skillNames are the folder's skills.
func skillNames(set *skills.Set) []string {
	if set == nil {
		return nil
	}
	out := make([]string, len(set.Skills))
	for i, sk := range set.Skills {
		out[i] = sk.Name
	}
	return out
}
