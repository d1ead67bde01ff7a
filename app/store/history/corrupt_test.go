package history

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDamagedDatabaseIsMovedAside(t *testing.T) {
	ctx := context.Background()
	sim := simulate(t, examplesRoot, "file-tools/scenarios/fix-line-limit.yaml")
	// realDB writes a database with a few runs and returns its bytes.
	realDB := func(t *testing.T) []byte {
		path := filepath.Join(t.TempDir(), "real.db")
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if _, err := s.SaveRun(ctx, input(sim, SourceCLI, t0)); err != nil {
				t.Fatal(err)
			}
		}
		s.Close() // checkpoints the WAL into the file
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		reason  string // in the notice; "" means no recovery expected
	}{
		{"garbage bytes", func(t *testing.T, path string) {
			os.WriteFile(path, bytes.Repeat([]byte("not a database at all "), 500), 0o644)
			os.WriteFile(path+"-wal", []byte("junk"), 0o644)
		}, "not a database"},
		{"truncated real database", func(t *testing.T, path string) {
			data := realDB(t)
			os.WriteFile(path, data[:len(data)/2], 0o644)
		}, "malformed"},
		{"header only", func(t *testing.T, path string) {
			os.WriteFile(path, realDB(t)[:100], 0o644)
		}, ""},
		{"newer schema version", func(t *testing.T, path string) {
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 'later')`); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}, "newer than this program knows"},
		{"healthy database", func(t *testing.T, path string) {
			os.WriteFile(path, realDB(t), 0o644)
		}, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "history.db")
			tt.prepare(t, path)
			before, _ := os.ReadFile(path)

			s, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("the app would not start: %v", err)
			}
			defer s.Close()
			if tt.reason == "-" {
				if s.Recovered != nil {
					t.Fatalf("healthy database moved aside: %s", s.Recovered.Message())
				}
				if runs, _ := s.ListRuns(ctx, Filter{}); len(runs) != 5 {
					t.Fatalf("healthy database lists %d runs", len(runs))
				}
				return
			}
			if s.Recovered == nil {
				if tt.reason == "" {
					return // SQLite could read it after all; not a failure
				}
				t.Fatal("no recovery notice")
			}
			r := s.Recovered
			msg := r.Message()
			if !strings.Contains(msg, r.MovedTo) || !strings.Contains(msg, path) || !strings.Contains(msg, tt.reason) {
				t.Errorf("notice %q lacks the path, the new place or %q", msg, tt.reason)
			}
			if !strings.HasPrefix(filepath.Base(r.MovedTo), "history.db.corrupt-") || filepath.Dir(r.MovedTo) != dir {
				t.Errorf("moved to %s", r.MovedTo)
			}
			moved, err := os.ReadFile(r.MovedTo)
			if err != nil || len(moved) == 0 {
				t.Errorf("the old file is not at %s: %v", r.MovedTo, err)
			}
			if tt.name != "newer schema version" && !bytes.Equal(moved, before) {
				// (A readable newer database may get its WAL checkpointed.)
				t.Errorf("the old file was not kept as it was")
			}
			// The fresh database works.
			if runs, err := s.ListRuns(ctx, Filter{}); err != nil || len(runs) != 0 {
				t.Fatalf("fresh database: %d runs, %v", len(runs), err)
			}
			if _, err := s.SaveRun(ctx, input(sim, SourceCLI, t0)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestOpenDoesNotMoveABusyDatabase: a database another process holds
// locked is reported, never mistaken for a damaged one.
func TestOpenDoesNotMoveABusyDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=1&_locking_mode=EXCLUSIVE&_journal_mode=DELETE")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`BEGIN EXCLUSIVE; INSERT INTO blobs (hash, size, data) VALUES (x'00', 0, '')`); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, path)
	if err == nil {
		t.Skip("the lock did not block Open here")
	}
	if _, serr := os.Stat(path); serr != nil {
		t.Fatalf("busy database was moved: %v (open error %v)", serr, err)
	}
	matches, _ := filepath.Glob(path + ".corrupt-*")
	if len(matches) != 0 {
		t.Fatalf("busy database was moved aside: %v", matches)
	}
}

func TestMoveAsideTakesWALAndSHM(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.WriteFile(path+suffix, []byte("x"+suffix), 0o644)
	}
	// A previous recovery in the same second is not overwritten.
	first, err := moveAside(path, t0)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte("again"), 0o644)
	second, err := moveAside(path, t0)
	if err != nil {
		t.Fatal(err)
	}
	if first == second {
		t.Fatalf("both moved to %s", first)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if data, err := os.ReadFile(first + suffix); err != nil || string(data) != "x"+suffix {
			t.Errorf("%s: %q %v", first+suffix, data, err)
		}
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("%s is still there", path+suffix)
		}
	}
}
