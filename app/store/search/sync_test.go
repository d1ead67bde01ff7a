package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeSource holds docs by key; loads counts what was read.
type fakeSource struct {
	prefix string
	mu     sync.Mutex
	docs   map[string]Doc
	err    error // Refs fails with it
	loads  []string
}

func (f *fakeSource) Prefix() string { return f.prefix }

func (f *fakeSource) Refs(context.Context) ([]Ref, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	var out []Ref
	for k, d := range f.docs {
		out = append(out, Ref{Key: k, Sig: d.Sig, Started: d.Started, Size: 1})
	}
	return out, nil
}

func (f *fakeSource) Load(_ context.Context, r Ref) (Doc, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loads = append(f.loads, r.Key)
	return f.docs[r.Key], nil
}

func (f *fakeSource) set(d Doc) {
	f.mu.Lock()
	f.docs[d.Key] = d
	f.mu.Unlock()
}

func (f *fakeSource) takeLoads() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.loads
	f.loads = nil
	return out
}

func TestSync(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	runs := &fakeSource{prefix: "run:", docs: map[string]Doc{}}
	disk := &fakeSource{prefix: "file:", docs: map[string]Doc{}}
	for i := range 3 {
		runs.set(guardDoc(t, int64(i+1), t0.Add(time.Duration(i)*time.Hour)))
	}
	file := Doc{Key: FileKey("/s/a.jsonl"), Source: SourceDisk, File: "/s/a.jsonl", Started: t0.Add(10 * time.Hour), Sig: "10.1", Note: "not a transcript"}
	disk.set(file)
	var last Progress
	if err := Sync(ctx, ix, []Source{runs, disk}, func(p Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	// newest first
	if got := append(disk.takeLoads(), runs.takeLoads()...); !slices.Equal(got, []string{file.Key, RunKey(3), RunKey(2), RunKey(1)}) {
		t.Errorf("loaded %v", got)
	}
	if last != (Progress{Done: 4, Total: 4, Indexed: 4}) {
		t.Errorf("last progress %+v", last)
	}
	// nothing changed: nothing read
	if err := Sync(ctx, ix, []Source{runs, disk}, nil); err != nil {
		t.Fatal(err)
	}
	if l := append(runs.takeLoads(), disk.takeLoads()...); len(l) != 0 {
		t.Errorf("read again: %v", l)
	}
	// run 2 kept again with other words, run 3 deleted, the file imported
	d := guardDoc(t, 2, t0.Add(time.Hour))
	d.Record.Calls[1].Content, d.Sig = "Nothing to clean.", "2"
	runs.set(d)
	delete(runs.docs, RunKey(3))
	delete(disk.docs, file.Key)
	if err := Sync(ctx, ix, []Source{runs, disk}, func(p Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	if l := runs.takeLoads(); !slices.Equal(l, []string{RunKey(2)}) {
		t.Errorf("read %v, want the changed run only", l)
	}
	got, err := ix.Indexed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[RunKey(1)] != "1" || got[RunKey(2)] != "2" || last.Indexed != 2 {
		t.Errorf("indexed %v (progress says %d)", got, last.Indexed)
	}
	res, err := ix.Search(ctx, Query{Text: "forbids"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Key != RunKey(1) {
		t.Errorf("forbids: %v %v", rowsOf(res), err)
	}
	// a source that cannot be listed keeps its docs, and says so
	disk.set(file)
	if err := Sync(ctx, ix, []Source{runs, disk}, nil); err != nil {
		t.Fatal(err)
	}
	disk.err = errors.New("permission denied")
	err = Sync(ctx, ix, []Source{runs, disk}, func(p Progress) { last = p })
	if !errors.Is(err, ErrSourceUnreadable) || last.Err == "" {
		t.Errorf("sync: %v, progress %+v", err, last)
	}
	if got, _ := ix.Indexed(ctx); got[file.Key] == "" {
		t.Errorf("the unlisted source's docs went: %v", got)
	}
}

func TestIndexerSyncsWhenKicked(t *testing.T) {
	ix := openTemp(t)
	runs := &fakeSource{prefix: "run:", docs: map[string]Doc{}}
	runs.set(guardDoc(t, 1, time.Now()))
	ctx, cancel := context.WithCancel(context.Background())
	changes := make(chan Progress, 100)
	x := NewIndexer(ix, []Source{runs}, func(p Progress) { changes <- p })
	x.Start(ctx)
	x.Start(ctx) // a second start does nothing
	waitIndexed := func(n int) {
		t.Helper()
		for p := range changes {
			if !p.Running && p.Indexed == n {
				return
			}
		}
	}
	waitIndexed(1)
	runs.set(guardDoc(t, 2, time.Now()))
	x.Kick()
	waitIndexed(2)
	if st := x.Status(); st.Running || st.Indexed != 2 || st.Err != "" {
		t.Errorf("status %+v", st)
	}
	cancel()
	x.Wait()
}

func TestOpenRebuildsWhatIsNotAnIndex(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, path string) {
			os.WriteFile(path, []byte("this is not a database, just text that goes on for a while……"), 0o644)
		}},
		{"another schema", func(t *testing.T, path string) {
			ix, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			ix.Put(ctx, guardDoc(t, 1, time.Now()))
			ix.db.Exec(`PRAGMA user_version = 99`)
			ix.Close()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			tc.setup(t, path)
			ix, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if ix.Rebuilt == "" {
				t.Error("Rebuilt does not say why")
			}
			if got, err := ix.Indexed(ctx); err != nil || len(got) != 0 {
				t.Errorf("a rebuilt index holds %v (%v)", got, err)
			}
			if err := ix.Put(ctx, guardDoc(t, 1, time.Now())); err != nil {
				t.Fatal(err)
			}
		})
	}
	// a healthy index is kept
	path := filepath.Join(t.TempDir(), FileName)
	ix, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ix.Put(ctx, guardDoc(t, 1, time.Now()))
	ix.Close()
	ix, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, _ := ix.Indexed(ctx); ix.Rebuilt != "" || len(got) != 1 {
		t.Errorf("reopened: rebuilt %q, holds %v", ix.Rebuilt, got)
	}
}
