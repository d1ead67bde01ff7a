package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"hookstudio/app/store/history"
)

// Store is the history imports are kept in (history.Store).
type Store interface {
	SaveRun(ctx context.Context, in history.RunInput) (history.RunID, error)
	SessionRun(ctx context.Context, file string) (history.RunID, error)
}

// Keep saves what im read as a run of source session, standing in for the
// run an earlier import of the same file made (the session kept once,
// however often it is imported). Its token figures are those the history
// already knows of its texts (counted by tokens: what an earlier import or
// another run counted); the rest are left pending, for
// tokenjobs.Count to finish — a 50 MB session is mostly text to count, and
// is usable before it is counted. tokens nil: an estimate, nothing
// pending.
func Keep(ctx context.Context, st Store, im *Importer, tokens history.ContentCounter) (history.RunID, error) {
	tr, err := im.Trace()
	if err != nil {
		return 0, err
	}
	if fi, err := os.Stat(im.sess.File); err == nil && im.mtime.IsZero() {
		im.mtime = fi.ModTime() // the session's time when no record has one
	}
	var tc history.TokenCounter
	if tokens != nil {
		tc = tokens
	}
	s := im.Session()
	file, err := filepath.Abs(s.File)
	if err != nil {
		return 0, err
	}
	s.File = file
	data, err := json.Marshal(s)
	if err != nil {
		return 0, err
	}
	earlier, err := st.SessionRun(ctx, file)
	if err != nil {
		return 0, err
	}
	ended := s.Ended
	if ended.IsZero() {
		ended = s.Started
	}
	return st.SaveRun(ctx, history.RunInput{Trace: tr, ScenarioFile: file, Backend: Backend(s), Source: history.SourceSession,
		Started: s.Started, Ended: ended, Tokens: tc, DeferTokens: tokens != nil, Replaces: earlier,
		Session: &history.SessionInfo{Agent: string(s.Agent), Version: s.Version, File: file, ID: s.ID, Data: data}})
}

// Backend is how the history names an imported session's backend: the
// agent and its version ("claude-code@2.1.332").
func Backend(s Session) string {
	if s.Version == "" {
		return string(s.Agent)
	}
	return string(s.Agent) + "@" + s.Version
}

// Update is what a follow tells after each change.
type Update struct {
	Session Session
	Run     history.RunID
	Err     error
}

// Follow imports the transcript at path, keeps it as a run (as Keep does:
// its new texts pending), and goes on importing what the agent appends
// (fsnotify on its folder) until ctx ends, saving the run again after each
// change and telling onUpdate. A file that shrinks (rewritten) is imported
// again from its start.
func Follow(ctx context.Context, path string, st Store, tokens history.ContentCounter, opts Options, onUpdate func(Update)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", path, err)
	}
	defer w.Close()
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if err := w.Add(filepath.Dir(abs)); err != nil {
		return fmt.Errorf("watch %s: %w", filepath.Dir(abs), err)
	}
	im := NewImporter(abs, opts)
	var last int64 = -1
	// the sub-agents' transcripts (Claude Code's) are watched once their
	// folders are made: the session's folder, then its subagents folder
	subDir := subagentsDir(abs)
	sessDir := filepath.Dir(subDir)
	watched := map[string]bool{}
	catchUp := func() {
		size, err := readNew(ctx, abs, im)
		if errors.Is(err, errShrunk) {
			im = NewImporter(abs, opts)
			last = -1
			size, err = readNew(ctx, abs, im)
		}
		for _, d := range []string{sessDir, subDir} {
			if !watched[d] && w.Add(d) == nil {
				watched[d] = true
			}
		}
		if err == nil {
			err = im.ReadSubagents(ctx)
			for _, f := range im.subs {
				size += f.offset
			}
		}
		if err != nil {
			onUpdate(Update{Session: im.Session(), Err: err})
			return
		}
		if size == last {
			return
		}
		last = size
		id, err := Keep(ctx, st, im, tokens)
		if errors.Is(err, ErrEmpty) {
			err = nil // nothing to keep yet: the agent has only begun
		}
		onUpdate(Update{Session: im.Session(), Run: id, Err: err})
	}
	catchUp()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if (ev.Name == abs || ev.Name == sessDir || strings.HasPrefix(ev.Name, sessDir+string(filepath.Separator))) &&
				ev.Op&(fsnotify.Write|fsnotify.Create) != 0 {
				catchUp()
			}
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			onUpdate(Update{Session: im.Session(), Err: fmt.Errorf("watch %s: %w", path, err)})
			// a lost event (queue overflow) is made up for by reading again
			catchUp()
		}
	}
}

var errShrunk = errors.New("the file is shorter than what was read")

// readNew gives im what the file holds beyond what it read, and returns
// the file's size.
func readNew(ctx context.Context, path string, im *Importer) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	from := im.Offset() + int64(len(im.partial))
	if st.Size() < from {
		return st.Size(), errShrunk
	}
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return 0, err
	}
	if err := im.ReadFrom(ctx, f); err != nil {
		return 0, err
	}
	return st.Size(), nil
}
