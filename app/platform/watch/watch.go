// Package watch reports changes in a skills tree (<root>/<skill>/hooks/...,
// <root>/<skill>/scenarios/...) so the app can re-simulate on every save.
//
// fsnotify watches single directories, so the Watcher adds every directory of
// the tree itself, adds new directories as they appear, and reports the files
// already inside them (their own events may have fired before the watch was
// in place). Bursts of events are debounced per path and coalesced into one
// Change. A root that disappears is polled for until it comes back.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults for Options fields left at zero.
const (
	DefaultDebounce     = 50 * time.Millisecond
	DefaultPollInterval = 500 * time.Millisecond
)

// Change is one batch of settled changes, or a change of the root's state.
//
// Paths are relative to the root, use forward slashes, are sorted and hold no
// duplicates. A path may name a directory: when a directory is removed or
// renamed away only the directory itself is reported, not what was inside.
// When RootMissing or RootRestored is set Paths is empty: after RootMissing the
// whole tree is gone, after RootRestored the consumer should reload
// everything, because anything may have changed while the root was away.
type Change struct {
	Paths        []string
	RootMissing  bool
	RootRestored bool
}

// Options configures a Watcher. OnChange is required.
type Options struct {
	// OnChange is called from Run's goroutine, one call at a time, so it must
	// return quickly (hand heavy work to another goroutine); while it runs
	// new events wait in the kernel's queue.
	OnChange func(Change)
	// OnError, if set, receives errors that do not stop the watcher (a
	// directory that cannot be watched, a kernel queue overflow). Called from
	// Run's goroutine.
	OnError func(error)
	// Debounce is how long a path must stay quiet before it is reported.
	// Zero or negative means DefaultDebounce.
	Debounce time.Duration
	// Dirs are hidden folder names that are watched nonetheless: they hold
	// hook configuration (.jcli, .claude, …; the hook-system registry's
	// Dirs), and saving a file in one must be seen like any other.
	Dirs []string
	// PollInterval is how often Run checks that the root still exists (and
	// is still the same directory) and, while it is missing, whether it is
	// back. Zero or negative means DefaultPollInterval.
	PollInterval time.Duration
}

// Watcher watches one skills tree. Create it with New and start it with Run.
type Watcher struct {
	root    string
	opts    Options
	running atomic.Bool
	ready   chan struct{}
}

// New checks that root is an existing directory and returns a Watcher for
// it. It starts nothing: every goroutine and OS resource belongs to Run.
func New(root string, opts Options) (*Watcher, error) {
	if opts.OnChange == nil {
		return nil, errors.New("watch: OnChange is required")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("watch %s: not a directory", root)
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = DefaultPollInterval
	}
	return &Watcher{root: abs, opts: opts, ready: make(chan struct{})}, nil
}

// Root returns the absolute path of the watched root.
func (w *Watcher) Root() string { return w.root }

// Ready is closed once Run has installed its watches on the whole tree (or
// found the root missing). Changes made before that may go unreported. It is
// never closed if Run fails to start.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Run watches the tree until ctx is cancelled, then releases every watch,
// timer and goroutine it started and returns nil. It returns an error only if
// watching cannot start at all. Run may be called once per Watcher.
func (w *Watcher) Run(ctx context.Context) error {
	if !w.running.CompareAndSwap(false, true) {
		return errors.New("watch: Run called twice")
	}
	l := &loop{
		w:       w,
		pending: make(map[string]*pending),
		// maxWait bounds how long a path written without pause (a log, a
		// runaway script) can hold its own report back.
		maxWait: 20 * w.opts.Debounce,
		// Paths whose quiet period ends within this window of the timer
		// firing go out in the same Change: files saved together (an editor
		// saving all, a git checkout) settle a few ms apart and are better
		// re-simulated once. Kept below Debounce so that a path still being
		// written is not cut short.
		window: w.opts.Debounce / 2,
	}
	// A stopped timer: Go ≥1.23 timers have no stale value after Stop or
	// Reset, so the loop can Reset it without draining.
	l.timer = time.NewTimer(time.Hour)
	l.timer.Stop()
	defer l.timer.Stop()
	defer l.closeFS()

	if err := l.start(); err != nil {
		return err
	}
	close(w.ready)

	ticker := time.NewTicker(w.opts.PollInterval)
	defer ticker.Stop()

	for {
		// A nil fsw (root missing) leaves these channels nil, which blocks
		// forever in select: only the ticker and ctx are live then.
		var events <-chan fsnotify.Event
		var errs <-chan error
		if l.fsw != nil {
			events, errs = l.fsw.Events, l.fsw.Errors
		}
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-events:
			if !ok {
				return errors.New("watch: fsnotify event channel closed")
			}
			l.handle(ev)
		case err, ok := <-errs:
			if !ok {
				return errors.New("watch: fsnotify error channel closed")
			}
			l.handleError(err)
		case <-l.timer.C:
			l.armed = false
			// select picks at random among ready cases: take in the
			// events already waiting first, so a path still being
			// written is not reported in the middle of its burst just
			// because Run fell behind.
			l.drain(events)
			l.flush(time.Now())
		case <-ticker.C:
			l.poll()
		}
	}
}

