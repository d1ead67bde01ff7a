package bind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/atomicfile"
	"hookstudio/app/store/history"
)

// Events the Sessions binding sends.
const (
	// EventSessionsProgress is an import's progress: SessionProgress.
	EventSessionsProgress = "sessions:progress"
	// EventSessionsUpdate is a followed session kept again as it grew, or
	// the follow's end: SessionUpdate.
	EventSessionsUpdate = "sessions:update"
)

// Sessions is bound as window.go.bind.Sessions: the agents' sessions on
// this machine (Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI),
// imported into the run history (app/capture/sessions).
type Sessions struct {
	emit     func(string, any)
	store    *history.Store // nil: nothing can be imported
	counts   *sessions.Counts
	profiles *profile.Catalog // the bundled rendering profiles and those calibrated into the data folder
	settings string           // sessions.json in the data folder: where sessions live

	mu      sync.Mutex
	ctx     context.Context
	lister  *sessions.Lister
	locs    sessions.Locations
	follows map[string]context.CancelFunc // by file
	wg      sync.WaitGroup
	// listed is told each time the sessions are listed: the search indexes
	// the ones on disk from then on (UseSearch)
	listed func()
}

// UseSearch has the search index the sessions where s lists them, and
// listing them start (or renew) their indexing in the background.
func UseSearch(s *Sessions, x *Search) {
	s.mu.Lock()
	s.listed = x.index
	s.mu.Unlock()
	x.mu.Lock()
	x.locs = func() sessions.Locations { l, _ := s.Locations(); return l }
	x.mu.Unlock()
}

// NewSessions binds the sessions; store may be nil. Where they live is
// read from sessions.json in dataDir, else the agents' own folders.
func NewSessions(emit func(string, any), store *history.Store, tokens history.TokenCounter, dataDir string) *Sessions {
	s := &Sessions{emit: emit, store: store, counts: sessions.NewCounts(tokens), profiles: profile.NewCatalog(dataDir), settings: filepath.Join(dataDir, "sessions.json"),
		ctx: context.Background(), lister: sessions.NewLister(), locs: sessions.DefaultLocations(), follows: map[string]context.CancelFunc{}}
	if data, err := os.ReadFile(s.settings); err == nil {
		// a file of an earlier version names fewer agents: theirs default
		l := s.locs
		if json.Unmarshal(data, &l) == nil {
			s.locs = l
		}
	}
	return s
}

// StartSessions gives the binding the app's context: follows end with it.
func StartSessions(ctx context.Context, s *Sessions) {
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
}

// StopSessions ends every follow and waits for them.
func StopSessions(s *Sessions) {
	s.mu.Lock()
	for _, cancel := range s.follows {
		cancel()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// Locations are the folders sessions are listed from.
func (s *Sessions) Locations() (sessions.Locations, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.locs, nil
}

// SetLocations lists sessions from other folders ("" an agent's own
// default), remembered in the data folder.
func (s *Sessions) SetLocations(l sessions.Locations) (sessions.Locations, error) {
	def := sessions.DefaultLocations()
	for _, f := range []struct {
		dir *string
		def string
	}{{&l.Claude, def.Claude}, {&l.Codex, def.Codex}, {&l.Gemini, def.Gemini},
		{&l.Qwen, def.Qwen}, {&l.Copilot, def.Copilot}} {
		if *f.dir == "" {
			*f.dir = f.def
		}
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return l, err
	}
	if err := atomicfile.Write(s.settings, append(data, '\n'), 0o644); err != nil {
		return l, fmt.Errorf("remember where sessions live: %w", err)
	}
	s.mu.Lock()
	s.locs = l
	s.mu.Unlock()
	return l, nil
}

// List lists the sessions that pass f, newest first.
func (s *Sessions) List(f sessions.Filter) ([]sessions.Summary, error) {
	s.mu.Lock()
	listed := s.listed
	list, err := s.lister.List(s.ctx, s.locs, f)
	s.mu.Unlock()
	if listed != nil {
		listed()
	}
	return list, err
}

// SessionProgress is how far an import of File is.
type SessionProgress struct {
	File  string `json:"file"`
	Read  int64  `json:"read"`
	Total int64  `json:"total"`
}

// Imported is a session kept as a run, and what its import says.
type Imported struct {
	Run     int64            `json:"run"`
	Session sessions.Session `json:"session"`
}

var errNoStore = errors.New("the run history is not available: sessions cannot be imported")

// Import reads the transcript at file into the history (the run an earlier
// import of it made is stood in for), telling its progress.
func (s *Sessions) Import(file string) (Imported, error) {
	if s.store == nil {
		return Imported{}, errNoStore
	}
	ctx := s.context()
	im, err := sessions.ImportFile(ctx, file, sessions.Options{Profiles: s.profiles, Progress: func(read, total int64) {
		s.emit(EventSessionsProgress, SessionProgress{File: file, Read: read, Total: total})
	}})
	if err != nil {
		return Imported{}, err
	}
	id, err := sessions.Keep(ctx, s.store, im, s.counts)
	if err != nil {
		return Imported{Session: im.Session()}, err
	}
	s.emit(studio.EventRun, int64(id))
	return Imported{Run: int64(id), Session: im.Session()}, nil
}

// SessionUpdate is a followed session kept again (Run, Session), a problem
// following it (Error), or the follow's end (Following false).
type SessionUpdate struct {
	File      string            `json:"file"`
	Run       int64             `json:"run"`
	Session   *sessions.Session `json:"session,omitempty"`
	Error     string            `json:"error,omitempty"`
	Following bool              `json:"following"`
}

// Follow imports the session at file and keeps importing what its agent
// appends (it is still running), until Unfollow or the app closes.
func (s *Sessions) Follow(file string) ([]string, error) {
	if s.store == nil {
		return s.Following()
	}
	s.mu.Lock()
	if _, ok := s.follows[file]; ok {
		s.mu.Unlock()
		return s.Following()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.follows[file] = cancel
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		err := sessions.Follow(ctx, file, s.store, s.counts, sessions.Options{Profiles: s.profiles}, func(u sessions.Update) {
			up := SessionUpdate{File: file, Run: int64(u.Run), Session: &u.Session, Following: true}
			if u.Err != nil {
				up.Error = u.Err.Error()
			}
			s.emit(EventSessionsUpdate, up)
			if u.Run != 0 {
				s.emit(studio.EventRun, int64(u.Run))
			}
		})
		s.mu.Lock()
		delete(s.follows, file)
		s.mu.Unlock()
		end := SessionUpdate{File: file, Following: false}
		if err != nil {
			end.Error = err.Error()
		}
		s.emit(EventSessionsUpdate, end)
	}()
	return s.Following()
}

// Unfollow stops following the session at file (its run stays).
func (s *Sessions) Unfollow(file string) ([]string, error) {
	s.mu.Lock()
	if cancel, ok := s.follows[file]; ok {
		cancel()
	}
	s.mu.Unlock()
	return s.Following()
}

// Following are the sessions followed now.
func (s *Sessions) Following() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.follows))
	for f := range s.follows {
		out = append(out, f)
	}
	slices.Sort(out)
	return out, nil
}

func (s *Sessions) context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}
