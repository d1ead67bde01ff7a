// Package tokenjobs counts the tokens of stored runs in the background: a
// run kept before its texts were counted (a session: usable at once) has
// its texts counted on a bounded pool of workers, each text once (the
// count is kept with it in the history, so a reopen or a reimport counts
// nothing again), its figures settled at the end; progress goes out
// through an injected function as counts arrive. Every goroutine belongs
// to a job, and every job to the Runner, which cancels and waits for them.
package tokenjobs

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"hookstudio/app/store/history"
)

// Store is the history the counts go to (history.Store).
type Store interface {
	PendingTexts(ctx context.Context, id history.RunID, fn func(history.TextID, string) error) (int, error)
	KeepCounts(ctx context.Context, counts []history.TextCount) error
	SettleTokens(ctx context.Context, id history.RunID, cc history.ContentCounter) error
}

// Progress is a run's count going on: the texts just counted (kept in the
// history already), how many are counted and how many remain of those the
// job found, and at the end Done (the run's figures settled) or Err.
type Progress struct {
	Run     history.RunID       `json:"run"`
	Counts  []history.TextCount `json:"counts"`
	Counted int                 `json:"counted"`
	Pending int                 `json:"pending"`
	Done    bool                `json:"done"`
	Err     string              `json:"error,omitempty"`
}

// Every is how often a count reports and keeps what it counted: often
// enough that a view fills in as one watches, seldom enough that the
// history's writes and the page's refreshes stay small beside counting.
const Every = 250 * time.Millisecond

// batchMax bounds the counts kept in one transaction.
const batchMax = 512

// Count counts every text of run id not counted yet on workers goroutines
// (0: one per core), keeps the counts as they come and settles the run's
// figures, telling report (nil: nobody) every Every and at the end. It
// returns when done, or when ctx ends (what was kept stays kept).
func Count(ctx context.Context, st Store, cc history.ContentCounter, id history.RunID, workers int, report func(Progress)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if report == nil {
		report = func(Progress) {}
	}
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type text struct {
		id   history.TextID
		text string
	}
	texts := make(chan text, workers)
	counts := make(chan history.TextCount, workers*4)
	var found int
	var readErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the reader: one text in flight per worker, never the run
		defer wg.Done()
		defer close(texts)
		found, readErr = st.PendingTexts(ctx, id, func(b history.TextID, t string) error {
			select {
			case texts <- text{b, t}:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var workersWG sync.WaitGroup
	for range workers {
		workersWG.Add(1)
		go func() {
			defer workersWG.Done()
			for t := range texts {
				select {
				case counts <- history.TextCount{Text: t.id, Tokens: cc.Count(t.text)}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { workersWG.Wait(); close(counts) }() // ends when the workers do, which end with texts or ctx

	var batch []history.TextCount
	counted := 0
	keep := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := st.KeepCounts(ctx, batch); err != nil {
			return err
		}
		counted += len(batch)
		report(Progress{Run: id, Counts: batch, Counted: counted, Pending: max(found-counted, 0)})
		batch = nil
		return nil
	}
	tick := time.NewTicker(Every)
	defer tick.Stop()
	var err error
loop:
	for {
		select {
		case c, ok := <-counts:
			if !ok {
				break loop
			}
			batch = append(batch, c)
			if len(batch) >= batchMax {
				if err = keep(); err != nil {
					break loop
				}
			}
		case <-tick.C:
			if err = keep(); err != nil {
				break loop
			}
		}
	}
	if err == nil {
		err = keep()
	}
	cancel() // on an error the reader and workers stop too
	for range counts {
	}
	wg.Wait()
	if err == nil && readErr != nil && !errors.Is(readErr, context.Canceled) {
		err = readErr
	}
	if err == nil {
		err = outer.Err()
	}
	if err == nil {
		err = st.SettleTokens(outer, id, cc)
	}
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			report(Progress{Run: id, Counted: counted, Err: err.Error()})
		}
		return err
	}
	report(Progress{Run: id, Counted: counted, Done: true})
	return nil
}

// Runner counts runs in the background, one at a time (each on every
// core), in the order asked; a run asked for again while it is counted is
// counted again after (it was kept anew: only its new texts are left).
type Runner struct {
	st      Store
	cc      history.ContentCounter
	workers int
	report  func(Progress)

	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	queue   []history.RunID
	running bool
	wg      sync.WaitGroup
}

// NewRunner counts into st with cc on workers goroutines (0: one per
// core), telling report of each job's progress.
func NewRunner(st Store, cc history.ContentCounter, workers int, report func(Progress)) *Runner {
	ctx, cancel := context.WithCancel(context.Background())
	return &Runner{st: st, cc: cc, workers: workers, report: report, ctx: ctx, cancel: cancel}
}

// Count asks for run id's texts to be counted.
func (r *Runner) Count(id history.RunID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		return
	}
	for _, q := range r.queue {
		if q == id {
			return
		}
	}
	r.queue = append(r.queue, id)
	if !r.running {
		r.running = true
		r.wg.Add(1)
		go r.work()
	}
}

// work counts the queued runs until none is left.
func (r *Runner) work() {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		if len(r.queue) == 0 || r.ctx.Err() != nil {
			r.running = false
			r.mu.Unlock()
			return
		}
		id := r.queue[0]
		r.queue = r.queue[1:]
		ctx := r.ctx
		r.mu.Unlock()
		// its error went to report; the next run is counted all the same
		_ = Count(ctx, r.st, r.cc, id, r.workers, r.report)
	}
}

// Stop cancels the counts and waits for them; counts asked for after it
// are ignored.
func (r *Runner) Stop() {
	r.mu.Lock()
	r.cancel()
	r.queue = nil
	r.mu.Unlock()
	r.wg.Wait()
}
