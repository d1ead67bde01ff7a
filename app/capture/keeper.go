package capture

import (
	"context"
	"fmt"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
)

// RunSaver keeps a capture as a run (app/store/history). replaces is the run an
// earlier save of the same capture made (0: none yet): the new save stands
// in for it under the same id.
type RunSaver interface {
	SaveCapture(ctx context.Context, replaces int64, tr *engine.Trace, api string, started, ended time.Time) (int64, error)
}

// Keeper keeps a capture in the history as it goes: the run is written
// when the first call arrives and written again after each call, so a
// capture whose process is killed keeps the calls it had. Saves happen on
// a goroutine of their own, one at a time, the latest calls each time (a
// burst of calls is one save), never on the agent's request.
type Keeper struct {
	saver   RunSaver
	started time.Time
	// OnSaved, if set (before the first Add), is told each save's run id
	// or error.
	OnSaved func(id int64, err error)

	mu     sync.Mutex
	calls  []Call
	saved  int // how many calls the run in the history holds
	id     int64
	err    error
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

// NewKeeper starts keeping a capture that started at started.
func NewKeeper(saver RunSaver, started time.Time) *Keeper {
	k := &Keeper{saver: saver, started: started, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go k.loop()
	return k
}

// Add keeps one more call (in the order answered).
func (k *Keeper) Add(c Call) {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return
	}
	k.calls = append(k.calls, c)
	select { // under the lock: Close cannot close wake in between
	case k.wake <- struct{}{}:
	default: // a save is already due; it will take this call too
	}
	k.mu.Unlock()
}

func (k *Keeper) loop() {
	defer close(k.done)
	for {
		_, ok := <-k.wake
		k.save()
		if !ok {
			return
		}
	}
}

// save writes the calls kept so far, unless the run already has them all.
func (k *Keeper) save() {
	k.mu.Lock()
	calls, id := k.calls, k.id
	k.mu.Unlock()
	if len(calls) == 0 || len(calls) == k.savedCount() {
		return
	}
	tr, err := Trace(Name(calls), calls)
	if err == nil {
		// the run is kept whatever happens to the caller: no cancel here
		id, err = k.saver.SaveCapture(context.Background(), id, tr, string(calls[0].API), k.started, time.Now())
	}
	k.mu.Lock()
	if err != nil {
		k.err = fmt.Errorf("the capture could not be kept in the history: %w", err)
	} else {
		k.id, k.saved, k.err = id, len(calls), nil
	}
	on, kerr := k.OnSaved, k.err
	k.mu.Unlock()
	if on != nil {
		on(id, kerr)
	}
}

func (k *Keeper) savedCount() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.saved
}

// Close saves what is not saved yet and stops; it returns the run's id
// (0: no call, nothing kept) and the last save's error.
func (k *Keeper) Close() (int64, error) {
	k.mu.Lock()
	if !k.closed {
		k.closed = true
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