// drain handles the events that can be received without waiting. It stops
// at the first empty moment, so a steady stream cannot hold it.
func (l *loop) drain(events <-chan fsnotify.Event) {
	for range 1024 {
		select {
		case ev, ok := <-events:
			if !ok {
				return // Run's select sees the close next
			}
			l.handle(ev)
		default:
			return
		}
	}
}

// pending is one path waiting for its quiet period to end.
type pending struct {
	first, last time.Time
	// born is set when the first event seen for the path was a create: if
	// the path is gone again when it settles, it was a temporary file (an
	// editor's write-then-rename, vim's probe) that nobody needs to hear of.
	born bool
}

// loop is Run's state; it is only touched from Run's goroutine, hence no
// locks.
type loop struct {
	w        *Watcher
	fsw      *fsnotify.Watcher
	rootInfo fs.FileInfo // the root directory being watched, to spot a replacement
	missing  bool
	// dirs mirrors the directories added to fsw, so that a removal event
	// costs a map lookup rather than a scan of fsnotify's watch list.
	dirs map[string]struct{}

	pending map[string]*pending
	timer   *time.Timer
	armed   bool
	maxWait time.Duration
	window  time.Duration
}

// start watches the tree, or enters the missing state if the root vanished
// between New and Run.
func (l *loop) start() error {
	err := l.watchRoot()
	if errors.Is(err, fs.ErrNotExist) {
		l.missing = true
		l.w.opts.OnChange(Change{RootMissing: true})
		return nil
	}
	return err
}

// watchRoot opens a fresh fsnotify watcher and adds the whole tree. A fresh
// watcher per life of the root means no watch can survive on a directory that
// was moved away with its parent and report under stale names.
func (l *loop) watchRoot() error {
	fi, err := os.Stat(l.w.root)
	if err != nil {
		return fmt.Errorf("watch %s: %w", l.w.root, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("watch %s: %w", l.w.root, fs.ErrNotExist)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", l.w.root, err)
	}
	if err := fsw.Add(l.w.root); err != nil {
		_ = fsw.Close()
		return fmt.Errorf("watch %s: %w", l.w.root, err)
	}
	l.fsw = fsw
	l.rootInfo = fi
	l.dirs = map[string]struct{}{l.w.root: {}}
	l.addTree(l.w.root, false)
	return nil
}

func (l *loop) closeFS() {
	if l.fsw == nil {
		return
	}
	// Close waits for fsnotify's reader goroutine to exit.
	_ = l.fsw.Close()
	l.fsw = nil
	l.dirs = nil
}

// addTree adds a watch on dir and every directory below it. With report set,
// every non-ignored entry found is marked changed: they appeared while no
// watch was there to see them.
func (l *loop) addTree(dir string, report bool) {
	now := time.Now()
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			// Something removed while we walk is no news: its own
			// event follows. Anything else (permissions) is worth
			// telling; either way, skip what cannot be read.
			if !errors.Is(err, fs.ErrNotExist) {
				l.report(fmt.Errorf("watch: walk %s: %w", p, err))
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, ok := l.rel(p)
		if !ok {
			return nil
		}
		if rel != "" && l.w.ignored(rel) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() && p != l.w.root {
			// Add before WalkDir lists the directory: whatever appears
			// after the listing is then caught by the watch.
			if err := l.fsw.Add(p); err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					l.report(fmt.Errorf("watch: add %s: %w", p, err))
				}
			} else {
				l.dirs[p] = struct{}{}
			}
		}
		if report && rel != "" {
			l.mark(rel, now, false)
		}
		return nil
	})
}

func (l *loop) handle(ev fsnotify.Event) {
	if l.missing {
		return
	}
	if ev.Name == l.w.root {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			l.rootGone()
		}
		return
	}
	if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Write) &&
		!ev.Has(fsnotify.Remove) && !ev.Has(fsnotify.Rename) {
		return // Chmod alone: touch, chmod, editors resetting modes
	}
	if _, ok := l.dirs[filepath.Dir(ev.Name)]; !ok {
		// From a watch we have dropped, queued before we dropped it: a
		// directory since moved away, whose names are stale.
		return
	}
	rel, ok := l.rel(ev.Name)
	if !ok || l.w.ignored(rel) {
		return
	}
	now := time.Now()
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		// Below a directory moved away the watches live on and would
		// report under names that no longer exist; drop them.
		l.unwatchBelow(ev.Name)
	}
	l.mark(rel, now, ev.Has(fsnotify.Create))
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			l.addTree(ev.Name, true)
		}
	}
}

func (l *loop) unwatchBelow(dir string) {
	if _, ok := l.dirs[dir]; !ok {
		return // a file, or a directory we never watched
	}
	// Drop the directory's own watch now, not when fsnotify sees the
	// IN_MOVE_SELF that trails the rename: by then a rename within the tree
	// may already have re-added the same inode under its new name, and
	// fsnotify would drop that watch instead.
	_ = l.fsw.Remove(dir)
	delete(l.dirs, dir)
	prefix := dir + string(filepath.Separator)
	for p := range l.dirs {
		if strings.HasPrefix(p, prefix) {
			_ = l.fsw.Remove(p) // already gone is fine
			delete(l.dirs, p)
		}
	}
}

