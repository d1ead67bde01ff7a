package capture

import (
	"context"
	"fmt"
	"sync"
	"time"

	"hookstudio/app/store/history"
)

// KeepStore is where a capture is kept (history.Store): its calls as they
// are answered, and its run.
type KeepStore interface {
	JournalStore
	SaveRun(ctx context.Context, in history.RunInput) (history.RunID, error)
}

// Counter counts tokens for the capture's calls and for the history's
// metrics (tokens.Counter).
type Counter interface {
	TokenCounter
	history.TokenCounter
}

// Keeper keeps a capture in the history as it goes. Each call is in the
// capture's journal before its answer ends (Journal, given to the
// server), so a capture whose process is killed keeps every call it
// answered. The capture's run — what the History lists and opens — is
// built from the calls (Add) on a goroutine of its own, at once for the
// first call and then at most once every Every with the calls new since
// (building a long capture's run again is milliseconds of work, done off
// the agent's requests but beside them); Close builds it a last time. A
// process that dies before its last build leaves that to the next that
// opens the history (Recover).
type Keeper struct {
	store   KeepStore
	tokens  Counter
	started time.Time
	journal *Journal
	// OnSaved, if set (before the first Add), is told each save's run id
	// or error.
	OnSaved func(id int64, err error)
	// Every paces the builds (0: DefaultEvery); set before the first Add.
	Every time.Duration

	mu     sync.Mutex
	calls  []Call
	saved  int // how many calls the run in the history holds
	id     int64
	err    error
	closed bool
	wake   chan struct{}
	quit   chan struct{} // closed by Close: no more pacing
	done   chan struct{}
}

// DefaultEvery is how often a capture's run is built again while calls come.
const DefaultEvery = time.Second

// NewKeeper starts keeping a capture that started at started; tokens may
// be nil.
func NewKeeper(store KeepStore, tokens Counter, started time.Time) *Keeper {
	k := &Keeper{store: store, tokens: tokens, started: started, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	k.journal = newJournal(store, started, func(err error) { k.report(0, err) })
	go k.loop()
	return k
}

// Journal is what the capture's server keeps each call in (Options).
func (k *Keeper) Journal() *Journal { return k.journal }

// Add builds the run again with one more call (in the order answered).
func (k *Keeper) Add(c Call) {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return
	}
	k.calls = append(k.calls, c)
	select { // under the lock: Close cannot close wake in between
	case k.wake <- struct{}{}:
	default: // a build is already due; it will take this call too
	}
	k.mu.Unlock()
}

func (k *Keeper) loop() {
	defer close(k.done)
	for {
		_, ok := <-k.wake
		every := k.Every // set before the first Add, which this receive comes after
		if every <= 0 {
			every = DefaultEvery
		}
		began := time.Now()
		k.save()
		if !ok {
			return
		}
		pace := time.NewTimer(every - time.Since(began))
		select {
		case <-pace.C:
		case <-k.quit:
			pace.Stop()
		}
	}
}

// save builds and saves the run from the calls kept so far, unless it
// already has them all.
func (k *Keeper) save() {
	k.mu.Lock()
	calls, saved := k.calls, k.saved
	k.mu.Unlock()
	if len(calls) == 0 || len(calls) == saved {
		return
	}
	id, err := saveCapture(context.Background(), k.store, k.tokens, k.journal.ID(), calls, k.started, time.Now())
	k.mu.Lock()
	if err == nil {
		k.id, k.saved = id, len(calls)
	}
	k.mu.Unlock()
	k.report(id, err)
}

// report keeps the last error and tells OnSaved.
func (k *Keeper) report(id int64, err error) {
	k.mu.Lock()
	if err != nil {
		k.err = err
	} else if id != 0 {
		k.err = nil
	}
	on, kerr := k.OnSaved, k.err
	if id == 0 {
		id = k.id
	}
	k.mu.Unlock()
	if on != nil {
		on(id, kerr)
	}
}

// saveCapture saves calls as the run of capture id (the run its last save
// made, replaced).
func saveCapture(ctx context.Context, store KeepStore, tokens Counter, id string, calls []Call, started, ended time.Time) (int64, error) {
	tr, err := Trace(Name(calls), calls)
	if err != nil {
		return 0, err
	}
	in := history.RunInput{Trace: tr, ScenarioFile: "capture", Backend: "capture:" + string(calls[0].API), Source: history.SourceCapture,
		Started: started, Ended: ended, Capture: &history.CaptureFold{ID: id, Calls: len(calls)}}
	if tokens != nil {
		in.Tokens = tokens
	}
	rid, err := store.SaveRun(ctx, in)
	if err != nil {
		return 0, fmt.Errorf("the capture could not be kept in the history: %w", err)
	}
	return int64(rid), nil
}

// Close writes the journal's last calls, saves the run once more and
// stops; it returns the run's id (0: no call, nothing kept) and the last
// error. The server must be closed first (every call recorded).
func (k *Keeper) Close() (int64, error) {
	k.journal.close()
	k.mu.Lock()
	if !k.closed {
		k.closed = true
		close(k.quit)
		close(k.wake) // the loop saves once more and ends
	}
	k.mu.Unlock()
	<-k.done
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.id, k.err
}

// ID is the run the capture is kept as so far (0: not yet).
func (k *Keeper) ID() int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.id
}
