package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"hookstudio/app/agents/locate"
	"hookstudio/app/agents/profile"
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
	data, err := os.ReadFile(a.path)
	if errors.Is(err, fs.ErrNotExist) {
		return a, nil
	}
	if err != nil {
		return a, fmt.Errorf("agents setting: %w", err)
	}
	if err := json.Unmarshal(data, &a.chosen); err != nil {
		a.chosen = map[string]string{}
		return a, fmt.Errorf("agents setting %s is damaged and was ignored: %w", a.path, err)
	}
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
	data, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return fmt.Errorf("agents setting: %w", err)
	}
	if err := writeFileAtomic(a.path, data); err != nil {
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

// picker chooses a run's profile: override (agent@version, for one run)
// or the chosen version, the installed CLI's, the newest bundled. A nil
// setting knows the bundled profiles only.
func (a *AgentsSetting) picker(override string) (*profile.Picker, error) {
	if a == nil {
		return nil, nil
	}
	p := &profile.Picker{Catalog: a.catalog, Installed: func(agent string) string { return a.Installed(context.Background(), agent) }}
	if v := a.Chosen(profile.ClaudeCode); v != "" {
		p.Flag = profile.Ref{Agent: profile.ClaudeCode, Version: v}
	}
	if override != "" {
		r, err := profile.ParseRef(override)
		if err != nil {
			return nil, err
		}
		p.Flag = r
	}
	return p, nil
}

// WithAgents makes runs render agents' hook output as the setting says.
func WithAgents(a *AgentsSetting) LoaderOption {
	return func(h *hooksetsSet) { h.agents = a }
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
