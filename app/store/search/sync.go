package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Ref names a doc a source holds and its signature, without reading it.
type Ref struct {
	Key     string
	Sig     string
	Started time.Time
	// Size is about how much there is to read (a transcript's bytes), for
	// progress.
	Size int64
}

// Source is what Sync indexes: the runs of the history, the transcripts on
// disk.
type Source interface {
	// Prefix is the start of every key the source names ("run:", "file:"):
	// an indexed key with it that Refs no longer lists is removed.
	Prefix() string
	Refs(ctx context.Context) ([]Ref, error)
	// Load reads a doc; a doc that cannot be read is returned with a Note
	// and no Record (indexed as such, so it is not read again until it
	// changes), an error only for what stops the sync (ctx).
	Load(ctx context.Context, ref Ref) (Doc, error)
}

// Progress is how far a sync is.
type Progress struct {
	// Done and Total count the docs to index in this sync.
	Done  int `json:"done"`
	Total int `json:"total"`
	// Current is the doc being indexed.
	Current string `json:"current,omitempty"`
	// Indexed is how many docs the index holds.
	Indexed int `json:"indexed"`
	// Running says a sync is under way.
	Running bool `json:"running"`
	// Err is what stopped the last sync, or a source it could not list.
	Err string `json:"error,omitempty"`
}

// optimizeAfter is how many bytes indexed in one sync make it worth
// merging the index's segments.
const optimizeAfter = 64 << 20

// Sync brings the index up to date with the sources: it indexes what is
// new or changed, newest first, and removes what is gone; progress is told
// after each doc. A source that cannot be listed is skipped (its docs are
// kept) and said in the last Progress.
func Sync(ctx context.Context, ix *Index, sources []Source, progress func(Progress)) error {
	if progress == nil {
		progress = func(Progress) {}
	}
	indexed, err := ix.Indexed(ctx)
	if err != nil {
		return err
	}
	var todo []Ref
	var problems []string
	for _, src := range sources {
		refs, err := src.Refs(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			problems = append(problems, err.Error())
			continue
		}
		listed := make(map[string]bool, len(refs))
		for _, r := range refs {
			listed[r.Key] = true
			if sig, ok := indexed[r.Key]; !ok || sig != r.Sig {
				todo = append(todo, r)
			}
		}
		for key := range indexed {
			if strings.HasPrefix(key, src.Prefix()) && !listed[key] {
				if err := ix.Remove(ctx, key); err != nil {
					return err
				}
				delete(indexed, key)
			}
		}
	}
	// the newest first: what a user looks for is most often recent
	slices.SortStableFunc(todo, func(a, b Ref) int { return b.Started.Compare(a.Started) })
	bySource := func(key string) Source {
		for _, s := range sources {
			if strings.HasPrefix(key, s.Prefix()) {
				return s
			}
		}
		return nil
	}
	p := Progress{Total: len(todo), Indexed: len(indexed), Running: true}
	var bytes int64
	for i, r := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.Done, p.Current = i, r.Key
		progress(p)
		d, err := bySource(r.Key).Load(ctx, r)
		if err != nil {
			return fmt.Errorf("index %s: %w", r.Key, err)
		}
		d.Key, d.Sig = r.Key, r.Sig
		if err := ix.Put(ctx, d); err != nil {
			return err
		}
		if _, ok := indexed[r.Key]; !ok {
			indexed[r.Key] = r.Sig
			p.Indexed++
		}
		bytes += r.Size
	}
	if bytes >= optimizeAfter {
		if err := ix.Optimize(ctx); err != nil {
			return err
		}
	}
	p.Done, p.Current, p.Running = len(todo), "", false
	if len(problems) > 0 {
		p.Err = strings.Join(problems, "; ")
	}
	progress(p)
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrSourceUnreadable, p.Err)
	}
	return nil
}

// ErrSourceUnreadable is a sync that could not list a source (the rest
// was indexed).
var ErrSourceUnreadable = errors.New("could not list everything to index")

// Indexer keeps an index in sync in the background: Kick asks for a sync
// (several asks while one runs make one more), Status tells how far it is.
// Its goroutine runs from Start until the context ends; Wait waits for it.
type Indexer struct {
	ix       *Index
	sources  []Source
	onChange func(Progress)

	mu      sync.Mutex
	status  Progress
	started bool
	kick    chan struct{}
	done    chan struct{}
}

// NewIndexer makes an indexer of ix over sources; onChange (may be nil)
// is told each progress.
func NewIndexer(ix *Index, sources []Source, onChange func(Progress)) *Indexer {
	return &Indexer{ix: ix, sources: sources, onChange: onChange, kick: make(chan struct{}, 1), done: make(chan struct{})}
}

// Start runs the indexer's goroutine until ctx ends; a second Start does
// nothing. It syncs once at once.
func (x *Indexer) Start(ctx context.Context) {
	x.mu.Lock()
	if x.started {
		x.mu.Unlock()
		return
	}
	x.started = true
	x.mu.Unlock()
	x.Kick()
	go func() {
		defer close(x.done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-x.kick:
			}
			err := Sync(ctx, x.ix, x.sources, x.tell)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				x.mu.Lock()
				x.status.Running, x.status.Err = false, err.Error()
				st := x.status
				x.mu.Unlock()
				x.notify(st)
			}
		}
	}()
}

// Kick asks for a sync: something may have changed.
func (x *Indexer) Kick() {
	select {
	case x.kick <- struct{}{}:
	default: // one is asked for already
	}
}

// Wait waits for the goroutine to end (after its context did); at once
// when it never started.
func (x *Indexer) Wait() {
	x.mu.Lock()
	started := x.started
	x.mu.Unlock()
	if started {
		<-x.done
	}
}

// Status is the last progress.
func (x *Indexer) Status() Progress {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.status
}

func (x *Indexer) tell(p Progress) {
	x.mu.Lock()
	x.status = p
	x.mu.Unlock()
	x.notify(p)
}

func (x *Indexer) notify(p Progress) {
	if x.onChange != nil {
		x.onChange(p)
	}
}
