package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/agents/locate"
	"hookstudio/app/services/studio"
)

// addAgentFlag adds --agent; the function it returns builds the picker of
// rendering profiles: the scenario's agent:, else --agent, else the
// installed CLI's version when a profile exists, else the newest bundled.
// --agent AGENT without a version picks as a scenario's agent: AGENT does
// (the installed CLI's version, else the newest bundled) and says on
// stderr which it picked.
func addAgentFlag(fs *flag.FlagSet) func(stderr io.Writer) (*profile.Picker, error) {
	v := fs.String("agent", "", "render an agent's hooks as this version does: AGENT@VERSION, such as claude-code@2.1.332 or gemini-cli@0.61.0 (a rendering profile; hookctl calibrate makes one), or AGENT alone for the installed CLI's version (else the newest bundled)")
	return func(stderr io.Writer) (*profile.Picker, error) {
		var ref profile.Ref
		if *v != "" {
			r, err := profile.ParseRef(*v)
			if err != nil {
				return nil, fmt.Errorf("%w: --agent: %w", errUsage, err)
			}
			if r.Agent == "" || locate.Command(r.Agent) == "" {
				return nil, fmt.Errorf("%w: --agent takes AGENT or AGENT@VERSION (claude-code, gemini-cli, copilot-cli, codex, qwen-code), got %q", errUsage, *v)
			}
			ref = r
		}
		dir, err := studio.DefaultDataDir()
		if err != nil {
			return nil, err
		}
		finder := locate.NewFinder()
		p := &profile.Picker{Catalog: profile.NewCatalog(dir), Flag: ref, Installed: func(agent string) string {
			cli, err := finder.Find(context.Background(), agent)
			if err != nil {
				return "" // no CLI, or one that does not say its version: the newest bundled profile
			}
			return cli.Version
		}}
		if ref.Agent != "" && ref.Version == "" {
			_, c, err := p.Choose(ref.Agent, "")
			if err != nil {
				return nil, fmt.Errorf("--agent %s: %w", ref.Agent, err)
			}
			fmt.Fprintf(stderr, "--agent %s: %s@%s (%s)\n", ref.Agent, c.Agent, c.Version, agentWhy(c.Agent, c.By))
		}
		return p, nil
	}
}

// addHomeFlag adds --home: the home folder a simulated agent reports in
// its request (Claude Code names its memory folder under it), so a run
// can be compared with the real CLI run under a throw-away HOME.
func addHomeFlag(fs *flag.FlagSet) *string {
	return fs.String("home", "", "the home folder the simulated agent reports in its request (default: yours)")
}

// addDirFlag adds --dir: the working folder a simulated agent reports
// (its path, its files, its tree) when it is not the skills folder — a
// skill folder holding the agent's own project, as the agent runs in it.
func addDirFlag(fs *flag.FlagSet) *string {
	return fs.String("dir", "", "the working folder the simulated agent reports in its request (default: the skills folder)")
}

// requestCatalog finds agents' request models: those calibrated into the
// data folder, else the bundled shapes.
func requestCatalog() (*request.Catalog, error) {
	dir, err := studio.DefaultDataDir()
	if err != nil {
		return nil, err
	}
	return request.NewCatalog(dir), nil
}