func (l *loop) handleError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		// Events were lost: anything may have changed, and new
		// directories may lack watches. Rescan and report everything.
		l.report(fmt.Errorf("watch: %w; rescanning", err))
		if !l.missing && l.fsw != nil {
			l.addTree(l.w.root, true)
		}
		return
	}
	l.report(fmt.Errorf("watch: %w", err))
}

// mark records an event on rel and makes sure the timer will fire.
func (l *loop) mark(rel string, now time.Time, create bool) {
	p, ok := l.pending[rel]
	if !ok {
		p = &pending{first: now, born: create}
		l.pending[rel] = p
	}
	p.last = now
	if !l.armed {
		l.timer.Reset(l.w.opts.Debounce)
		l.armed = true
	}
}

// due is when p is ready to be reported.
func (l *loop) due(p *pending) time.Time {
	d := p.last.Add(l.w.opts.Debounce)
	if m := p.first.Add(l.maxWait); m.Before(d) {
		return m
	}
	return d
}

// flush reports every path due by now (plus the coalescing window) in one
// Change and re-arms the timer for the rest.
func (l *loop) flush(now time.Time) {
	if l.missing {
		clear(l.pending)
		return
	}
	var paths []string
	var next time.Time
	limit := now.Add(l.window)
	for rel, p := range l.pending {
		d := l.due(p)
		if d.After(limit) {
			if next.IsZero() || d.Before(next) {
				next = d
			}
			continue
		}
		delete(l.pending, rel)
		if p.born && !l.exists(rel) {
			continue
		}
		paths = append(paths, rel)
	}
	if !next.IsZero() {
		l.timer.Reset(max(next.Sub(now), time.Millisecond))
		l.armed = true
	}
	if len(paths) == 0 {
		return
	}
	sort.Strings(paths)
	l.w.opts.OnChange(Change{Paths: paths})
}

// poll checks the root: gone (or replaced by another directory) while
// watched, or back while missing.
func (l *loop) poll() {
	fi, err := os.Stat(l.w.root)
	present := err == nil && fi.IsDir()
	switch {
	case !l.missing && !present:
		l.rootGone()
	case !l.missing && !os.SameFile(fi, l.rootInfo):
		// The path now names another directory (the old one was moved
		// away with its parent, say): start over on the new one.
		l.rootGone()
		l.restore()
	case l.missing && present:
		l.restore()
	}
}

func (l *loop) rootGone() {
	l.missing = true
	l.closeFS()
	// What was pending is moot: the whole tree is gone.
	clear(l.pending)
	if l.armed {
		l.timer.Stop()
		l.armed = false
	}
	l.w.opts.OnChange(Change{RootMissing: true})
}

func (l *loop) restore() {
	if err := l.watchRoot(); err != nil {
		// Gone again, or not watchable yet: the next tick retries.
		if !errors.Is(err, fs.ErrNotExist) {
			l.report(err)
		}
		return
	}
	l.missing = false
	l.w.opts.OnChange(Change{RootRestored: true})
}

func (l *loop) report(err error) {
	if l.w.opts.OnError != nil {
		l.w.opts.OnError(err)
	}
}

// rel turns an absolute path under the root into a root-relative slash path;
// the root itself is "".
func (l *loop) rel(p string) (string, bool) {
	r, err := filepath.Rel(l.w.root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

func (l *loop) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(l.w.root, filepath.FromSlash(rel)))
	return err == nil
}

// ignored reports whether any element of the slash path rel is a hidden or
// editor scratch name. Such files are never reported and such directories
// never watched (.git can hold thousands of directories).
func (w *Watcher) ignored(rel string) bool {
	for name := range strings.SplitSeq(rel, "/") {
		if !slices.Contains(w.opts.Dirs, name) && ignoredName(name) {
			return true
		}
	}
	return false
}

func ignoredName(name string) bool {
	switch {
	case name == "":
		return false
	case name == "node_modules", // a project's dependencies: never hook configuration, often 10,000s of folders
		strings.HasPrefix(name, "."),                                 // .git, .DS_Store, .a.md.swp, emacs .#lock
		strings.HasPrefix(name, "~"),                                 // ~$office locks
		strings.HasSuffix(name, "~"),                                 // backups (vim, emacs)
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"), // emacs autosave
		strings.HasSuffix(name, ".swp"), strings.HasSuffix(name, ".swx"),
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"): // JetBrains safe write
		return true
	}
	return vimProbe(name)
}

// vimProbe reports whether name is one of the files vim creates to test
// whether it may write in a directory: "4913", or 4913+k*123 when that
// exists already.
func vimProbe(name string) bool {
	n, err := strconv.Atoi(name)
	return err == nil && n >= 4913 && (n-4913)%123 == 0 && strconv.Itoa(n) == name
}
