package history

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// crashWriterEnv makes the test binary a writer that saves runs forever,
// printing each id once its transaction committed.
const crashWriterEnv = "HISTORY_CRASH_WRITER_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashWriterEnv); path != "" {
		crashWriter(path)
		return
	}
	os.Exit(m.Run())
}

// crashWriter is the child process of TestKilledWriterLeavesIntactDatabase.
func crashWriter(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	sim, err := buildSynthetic(2, 300, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for i := 0; ; i++ {
		id, err := s.SaveRun(ctx, input(sim, SourceLive, t0.Add(time.Duration(i)*time.Second)))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Printf("%d\n", id) // os.Stdout is unbuffered: the parent sees it at once
	}
}

func TestKilledWriterLeavesIntactDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a writer process")
	}
	path := filepath.Join(t.TempDir(), "history.db")
	// The child saves this run (big enough that a kill usually lands inside
	// a transaction) over and over.
	want := syntheticRun(t, 2, 300, nil).tr.Record()
	for attempt := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashWriterEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var committed []RunID
		lines := bufio.NewScanner(out)
		for len(committed) < 4+attempt && lines.Scan() {
			id, err := strconv.ParseInt(lines.Text(), 10, 64)
			if err != nil {
				t.Fatalf("child printed %q", lines.Text())
			}
			committed = append(committed, RunID(id))
		}
		// Let it get into the next transaction, then kill it mid-write.
		time.Sleep(time.Duration(3+attempt*2) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
			t.Fatal(err)
		}
		// Ids printed after the ones we waited for were committed too.
		for lines.Scan() {
			if id, err := strconv.ParseInt(lines.Text(), 10, 64); err == nil {
				committed = append(committed, RunID(id))
			}
		}
		cmd.Wait()
		if len(committed) < 4+attempt {
			t.Fatalf("child committed %d runs before dying: %s", len(committed), stderr.String())
		}

		// The raw file passes the integrity check before Open touches it.
		db, err := sql.Open("sqlite3", dsn(path))
		if err != nil {
			t.Fatal(err)
		}
		var check string
		if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
			t.Fatalf("integrity_check: %q %v", check, err)
		}
		db.Close()

		s, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if s.Recovered != nil {
			t.Fatalf("attempt %d: database moved aside: %s", attempt, s.Recovered.Message())
		}
		for _, id := range committed {
			run, err := s.LoadRun(context.Background(), id)
			if err != nil {
				t.Fatalf("attempt %d: committed run %d: %v", attempt, id, err)
			}
			if !reflect.DeepEqual(run.Trace.Record(), want) {
				t.Fatalf("attempt %d: committed run %d differs", attempt, id)
			}
		}
		s.Close()
	}
}
