package bind

import (
	"context"
	"sync"
	"time"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
	"hookstudio/app/store/search"
)

// EventSearchProgress is the search index's progress as it indexes in the
// background: search.Progress.
const EventSearchProgress = "search:progress"

// Search is bound as window.go.bind.Search: full-text search across every
// run of the history and every session on disk (app/store/search). The
// index is brought up to date in the background, from the first search or
// the first listing of the sessions on; a run kept meanwhile is indexed as
// it is kept.
type Search struct {
	emit    func(string, any)
	ix      *search.Index // nil: unavailable, openErr says why
	openErr error
	indexer *search.Indexer

	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	started bool
	// the last progress sent, and when: a sync of thousands of runs tells
	// the page a few times a second, not once a run
	lastEmit time.Time
	// where the sessions are (the sessions binding's folders, UseSearch)
	locs func() sessions.Locations
}

// progressEvery spaces the progress events of one sync.
const progressEvery = 250 * time.Millisecond

// NewSearch binds the index in dataDir (search.db) over store's runs
// (store may be nil) and the sessions in the agents' folders (UseSearch
// gives the sessions binding's). An index that cannot be opened (a build
// without FTS5: search.ErrNoFullText) is reported by every call.
func NewSearch(emit func(string, any), store *history.Store, dataDir string) *Search {
	s := &Search{emit: emit, locs: sessions.DefaultLocations}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.ix, s.openErr = search.Open(context.Background(), search.DefaultPath(dataDir))
	if s.openErr != nil {
		return s
	}
	where := func() sessions.Locations {
		s.mu.Lock()
		locs := s.locs
		s.mu.Unlock()
		return locs()
	}
	s.indexer = search.NewIndexer(s.ix, sessions.SearchSources(store, where, sessions.Options{Profiles: profile.NewCatalog(dataDir)}), s.progress)
	return s
}

// SearchErr is why the index could not be opened (nil: it could).
func SearchErr(s *Search) error { return s.openErr }

// StartSearch gives the binding the app's context: indexing ends with it.
func StartSearch(ctx context.Context, s *Search) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return // indexing already runs under the first context
	}
	s.cancel()
	s.ctx, s.cancel = context.WithCancel(ctx)
}

// StopSearch stops indexing, waits for it, and closes the index.
func StopSearch(s *Search) {
	s.mu.Lock()
	s.cancel()
	s.mu.Unlock()
	if s.indexer != nil {
		s.indexer.Wait()
	}
	if s.ix != nil {
		s.ix.Close()
	}
}

// index starts indexing in the background, at the first call, and asks for
// a sync at every other (something may be new): the sessions list calls it
// when it lists, the search before each search.
func (s *Search) index() {
	if s.indexer == nil {
		return
	}
	s.mu.Lock()
	start := !s.started
	s.started = true
	ctx := s.ctx
	s.mu.Unlock()
	if start {
		s.indexer.Start(ctx)
		return
	}
	s.indexer.Kick()
}

// ObserveRuns passes emit's events on and asks s for a sync when a run is
// kept (studio.EventRun) or a capture's calls are (capture.EventState),
// once indexing has started; asks while a sync runs make one more.
func ObserveRuns(s *Search, emit func(string, any)) func(string, any) {
	return func(name string, data any) {
		emit(name, data)
		if (name != studio.EventRun && name != capture.EventState) || s.indexer == nil {
			return
		}
		s.mu.Lock()
		started := s.started
		s.mu.Unlock()
		if started {
			s.indexer.Kick()
		}
	}
}

// SearchPage is a page of hits and how far indexing is: while it runs,
// what is not indexed yet is not found.
type SearchPage struct {
	Results search.Results  `json:"results"`
	Status  search.Progress `json:"status"`
}

// Find runs q over what is indexed (starting the indexing if it has not).
// A query that cannot be run is an error whose message says every problem.
func (s *Search) Find(q search.Query) (SearchPage, error) {
	if s.ix == nil {
		return SearchPage{}, s.openErr
	}
	s.index()
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	res, err := s.ix.Search(ctx, q)
	if err != nil {
		return SearchPage{}, err
	}
	return SearchPage{Results: res, Status: s.indexer.Status()}, nil
}

// Status is how far indexing is (starting it if it has not).
func (s *Search) Status() (search.Progress, error) {
	if s.ix == nil {
		return search.Progress{}, s.openErr
	}
	s.index()
	return s.indexer.Status(), nil
}

func (s *Search) progress(p search.Progress) {
	s.mu.Lock()
	now := time.Now()
	skip := p.Running && p.Done > 0 && now.Sub(s.lastEmit) < progressEvery
	if !skip {
		s.lastEmit = now
	}
	s.mu.Unlock()
	if !skip {
		s.emit(EventSearchProgress, p)
	}
}
