package sessions

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/store/history"
	"hookstudio/app/store/search"
)

// sessionFolders lays the fixtures out as the agents keep them and
// returns the locations.
func sessionFolders(t *testing.T) Locations {
	t.Helper()
	dir := t.TempDir()
	l := Locations{Claude: filepath.Join(dir, "claude", "projects"), Codex: filepath.Join(dir, "codex", "sessions")}
	place := func(fixture, path string) {
		data, err := os.ReadFile(filepath.Join("testdata", fixture+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	place("claude-code-2.1.332", filepath.Join(l.Claude, "-home-user-project", "046c19cd.jsonl"))
	place("codex-0.171.0", filepath.Join(l.Codex, "2026", "11", "27", "rollout-2026-11-27T01-00-00-01a21a89.jsonl"))
	// a file that is no transcript: indexed as such, never a failed sync
	if err := os.WriteFile(filepath.Join(l.Claude, "-home-user-project", "broken.jsonl"), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return l
}

type place struct {
	kind                string
	call, message, step int
}

func placesOf(r search.Results) []place {
	var out []place
	for _, h := range r.Hits {
		out = append(out, place{h.Kind, h.Call, h.Message, h.Step})
	}
	slices.SortFunc(out, func(a, b place) int { return a.step - b.step })
	return out
}

// TestSearchSessions: the transcripts on disk are searched before they
// are imported; once imported, the run stands in for the file, and its
// hits are at the same call, message and step — so a hit in a file opens,
// after the import, where it said.
func TestSearchSessions(t *testing.T) {
	ctx := context.Background()
	locs := sessionFolders(t)
	store := openStore(t)
	ix, err := search.Open(ctx, filepath.Join(t.TempDir(), search.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	sources := SearchSources(store, func() Locations { return locs }, Options{})
	if err := search.Sync(ctx, ix, sources, nil); err != nil {
		t.Fatal(err)
	}
	guard := search.Query{Text: `"rm -rf" event:PreToolUse`, Outcome: "blocked", Agent: "claude-code"}
	res, err := ix.Search(ctx, guard)
	if err != nil {
		t.Fatal(err)
	}
	claudeFile, _ := filepath.Abs(filepath.Join(locs.Claude, "-home-user-project", "046c19cd.jsonl"))
	if len(res.Hits) == 0 {
		t.Fatal("the guard's block is not found")
	}
	for _, h := range res.Hits {
		if h.Source != search.SourceDisk || h.File != claudeFile || h.Run != 0 || h.Agent != "claude-code" || h.Version != "2.1.332" ||
			h.Project != "/home/user/project" || h.Title != "clean the build folder" || h.Event != "PreToolUse:Bash" {
			t.Errorf("hit %+v", h)
		}
	}
	before := placesOf(res)
	// the place is the trace's: the guard's words are the message the next
	// call received
	im := importFixture(t, "claude-code-2.1.332", Options{})
	tr := mustTrace(t, im)
	for _, p := range before {
		if p.message < 0 {
			continue
		}
		m := tr.Message(p.message)
		if m.EditedBy == "" && m.Origin != engine.OriginHook && m.Origin != engine.OriginTool {
			t.Errorf("message %d (%s) is not the guard's", p.message, m.Origin)
		}
		if !slices.Contains(idsAtCall(tr, p.call), p.message) {
			t.Errorf("call %d does not receive message %d", p.call, p.message)
		}
	}
	// the codex session's messages, by a filter alone
	codexHits, _ := ix.Search(ctx, search.Query{Agent: "codex", Kind: search.KindMessage})
	if codexHits.Total == 0 {
		t.Error("the codex session is not indexed")
	}
	indexed, _ := ix.Indexed(ctx)
	if len(indexed) != 3 {
		t.Errorf("indexed %v, want the two sessions and the broken file", indexed)
	}

	// imported: the file's doc gives way to the run's
	id, err := Keep(ctx, store, NewImporterFile(t, claudeFile), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := search.Sync(ctx, ix, sources, nil); err != nil {
		t.Fatal(err)
	}
	res, err = ix.Search(ctx, guard)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Source != string(history.SourceSession) || h.Run != int64(id) || h.File != claudeFile || h.Project != "/home/user/project" {
			t.Errorf("after the import: %+v", h)
		}
	}
	if after := placesOf(res); !slices.Equal(after, before) {
		t.Errorf("places moved with the import:\n before %v\n after  %v", before, after)
	}
	if got, _ := ix.Indexed(ctx); got[search.FileKey(claudeFile)] != "" || got[search.RunKey(int64(id))] == "" {
		t.Errorf("indexed after the import: %v", got)
	}
}

// NewImporterFile imports the transcript at path.
func NewImporterFile(t *testing.T, path string) *Importer {
	t.Helper()
	im, err := ImportFile(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// idsAtCall are the messages call receives.
func idsAtCall(tr *engine.Trace, call int) []int {
	var ids []int
	for _, m := range tr.MessagesAt(tr.Calls[call].Step) {
		ids = append(ids, m.ID)
	}
	return ids
}
