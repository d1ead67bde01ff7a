package profiles

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
)

// Store is the profiles file of a data folder plus the keyring that holds
// their keys.
type Store struct {
	Path   string
	Keys   Keyring             // nil: no keyring, environment only
	Getenv func(string) string // nil: no environment fallback

	mu sync.Mutex // serialises read-modify-write of the file
}

// NewStore is the store of a profiles file with the OS keyring and the
// process environment.
func NewStore(path string) *Store {
	return &Store{Path: path, Keys: OSKeyring{}, Getenv: os.Getenv}
}

// List returns every profile.
func (s *Store) List() ([]Profile, error) { return Load(s.Path) }

// Get returns one profile.
func (s *Store) Get(name string) (Profile, error) {
	ps, err := Load(s.Path)
	if err != nil {
		return Profile{}, err
	}
	return Find(ps, name)
}

// Put adds the profile, or replaces the one with its name.
func (s *Store) Put(p Profile) error {
	if err := p.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := Load(s.Path)
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(ps, func(q Profile) bool { return q.Name == p.Name }); i >= 0 {
		ps[i] = p
	} else {
		ps = append(ps, p)
	}
	return Save(s.Path, ps)
}

// Delete removes the profile and its key.
func (s *Store) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := Load(s.Path)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ps, func(q Profile) bool { return q.Name == name })
	if i < 0 {
		return fmt.Errorf("no profile %q", name)
	}
	if err := Save(s.Path, slices.Delete(ps, i, i+1)); err != nil {
		return err
	}
	if s.Keys != nil {
		if err := s.Keys.Delete(KeyringService, name); err != nil && !errors.Is(err, keyring.ErrNotFound) && !keyringMissing(err) {
			return fmt.Errorf("profile %s deleted, but its key stays in the keyring: %s", name, describeKeyringErr(err))
		}
	}
	return nil
}

// SetKey stores the profile's key in the keyring; an empty key removes it.
// Without a keyring it says which variable to set instead.
func (s *Store) SetKey(p Profile, key string) error {
	if s.Keys == nil {
		return fmt.Errorf("%w: set %s instead", ErrNoKeyring, EnvVar(p.Provider))
	}
	var err error
	if key == "" {
		err = s.Keys.Delete(KeyringService, p.Name)
		if errors.Is(err, keyring.ErrNotFound) {
			err = nil
		}
	} else {
		err = s.Keys.Set(KeyringService, p.Name, key)
	}
	if err != nil {
		if keyringMissing(err) {
			return fmt.Errorf("%w (%s): set %s instead", ErrNoKeyring, redact(describeKeyringErr(err), key), EnvVar(p.Provider))
		}
		return fmt.Errorf("store the key of profile %s: %s", p.Name, redact(describeKeyringErr(err), key))
	}
	return nil
}

// KeySource says where the profile's key would come from, without
// returning it.
func (s *Store) KeySource(p Profile) KeySource {
	_, src := keyFor(s.Keys, s.Getenv, p)
	return src
}

// Model is a real provider as the app uses it: a model the engine calls
// and the exact request body a debugger shows before each call.
type Model interface {
	engine.Model
	RequestBody(call engine.Call) ([]byte, error)
}

// Model opens the profile's provider with its key. tune, if set, adjusts
// the options (retry reporting, HTTP client) before the model is built.
func (s *Store) Model(p Profile, tune func(*llm.Options)) (Model, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	key, _ := keyFor(s.Keys, s.Getenv, p)
	o := llm.Options{
		BaseURL: p.BaseURL, Model: p.Model, APIKey: key,
		Temperature: p.Temperature, MaxTokens: p.MaxTokens, Timeout: time.Duration(p.Timeout),
		MaxRetries: -1,
	}
	if tune != nil {
		tune(&o)
	}
	switch p.Provider {
	case Anthropic:
		return llm.NewAnthropic(o)
	default:
		return llm.NewOpenAI(o)
	}
}

// Result is the outcome of TestConnection, ready to show.
type Result struct {
	OK        bool          `json:"ok"`
	Message   string        `json:"message"`
	KeySource KeySource     `json:"key_source"`
	Latency   time.Duration `json:"latency"`
	Reply     string        `json:"reply,omitempty"` // what the model answered
}

// TestConnection sends one minimal real request (a one-line question,
// a few tokens, no retries) and says plainly what happened.
func (s *Store) TestConnection(ctx context.Context, p Profile) Result {
	src := s.KeySource(p)
	m, err := s.Model(p, func(o *llm.Options) {
		o.MaxRetries = 0
		o.MaxTokens = 16
		if o.Timeout == 0 {
			o.Timeout = 30 * time.Second
		}
	})
	if err != nil {
		return Result{Message: err.Error(), KeySource: src}
	}
	msgs := []engine.Message{{Role: "user", Content: "Reply with the single word: ok", Origin: engine.OriginUserInput}}
	start := time.Now()
	rep, err := m.Complete(ctx, engine.Call{
		Phase: engine.PhaseDirect, Round: -1,
		Messages: func() []engine.Message { return msgs },
		Stream:   func(string) {},
	})
	res := Result{KeySource: src, Latency: time.Since(start).Round(time.Millisecond)}
	if err != nil {
		res.Message = err.Error()
		var se *llm.StatusError
		switch {
		case errors.Is(err, llm.ErrKeyRejected) && src == KeyNone:
			res.Message += fmt.Sprintf("; no key is set: store one for the profile or set %s", EnvVar(p.Provider))
		case errors.As(err, &se) && se.Status == http.StatusNotFound:
			res.Message += "; check the base URL (OpenAI-compatible ones usually end in /v1) and the model name"
		}
		return res
	}
	res.OK = true
	res.Reply = rep.Content
	res.Message = fmt.Sprintf("connected to %s: model %s answered in %s", hostOf(p.BaseURL), p.Model, res.Latency)
	return res
}

func hostOf(base string) string {
	s := strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://")
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	return s
}

func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}
