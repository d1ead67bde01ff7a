package history

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
)

// TestCompareHookEdit: the same scenario before and after editing one
// hook's text; exactly the calls that see the hook change, by the tokens
// the edit added per copy.
func TestCompareHookEdit(t *testing.T) {
	ctx := context.Background()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	copyDir(t, examplesRoot, root)
	const rel = "file-tools/scenarios/fix-line-limit.yaml"
	const hook = "file-tools/truncated-content-hint"
	before := simulate(t, root, rel)
	mdPath := filepath.Join(root, "file-tools", "hooks", "truncated-content-hint.md")
	old, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	edited := string(old) + "\nAlways read the rest before editing anything."
	if err := os.WriteFile(mdPath, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after := simulate(t, root, rel)

	s := openTemp(t)
	save := func(sim simulated, at time.Time) RunID {
		in := input(sim, SourceApp, at)
		in.Tokens = counter
		id, err := s.SaveRun(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a, b := save(before, t0), save(after, t0.Add(time.Minute))
	cmp, err := s.Compare(ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	perCopy := counter.CountMessage("system", edited) - counter.CountMessage("system", string(old))
	if perCopy <= 0 {
		t.Fatalf("edit adds %d tokens", perCopy)
	}

	// Which calls see the hook, and how many copies, from the trace itself.
	copies := map[int]int{}
	for c := range before.tr.Calls {
		for _, m := range before.tr.CallMessages(c) {
			if m.Skill+"/"+m.Hook == hook {
				copies[c]++
			}
		}
	}
	if len(copies) == 0 || len(copies) == len(before.tr.Calls) {
		t.Fatalf("the hook is seen by %d of %d calls; the test needs some of each", len(copies), len(before.tr.Calls))
	}
	if len(cmp.Calls) != len(before.tr.Calls) {
		t.Fatalf("%d call diffs for %d calls", len(cmp.Calls), len(before.tr.Calls))
	}
	total := 0
	for _, d := range cmp.Calls {
		if d.A == nil || d.B == nil || *d.A != *d.B {
			t.Fatalf("calls not aligned: %+v", d)
		}
		n := copies[*d.A]
		wantStatus := CallSame
		if n > 0 {
			wantStatus = CallChanged
		}
		if d.Status != wantStatus || d.TokenDelta != n*perCopy || len(d.Messages) != n {
			t.Errorf("call %d: status %s delta %d messages %d; want %s %d %d", *d.A, d.Status, d.TokenDelta, len(d.Messages), wantStatus, n*perCopy, n)
		}
		for _, m := range d.Messages {
			if m.Op != MsgChanged || m.Tag != "hook:truncated-content-hint" || m.TokenDelta != perCopy || m.ContentB != edited {
				t.Errorf("call %d: message diff %+v", *d.A, m)
			}
		}
		total += n * perCopy
	}
	if cmp.TokenDelta != total || cmp.ChangedCalls != len(copies) {
		t.Errorf("total delta %d changed %d, want %d %d", cmp.TokenDelta, cmp.ChangedCalls, total, len(copies))
	}

	// A run against itself has no changes.
	self, err := s.Compare(ctx, a, a)
	if err != nil || self.ChangedCalls != 0 || self.TokenDelta != 0 {
		t.Errorf("self comparison: %d changed, delta %d, %v", self.ChangedCalls, self.TokenDelta, err)
	}
}

// TestCompareStructure: calls only in one run, and messages only in one
// list, are added/removed rather than changed.
func TestCompareStructure(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	short := syntheticRun(t, 1, 3, nil)
	long := syntheticRun(t, 1, 5, nil)
	a, err := s.SaveRun(ctx, input(short, SourceCLI, t0))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SaveRun(ctx, input(long, SourceCLI, t0.Add(time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := s.Compare(ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]int{}
	for _, d := range cmp.Calls {
		status[d.Status]++
	}
	// planning and rounds 0-2 receive the same lists (round 2 only answers
	// differently); rounds 3-4 are only in B.
	if status[CallAdded] != 2 || status[CallRemoved] != 0 || status[CallSame] != 4 {
		t.Errorf("statuses %v", status)
	}
	for _, d := range cmp.Calls {
		if d.Status == CallAdded {
			for _, m := range d.Messages {
				if m.Op != MsgAdded {
					t.Errorf("added call has %s message", m.Op)
				}
			}
		}
	}
}
