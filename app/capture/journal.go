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
// call is one small write, done while the answer is rendered, and the
// answer's bytes wait for it. The calls that come while a write is going
// on (answers no client has received yet) are the next write.
type Journal struct {
	store   JournalStore
	id      string
	started time.Time
	onError func(error)

	mu     sync.Mutex
	queue  []journalEntry
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

type journalEntry struct {
	call history.CaptureCall
	kept chan struct{}
}

// newJournal starts a capture's journal under a new id.
func newJournal(store JournalStore, started time.Time, onError func(error)) *Journal {
	var b [8]byte
	_, _ = rand.Read(b[:])
	j := &Journal{store: store, id: started.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:]), started: started,
		onError: onError, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go j.loop()
	return j
}

// ID is the capture's id in the history.
func (j *Journal) ID() string { return j.id }

// closedCh is what keep returns when nothing is to be waited for.
var closedCh = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// keep queues a call (its record so far, its request body, a relayed
// answer's bytes) and returns a channel closed once it is durable, or its
// write failed (then reported through onError: the answer still goes out).
func (j *Journal) keep(c Call, body, answer []byte) <-chan struct{} {
	c.Body, c.RawBody = nil, ""
	meta, err := json.Marshal(c)
	if err != nil {
		j.onError(fmt.Errorf("call #%d could not be kept: %w", c.N+1, err))
		return closedCh
	}
	e := journalEntry{call: history.CaptureCall{Call: meta, Body: body, Answer: answer}, kept: make(chan struct{})}
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		j.onError(fmt.Errorf("call #%d came after the capture's journal closed", c.N+1))
		return closedCh
	}
	j.queue = append(j.queue, e)
	j.mu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default: // a write is due; it takes this call too
	}
	return e.kept
}

func (j *Journal) loop() {
	defer close(j.done)
	for range j.wake {
		j.mu.Lock()
		batch, closed := j.queue, j.closed
		j.queue = nil
		j.mu.Unlock()
		if len(batch) > 0 {
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
		if closed {
			return
		}
	}
}

// close writes what is queued and stops; later calls are not kept.
func (j *Journal) close() {
	j.mu.Lock()
	if !j.closed {
		j.closed = true
		select {
		case j.wake <- struct{}{}:
		default:
		}
	}
	j.mu.Unlock()
	<-j.done
}

// keep puts a call in the journal, if the server has one.
func (s *Server) keep(c Call, body, answer []byte) <-chan struct{} {
	if s.opts.Journal == nil {
		return closedCh
	}
	return s.opts.Journal.keep(c, body, answer)
}
