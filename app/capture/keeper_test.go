package capture

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

// saves records each save of a kept capture.
type saves struct {
	mu   sync.Mutex
	got  []savedCall
	fail bool
}

type savedCall struct {
	replaces int64
	calls    int
}

func (s *saves) SaveCapture(_ context.Context, replaces int64, tr *engine.Trace, _ string, _, _ time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return 0, errors.New("disk full")
	}
	s.got = append(s.got, savedCall{replaces, len(tr.Calls)})
	return 7, nil
}

func textCall(n int, user, answer string) Call {
	return Call{N: n, API: Anthropic, Status: 200, Messages: []Message{{Role: "user", Content: user, Origin: OriginUser}}, Answer: &Answer{Content: answer}}
}

// TestKeeper: the first call is saved as a new run, each later one saves
// the run again under its id, before the capture ends; a failing save is
// reported and retried with the next call.
func TestKeeper(t *testing.T) {
	s := &saves{}
	savedTo := make(chan int64, 16)
	k := NewKeeper(s, time.Now())
	k.OnSaved = func(id int64, err error) { savedTo <- id }
	k.Add(textCall(0, "hi", "one"))
	if id := <-savedTo; id != 7 || k.ID() != 7 {
		t.Fatalf("first save: run %d", id)
	}
	s.mu.Lock()
	s.fail = true
	s.mu.Unlock()
	k.Add(textCall(1, "hi", "two"))
	<-savedTo
	s.mu.Lock()
	s.fail = false
	s.mu.Unlock()
	k.Add(textCall(2, "hi", "three"))
	<-savedTo
	id, err := k.Close()
	if id != 7 || err != nil {
		t.Fatalf("close: %d %v", id, err)
	}
	k.Add(textCall(3, "hi", "late")) // after Close: ignored, no panic
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.got) < 2 || s.got[0] != (savedCall{0, 1}) || s.got[len(s.got)-1] != (savedCall{7, 3}) {
		t.Errorf("saves %+v", s.got)
	}
}
