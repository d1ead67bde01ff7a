package bind

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
	"hookstudio/app/store/search"
)

// TestSearchBinding: nothing is indexed until the app asks (a search, or
// the sessions listed); then the sessions on disk and the history's runs
// are indexed in the background, telling their progress; a run kept later
// is indexed as it is kept; a bad search says what is wrong.
func TestSearchBinding(t *testing.T) {
	dataDir := t.TempDir()
	projects := filepath.Join(t.TempDir(), "projects")
	dir := filepath.Join(projects, "-home-user-project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	onDisk := filepath.Join(dir, "on-disk.jsonl")
	if err := os.WriteFile(onDisk, []byte(strings.Join(fixtureLines(t), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(context.Background(), filepath.Join(dataDir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ev := newPayloads()
	sb := NewSearch(ev.emit, store, dataDir)
	if err := SearchErr(sb); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	StartSearch(ctx, sb)
	defer StopSearch(sb)
	emit := ObserveRuns(sb, ev.emit)
	ss := NewSessions(emit, store, nil, dataDir)
	UseSearch(ss, sb)
	if _, err := ss.SetLocations(sessions.Locations{Claude: projects, Codex: filepath.Join(t.TempDir(), "none")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(search.DefaultPath(dataDir)); err != nil {
		t.Fatalf("the index is not in the data folder: %v", err)
	}
	if st := sb.indexer.Status(); st.Indexed != 0 || st.Running {
		t.Fatalf("indexing before anything asked: %+v", st)
	}
	finished := func(want int) func(any) bool {
		return func(v any) bool {
			p := v.(search.Progress)
			return !p.Running && p.Indexed == want
		}
	}

	// listing the sessions starts indexing them
	if _, err := ss.List(sessions.Filter{}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, EventSearchProgress, finished(1))
	page, err := sb.Find(search.Query{Text: `"no rm -rf here"`, Outcome: "blocked", Kind: search.KindMessage})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Results.Hits) != 1 || page.Results.Hits[0].Source != search.SourceDisk || page.Results.Hits[0].File != onDisk || page.Status.Running || page.Status.Indexed != 1 {
		t.Fatalf("found %+v, status %+v", page.Results.Hits, page.Status)
	}
	at := page.Results.Hits[0]

	// imported: its run is indexed as it is kept, at the same place
	imp, err := ss.Import(onDisk)
	if err != nil {
		t.Fatal(err)
	}
	ev.wait(t, studio.EventRun, func(v any) bool { return v.(int64) == imp.Run })
	ev.wait(t, EventSearchProgress, func(v any) bool {
		p := v.(search.Progress)
		return !p.Running && p.Done == p.Total && p.Total > 0
	})
	page, err = sb.Find(search.Query{Text: `"no rm -rf here"`, Outcome: "blocked", Kind: search.KindMessage})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Results.Hits) != 1 || page.Results.Hits[0].Run != imp.Run || page.Results.Hits[0].Call != at.Call || page.Results.Hits[0].Message != at.Message || page.Results.Hits[0].Step != at.Step {
		t.Errorf("after the import %+v, before %+v", page.Results.Hits, at)
	}

	// a run kept without the app's word (a capture's calls): its state event asks for a sync
	im, err := sessions.ImportFile(context.Background(), filepath.Join("..", "..", "capture", "sessions", "testdata", "codex-0.171.0.jsonl"), sessions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := sessions.Keep(context.Background(), store, im, nil)
	if err != nil {
		t.Fatal(err)
	}
	emit(capture.EventState, nil)
	ev.wait(t, EventSearchProgress, finished(2))
	page, err = sb.Find(search.Query{Agent: "codex", Kind: search.KindMessage})
	if err != nil || page.Results.Total == 0 || page.Results.Hits[0].Run != int64(kept) {
		t.Errorf("the codex run: %+v %v", page.Results, err)
	}

	// a bad search says what is wrong
	if _, err := sb.Find(search.Query{Text: "NOT rm"}); err == nil || !strings.Contains(err.Error(), "say what to find") {
		t.Errorf("bad search: %v", err)
	}
	if st, err := sb.Status(); err != nil || st.Indexed != 2 {
		t.Errorf("status %+v %v", st, err)
	}
}
