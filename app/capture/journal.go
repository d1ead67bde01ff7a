package capture

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"hookstudio/app/store/history"
)

// JournalStore keeps a capture's calls as they are answered
// (history.Store).
type JournalStore interface {
	KeepCaptureCalls(ctx context.Context, id string, started time.Time, calls []history.CaptureCall) error
}

// Journal keeps each call of a capture durably before its answer ends: a
// call is one small write, done by the request's own goroutine (no hand-off
// to wait for), and the answer's bytes go out after it. Calls that come
// while a write is going on (answers no client has received yet) wait for
// it and are the next write, done by the first of them.
type Journal struct {
	store   JournalStore
	id      string
	started time.Time
	onError func(error)

	mu      sync.Mutex
	queue   []journalEntry
	writing bool
	closed  bool
	idle    *sync.Cond // signalled when a writer is done
}

type journalEntry struct {
	call history.CaptureCall
	kept chan struct{}
}

// newJournal starts a capture's journal under a new id.
func newJournal(store JournalStore, started time.Time, onError func(error)) *Journal {
	var b [8]byte
	_, _ = rand.Read(b[:])
	j := &Journal{store: store, id: started.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:]), started: started, onError: onError}
	j.idle = sync.NewCond(&j.mu)
	return j
}

// ID is the capture's id in the history.
func (j *Journal) ID() string { return j.id }

// keep writes a call (its record so far, its request body, a relayed
// answer's bytes) and returns once it is durable, or its write failed
// (then reported through onError: the answer still goes out).
func (j *Journal) keep(c Call, body, answer []byte) {
	c.Body, c.RawBody = nil, ""
	meta, err := json.Marshal(c)
	if err != nil {
		j.onError(fmt.Errorf("call #%d could not be kept: %w", c.N+1, err))
		return
	}
	e := journalEntry{call: history.CaptureCall{Call: meta, Body: body, Answer: answer}, kept: make(chan struct{})}
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		j.onError(fmt.Errorf("call #%d came after the capture's journal closed", c.N+1))
		return
	}
	j.queue = append(j.queue, e)
	if j.writing {
		j.mu.Unlock()
		<-e.kept // the write going on, or the next, takes it
		return
	}
	j.writing = true
	for len(j.queue) > 0 {
		batch := j.queue
		j.queue = nil
		j.mu.Unlock()
		j.write(batch)
		j.mu.Lock()
	}
	j.writing = false
	j.idle.Broadcast()
	j.mu.Unlock()
}

func (j *Journal) write(batch []journalEntry) {
	calls := make([]history.CaptureCall, len(batch))
	for i, e := range batch {
		calls[i] = e.call
	}
	// kept whatever happens to the request: no cancel here
	if err := j.store.KeepCaptureCalls(context.Background(), j.id, j.started, calls); err != nil {
		j.onError(fmt.Errorf("the capture's calls could not be kept in the history: %w", err))
	}
	for _, e := range batch {
		close(e.kept)
	}
}

// close waits for the write going on and stops; later calls are not kept.
func (j *Journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	for j.writing {
		j.idle.Wait()
	}
}

// keep puts a call in the journal, if the server has one, and returns
// once it is there.
func (s *Server) keep(c Call, body, answer []byte) {
	if s.opts.Journal != nil {
		s.opts.Journal.keep(c, body, answer)
	}
}
