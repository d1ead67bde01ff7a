package studio

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agents/locate"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/store/atomicfile"
)

// AgentsFile is the app's agent version setting in the data folder.
const AgentsFile = "agents.json"

// AgentsSetting is which agent CLI version the app's runs render hook
// output as (the picker beside "hosts as"; hookctl's --agent): a version
// per agent, or none — then the installed CLI's version when a profile
// exists for it, else the newest bundled. A scenario's agent: wins over it.
// It also knows the profiles (bundled, calibrated into the data folder)
// and finds the installed CLIs.
type AgentsSetting struct {
	path    string
	catalog *profile.Catalog
	finder  *locate.Finder

	mu     sync.Mutex
	chosen map[string]string
}

// LoadAgents reads the setting from dataDir (none yet: automatic). A
// damaged file is reported and the setting starts empty.
func LoadAgents(dataDir string) (*AgentsSetting, error) {
	a := &AgentsSetting{path: filepath.Join(dataDir, AgentsFile), catalog: profile.NewCatalog(dataDir),
		finder: locate.NewFinder(), chosen: map[string]string{}}
	chosen := map[string]string{}
	switch _, err := atomicfile.ReadJSON(a.path, &chosen); {
	case errors.Is(err, atomicfile.ErrDamaged):
		return a, fmt.Errorf("agents setting %s is damaged and was ignored: %w", a.path, err)
	case err != nil:
		return a, fmt.Errorf("agents setting: %w", err)
	}
	a.chosen = chosen
	return a, nil
}

// Catalog is the profiles the app knows: bundled and calibrated.
func (a *AgentsSetting) Catalog() *profile.Catalog { return a.catalog }

// Finder finds the installed CLIs (their versions asked once per file).
func (a *AgentsSetting) Finder() *locate.Finder { return a.finder }

// Chosen is the version chosen for agent ("" automatic).
func (a *AgentsSetting) Chosen(agent string) string {
	if a == nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.chosen[agent]
}

// Choose sets agent's version ("" automatic) and saves the setting; a
// version without a profile is an *profile.UnknownVersionError.
func (a *AgentsSetting) Choose(agent, version string) error {
	if version != "" {
		if _, err := a.catalog.Get(agent, version); err != nil {
			return err
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	next := map[string]string{}
	for k, v := range a.chosen {
		next[k] = v
	}
	if version == "" {
		delete(next, agent)
	} else {
		next[agent] = version
	}
	if err := atomicfile.WriteJSON(a.path, next, 0o644); err != nil {
		return fmt.Errorf("agents setting: %w", err)
	}
	a.chosen = next
	return nil
}

// Installed is the installed CLI's version of agent ("" none found).
func (a *AgentsSetting) Installed(ctx context.Context, agent string) string {
	cli, err := a.finder.Find(ctx, agent)
	if err != nil {
		return ""
	}
	return cli.Version
}

// runProfiles chooses a run's rendering profiles: override (agent@version,
// for this run only) or the chosen version, the installed CLI's, the
// newest bundled — the scenario's agent: first. A nil setting knows the
// bundled profiles only. An unknown version is an error.
func (a *AgentsSetting) runProfiles(override string, sc *scenario.Scenario) (func(string) registry.Profile, error) {
	var p *profile.Picker
	if a != nil {
		p = &profile.Picker{Catalog: a.catalog, Installed: func(agent string) string { return a.Installed(context.Background(), agent) }}
		if v := a.Chosen(profile.ClaudeCode); v != "" {
			p.Flag = profile.Ref{Agent: profile.ClaudeCode, Version: v}
		}
	}
	if override != "" {
		r, err := profile.ParseRef(override)
		if err != nil {
			return nil, err
		}
		if p == nil {
			p = &profile.Picker{}
		}
		p.Flag = r
	}
	return hooksets.Profiles(p, sc)
}

// AgentChoice is what the picker beside "hosts as" shows for an agent.
type AgentChoice struct {
	Agent string `json:"agent"`
	// Chosen is the version the app renders as ("" automatic: the
	// installed CLI's when a profile exists for it, else the newest bundled).
	Chosen   string          `json:"chosen"`
	Versions []profile.Entry `json:"versions"` // every known profile, oldest first
	// Installed is the CLI found on PATH (Path "" when none).
	Installed locate.CLI `json:"installed"`
}

// Choice is agent's picker: the chosen version, the known ones, the
// installed CLI.
func (a *AgentsSetting) Choice(ctx context.Context, agent string) (AgentChoice, error) {
	c := AgentChoice{Agent: agent, Chosen: a.Chosen(agent), Versions: []profile.Entry{}}
	es, err := a.catalog.Versions(agent)
	if err != nil {
		return c, err
	}
	c.Versions = append(c.Versions, es...)
	c.Installed, _ = a.finder.Find(ctx, agent) // none found: Path ""
	c.Installed.Agent = agent
	return c, nil
}
