// Package profiles keeps named endpoint profiles (provider, base URL,
// model, parameters) as JSON in the data folder, and their API keys in the
// OS keyring, never in the file.
package profiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hookstudio/app/store/atomicfile"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Provider is the wire protocol of an endpoint.
type Provider string

const (
	OpenAI    Provider = "openai"    // Chat Completions: OpenAI, DeepSeek, Qwen, Ollama, vLLM, llama.cpp
	Anthropic Provider = "anthropic" // Messages API
)

// FileName is the profiles file inside the data folder.
const FileName = "profiles.json"

// DefaultPath is the profiles file of a data folder.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, FileName) }

// Profile is one named endpoint. It holds no key.
type Profile struct {
	Name        string   `json:"name"`
	Provider    Provider `json:"provider"`
	BaseURL     string   `json:"base_url"`
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Timeout     Duration `json:"timeout,omitempty"`
}

// Duration is a time.Duration written as "30s" in JSON; a bare number is
// read as seconds.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("timeout %q: use a duration like \"60s\" or \"2m\"", s)
		}
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("timeout must be a duration like \"60s\", not %s", b)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// Validate checks one profile and says what to fix.
func (p *Profile) Validate() error {
	var errs []error
	name := p.Name
	if name == "" {
		name = "(unnamed)"
		errs = append(errs, errors.New("name is empty; give the profile a short name, e.g. local-ollama"))
	} else if strings.TrimSpace(name) != name || strings.ContainsAny(name, "\n\r\t") || len(name) > 64 {
		errs = append(errs, fmt.Errorf("name %q must be at most 64 characters without leading, trailing or control spaces", name))
	}
	switch p.Provider {
	case OpenAI, Anthropic:
	case "":
		errs = append(errs, errors.New("provider is empty; use openai (any OpenAI-compatible endpoint) or anthropic"))
	default:
		errs = append(errs, fmt.Errorf("provider %q is unknown; use openai or anthropic", p.Provider))
	}
	if p.BaseURL == "" {
		errs = append(errs, errors.New("base_url is empty; e.g. https://api.openai.com/v1 or http://localhost:11434/v1"))
	} else if u, err := url.Parse(p.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("base_url %q is not an http(s) URL", p.BaseURL))
	} else if u.User != nil {
		errs = append(errs, errors.New("base_url must not carry credentials; store the key in the keyring instead"))
	}
	if p.Model == "" {
		errs = append(errs, errors.New("model is empty; name the model the endpoint serves, e.g. gpt-4o-mini or qwen2.5:7b"))
	}
	if t := p.Temperature; t != nil && (*t < 0 || *t > 2) {
		errs = append(errs, fmt.Errorf("temperature %g is outside 0..2", *t))
	}
	if p.MaxTokens < 0 {
		errs = append(errs, fmt.Errorf("max_tokens %d is negative; leave it out for the endpoint's default", p.MaxTokens))
	}
	if p.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %s is negative", time.Duration(p.Timeout)))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("profile %s: %w", name, errors.Join(errs...))
}

// file is the JSON document.
type file struct {
	Version  int       `json:"version"`
	Profiles []Profile `json:"profiles"`
}

// Load reads a profiles file; a missing file is no profiles.
func Load(path string) ([]Profile, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return []Profile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read profiles: %w", err)
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("read profiles %s: %w", path, err)
	}
	if f.Profiles == nil {
		f.Profiles = []Profile{}
	}
	if err := validateAll(f.Profiles); err != nil {
		return nil, fmt.Errorf("read profiles %s: %w", path, err)
	}
	return f.Profiles, nil
}

func validateAll(ps []Profile) error {
	var errs []error
	seen := map[string]bool{}
	for i := range ps {
		if err := ps[i].Validate(); err != nil {
			errs = append(errs, err)
		}
		if seen[ps[i].Name] {
			errs = append(errs, fmt.Errorf("profile %s is defined twice; names must be unique", ps[i].Name))
		}
		seen[ps[i].Name] = true
	}
	return errors.Join(errs...)
}

// Save writes the profiles atomically: a temporary file in the same
// folder, synced, then renamed over the old one.
func Save(path string, ps []Profile) error {
	if err := validateAll(ps); err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	// owner-only: the file names endpoints, never keys, but still
	if err := atomicfile.WriteJSON(path, file{Version: 1, Profiles: ps}, 0o600); err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	return nil
}

// Find returns the profile with the name.
func Find(ps []Profile, name string) (Profile, error) {
	i := slices.IndexFunc(ps, func(p Profile) bool { return p.Name == name })
	if i < 0 {
		names := make([]string, len(ps))
		for k, p := range ps {
			names[k] = p.Name
		}
		if len(names) == 0 {
			return Profile{}, fmt.Errorf("no profile %q: no profiles are defined yet", name)
		}
		return Profile{}, fmt.Errorf("no profile %q; defined: %s", name, strings.Join(names, ", "))
	}
	return ps[i], nil
}
