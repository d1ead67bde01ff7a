package events

import (
	"slices"
	"sync"
	"time"
)

// DefaultCapacity is how many ephemeral events wait for a consumer before
// new ones are dropped.
const DefaultCapacity = 256

// Stream is one run's event queue. Publish never waits for a consumer and
// never loses an event worth keeping:
//
//   - persistent events go to an unbounded slice, which is also the run's
//     record (Persistent). A slow consumer makes it grow rather than make
//     the run wait; it is bounded by the run itself (a few events a step).
//   - ephemeral events (LLM_PARTIAL, heartbeats: dozens a second, worthless
//     later) go to a bounded queue; when it is full the new event is
//     dropped and counted (Dropped), like Shannon's select with default.
//
// Every event takes a sequence number, dropped ones too, so numbers are the
// same however fast the consumer is and a gap shows where a drop was. Take
// hands the consumer both kinds merged in sequence order. A Stream is safe
// for concurrent use.
type Stream struct {
	mu       sync.Mutex
	seq      uint64
	now      func() time.Time
	capacity int
	log      []Event // every persistent event, in order
	taken    int     // log[:taken] went to the consumer
	eph      []Event // ephemeral events waiting; len <= capacity
	dropped  int
	ready    chan struct{} // capacity 1: there is something to take
	closed   chan struct{}
	once     sync.Once
}

// StreamOptions configures NewStream; zero values take the defaults.
type StreamOptions struct {
	Capacity int              // ephemeral queue size (DefaultCapacity)
	Now      func() time.Time // the clock (time.Now); tests fix it
}

// NewStream returns an empty stream.
func NewStream(o StreamOptions) *Stream {
	if o.Capacity <= 0 {
		o.Capacity = DefaultCapacity
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Stream{now: o.Now, capacity: o.Capacity, ready: make(chan struct{}, 1), closed: make(chan struct{})}
}

// Publish numbers and queues an event, and returns it (a dropped one too,
// with its number). It never blocks on the consumer.
func (s *Stream) Publish(ev Event) Event {
	s.mu.Lock()
	s.seq++
	ev.Seq = s.seq
	if ev.Timestamp.IsZero() {
		ev.Timestamp = s.now()
	}
	switch {
	case !Ephemeral(ev.Type):
		s.log = append(s.log, ev)
	case len(s.eph) < s.capacity:
		s.eph = append(s.eph, ev)
	default:
		s.dropped++
		s.mu.Unlock()
		return ev
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default: // a wake-up is already pending
	}
	return ev
}

// Take returns the events queued since the last Take, in sequence order.
func (s *Stream) Take() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	per := s.log[s.taken:]
	if len(per) == 0 && len(s.eph) == 0 {
		return nil
	}
	out := make([]Event, 0, len(per)+len(s.eph))
	out = append(out, per...)
	out = append(out, s.eph...)
	if len(per) > 0 && len(s.eph) > 0 {
		slices.SortFunc(out, func(a, b Event) int { return int(a.Seq) - int(b.Seq) })
	}
	s.taken = len(s.log)
	s.eph = s.eph[:0]
	return out
}

// Ready is signalled when there may be events to take.
func (s *Stream) Ready() <-chan struct{} { return s.ready }

// Close says the run published its last event; Pump returns once it has
// handed on everything. Publishing after Close still records.
func (s *Stream) Close() { s.once.Do(func() { close(s.closed) }) }

// Pump hands fn every event in order, batch by batch, until Close; it
// returns after the last batch. The caller runs it in its own goroutine
// and waits for it after Close. fn may be slow: the run does not wait.
func (s *Stream) Pump(fn func([]Event)) {
	for {
		select {
		case <-s.ready:
			if evs := s.Take(); len(evs) > 0 {
				fn(evs)
			}
		case <-s.closed:
			if evs := s.Take(); len(evs) > 0 {
				fn(evs)
			}
			return
		}
	}
}

// Persistent returns a copy of every event to store with the run.
func (s *Stream) Persistent() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// Dropped is how many ephemeral events a full queue dropped.
func (s *Stream) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Published is how many events were published (the last sequence number).
func (s *Stream) Published() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}
