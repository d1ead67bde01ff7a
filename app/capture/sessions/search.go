package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"hookstudio/app/capture"
	"hookstudio/app/store/history"
	"hookstudio/app/store/search"
)

// SearchSources are what the search index holds: every run of the history
// (simulations, captures, imported sessions) and the transcripts under
// the locations (asked at each sync: the user may move them) that the
// history does not hold yet, read with opts (docs/search.md).
func SearchSources(store *history.Store, locs func() Locations, opts Options) []search.Source {
	var out []search.Source
	if store != nil {
		out = append(out, historyRuns{store: store})
	}
	return append(out, &diskSessions{store: store, locs: locs, opts: opts, agents: map[string]Agent{}})
}

// historyRuns are the history's runs.
type historyRuns struct{ store *history.Store }

func (historyRuns) Prefix() string { return "run:" }

func (h historyRuns) Refs(ctx context.Context) ([]search.Ref, error) {
	runs, err := h.store.ListRuns(ctx, history.Filter{})
	if err != nil {
		return nil, err
	}
	out := make([]search.Ref, len(runs))
	for i, r := range runs {
		// a run kept again under its id (a followed session, a capture's
		// new calls) changes its figures
		sig := fmt.Sprintf("%d.%d.%d.%d.%d.%d.%s", r.Started.UnixMilli(), r.Ended.UnixMilli(), r.Steps, r.LLMCalls, r.TokensIn, r.TokensOut, r.Status)
		out[i] = search.Ref{Key: search.RunKey(int64(r.ID)), Sig: sig, Started: r.Started, Size: int64(r.TokensIn) * 4}
	}
	return out, nil
}

func (h historyRuns) Load(ctx context.Context, ref search.Ref) (search.Doc, error) {
	var id int64
	if _, err := fmt.Sscanf(ref.Key, "run:%d", &id); err != nil {
		return search.Doc{}, fmt.Errorf("not a run: %s", ref.Key)
	}
	run, err := h.store.LoadRun(ctx, history.RunID(id))
	if err != nil {
		if ctx.Err() != nil {
			return search.Doc{}, ctx.Err()
		}
		return search.Doc{Source: "", Run: id, Note: err.Error()}, nil
	}
	rec := run.Trace.Record()
	d := search.Doc{Source: string(run.Source), Run: id, Title: run.Scenario, Started: run.Started, Record: &rec}
	if rec.Agent != nil {
		d.Agent, d.Version = rec.Agent.Agent, rec.Agent.Version
	}
	switch {
	case run.Session != nil:
		d.Agent, d.Version, d.File = run.Session.Agent, run.Session.Version, run.Session.File
		var s struct {
			Project string `json:"project"`
			Prompt  string `json:"prompt"`
		}
		if json.Unmarshal(run.Session.Data, &s) == nil {
			d.Project = s.Project
			if s.Prompt != "" {
				d.Title = s.Prompt
			}
		}
	case run.Source == history.SourceCapture:
		agent, err := capture.AgentOfRun(ctx, h.store, id)
		if err != nil && ctx.Err() != nil {
			return search.Doc{}, ctx.Err()
		}
		if agent != "" {
			d.Agent, d.Version, _ = strings.Cut(agent, "@")
		}
	}
	return d, nil
}

// diskSessions are the transcripts under the locations that the history
// does not hold.
type diskSessions struct {
	store *history.Store // nil: none is held
	locs  func() Locations
	opts  Options

	mu     sync.Mutex
	agents map[string]Agent // each file's agent, as its folder says (Refs)
}

func (*diskSessions) Prefix() string { return "file:" }

func (s *diskSessions) Refs(ctx context.Context) ([]search.Ref, error) {
	files, err := Files(s.locs())
	if err != nil {
		return nil, err
	}
	kept := map[string]history.RunID{}
	if s.store != nil {
		if kept, err = s.store.SessionFiles(ctx); err != nil {
			return nil, err
		}
	}
	out := make([]search.Ref, 0, len(files))
	agents := make(map[string]Agent, len(files))
	defer func() {
		s.mu.Lock()
		s.agents = agents
		s.mu.Unlock()
	}()
	for _, f := range files {
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			continue
		}
		agents[abs] = f.Agent
		if _, ok := kept[abs]; ok {
			continue // indexed as its run
		}
		st, err := os.Stat(abs)
		if err != nil {
			continue // gone since it was listed
		}
		out = append(out, search.Ref{Key: search.FileKey(abs), Sig: fmt.Sprintf("%d.%d", st.Size(), st.ModTime().UnixNano()),
			Started: st.ModTime(), Size: st.Size()})
	}
	return out, nil
}

func (s *diskSessions) Load(ctx context.Context, ref search.Ref) (search.Doc, error) {
	file := strings.TrimPrefix(ref.Key, "file:")
	d := search.Doc{Source: search.SourceDisk, File: file, Started: ref.Started}
	opts := s.opts
	s.mu.Lock()
	opts.Agent = s.agents[file] // "": told from its first record
	s.mu.Unlock()
	opts.Progress, opts.OnRequest = nil, nil
	im, err := ImportFile(ctx, file, opts)
	if err != nil {
		if ctx.Err() != nil {
			return d, ctx.Err()
		}
		d.Note = err.Error()
		return d, nil
	}
	sess := im.Session()
	d.Agent, d.Version, d.Project, d.Title = string(sess.Agent), sess.Version, sess.Project, sess.Prompt
	if !sess.Started.IsZero() {
		d.Started = sess.Started
	}
	tr, err := im.Trace()
	if err != nil {
		if !errors.Is(err, ErrEmpty) {
			d.Note = err.Error()
		}
		return d, nil
	}
	rec := tr.Record()
	d.Record = &rec
	return d, nil
}
