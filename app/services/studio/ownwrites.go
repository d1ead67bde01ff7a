package studio

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"hookstudio/app/platform/watch"
	"hookstudio/app/store/atomicfile"
)

// ownWrites are the app's own writes in the open folder. The caller of a
// write reloads at once (a save shows its simulation before it returns);
// the watcher then reports the same write, and reloading again would parse
// every config, simulate and store a history row a second time. A path the
// app wrote that still holds what it wrote needs no reload; anything else
// the watcher reports does. It is safe for concurrent use and never takes
// the service's lock (the watcher's callback must not).
type ownWrites struct {
	mu      sync.Mutex
	written map[string][32]byte // root-relative path → hash of what the app wrote
	changed []string            // reported by the watcher, not yet looked at
	full    bool                // the root went away or came back: reload
	busy    atomic.Bool         // the worker is handling a report (taken, maybe reloading)
}

// expect notes that the app is about to write data to rel.
func (o *ownWrites) expect(rel string, data []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.written == nil {
		o.written = map[string][32]byte{}
	}
	o.written[rel] = sha256.Sum256(data)
}

// forget drops a write that did not happen.
func (o *ownWrites) forget(rel string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.written, rel)
}

// reported keeps what the watcher reported, for take.
func (o *ownWrites) reported(c watch.Change) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.changed = append(o.changed, c.Paths...)
	o.full = o.full || c.RootMissing || c.RootRestored || len(c.Paths) == 0
}

// take says whether what the watcher reported since the last take needs a
// reload of root: a change the app did not make, or one the disk no longer
// holds. A write is expected once: its report is consumed.
func (o *ownWrites) take(root string) bool {
	o.mu.Lock()
	changed, full := o.changed, o.full
	o.changed, o.full = nil, false
	o.mu.Unlock()
	if full {
		return true
	}
	reload := false
	for _, rel := range changed {
		o.mu.Lock()
		want, own := o.written[rel]
		delete(o.written, rel)
		o.mu.Unlock()
		if !own {
			reload = true
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || sha256.Sum256(data) != want {
			reload = true // changed again since: not (only) the app's write
		}
	}
	return reload
}

// reset forgets everything: another folder is open.
func (o *ownWrites) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.written, o.changed, o.full = nil, nil, false
}

// writeOwn writes data to root-relative rel atomically as the app's own
// write: the watcher's report of it reloads nothing (the caller reloads).
func (s *Service) writeOwn(root, rel string, data []byte) error {
	s.own.expect(rel, data)
	if err := atomicfile.Write(filepath.Join(root, filepath.FromSlash(rel)), data, 0o644); err != nil {
		s.own.forget(rel)
		return err
	}
	return nil
}
