package studio

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/history"
)

// pagedHooks are prompt hooks at every timing, persistent ones among them,
// one filtered to a tool.
type pagedHooks struct{}

func (pagedHooks) Hooks([]string) []skills.Hook {
	return []skills.Hook{
		{Skill: "a", Name: "first", File: "first.md", Timing: skills.AfterUserInput, Role: "system", Content: "Read the rules first."},
		{Skill: "a", Name: "plan", File: "plan.md", Timing: skills.BeforePlanning, Role: "user", Content: "Plan in three steps."},
		{Skill: "b", Name: "each", File: "each.md", Timing: skills.BeforeEachAgent, Role: "system", Content: "Mind the budget.", Persistent: true},
		{Skill: "b", Name: "once", File: "once.md", Timing: skills.BeforeFirstAgent, Role: "system", Content: "Start small."},
		{Skill: "b", Name: "after", File: "after.md", Timing: skills.AfterToolCall, Role: "system", Content: "The output may be cut.", ToolFilter: []string{"read_file"}},
	}
}

const pagedScenario = `name: paged
tools: [{name: read_file, description: Read a file}, {name: grep, description: Search}]
requests:
  - user: read it
    planning: {need_tool: true, content: reading}
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a}, result: "alpha"}, {name: grep, arguments: {q: x}, result: "no match"}]
      - tool_calls: [{name: read_file, arguments: {path: b}, result: "beta"}]
      - content: done
  - user: and again
    planning: {need_tool: true, content: again}
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: c}, result: "gamma"}]
      - content: done again
`

// pagedRuns are runs of every shape the views show, kept in a history: a
// simulated run with prompt hooks, one with executable hooks (hidden and
// moved messages, restores), and real agents' sessions.
func pagedRuns(t *testing.T, st *history.Store, tc TokenCounter, defer_ bool) map[string]history.RunID {
	t.Helper()
	ctx := context.Background()
	out := map[string]history.RunID{}
	save := func(name string, tr *engine.Trace, source history.Source, si *history.SessionInfo) {
		id, err := st.SaveRun(ctx, history.RunInput{Trace: tr, ScenarioFile: name + ".yaml", Source: source, Tokens: tc, DeferTokens: defer_,
			Started: time.Unix(1, 0), Ended: time.Unix(2, 0), Session: si})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = id
	}
	sc, ds := scenario.Parse("paged.yaml", []byte(pagedScenario))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	tr, err := engine.Run(ctx, sc, pagedHooks{}, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	save("prompt", tr, history.SourceCLI, nil)

	sc, _ = scenario.Parse("demo.yaml", []byte("name: demo\nsystem_prompt: You are careful.\n"+scenarioYAML[len("name: demo\n"):]))
	tr, err = engine.Run(ctx, sc, pagedHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{&richSet{}}})
	if err != nil {
		t.Fatal(err)
	}
	save("exec", tr, history.SourceApp, nil)

	for _, f := range []string{"claude-code-2.1.332.jsonl", "claude-code-2.1.197.jsonl", "codex-0.171.0.jsonl"} {
		im, err := sessions.ImportFile(ctx, filepath.Join("..", "..", "capture", "sessions", "testdata", f), sessions.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := im.Trace()
		if err != nil {
			t.Fatal(err)
		}
		s := im.Session()
		save(f, tr, history.SourceSession, &history.SessionInfo{Agent: string(s.Agent), Version: s.Version, File: f, ID: s.ID})
	}
	return out
}

func openPaged(t *testing.T, st *history.Store, id history.RunID, tc TokenCounter) (*Pages, TraceView) {
	t.Helper()
	ctx := context.Background()
	run, err := st.LoadRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	origin := RunOrigin{Simulated: run.Source.Simulated()}
	if run.Session != nil {
		origin.Agent = run.Session.Agent
	}
	want := RunView(run.Trace, run.ScenarioFile, tc, origin)
	sk, err := st.LoadSkeleton(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := OpenPages(sk, st, tc, origin)
	if err != nil {
		t.Fatal(err)
	}
	return p, want
}

// TestPagesShowWhatTheWholeViewShows: every page of a stored run — steps
// with their nodes, calls, the list at every step with its figures, every
// message, the matrix — is what the whole view (RunView) of the same run
// holds, for each shape of run.
func TestPagesShowWhatTheWholeViewShows(t *testing.T) {
	ctx := context.Background()
	tc := counter(t)
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for name, id := range pagedRuns(t, st, tc, false) {
		t.Run(name, func(t *testing.T) {
			p, want := openPaged(t, st, id, tc)
			checkPages(t, p, want)
		})
	}
}

func checkPages(t *testing.T, p *Pages, want TraceView) {
	t.Helper()
	ctx := context.Background()
	h := p.Head()
	if h.Steps != len(want.Steps) || h.Calls != len(want.Calls) || h.Messages != len(want.Messages) || h.Tokens.Pending != 0 {
		t.Fatalf("head: %d steps %d calls %d messages (pending %d), want %d %d %d", h.Steps, h.Calls, h.Messages, h.Tokens.Pending,
			len(want.Steps), len(want.Calls), len(want.Messages))
	}
	if h.Loop.ID != want.Flow.Loop.ID || h.Why != want.Flow.Why {
		t.Errorf("loop %s (%s), want %s (%s)", h.Loop.ID, h.Why, want.Flow.Loop.ID, want.Flow.Why)
	}
	if !slices.Equal(h.Matrix.Hooks, want.Matrix.Hooks) || !slices.Equal(h.Matrix.Systems, want.Matrix.Systems) || !slices.Equal(h.Matrix.Totals, want.Matrix.Totals) {
		t.Errorf("matrix rows %q %q %v, want %q %q %v", h.Matrix.Hooks, h.Matrix.Systems, h.Matrix.Totals, want.Matrix.Hooks, want.Matrix.Systems, want.Matrix.Totals)
	}
	for r := range want.Matrix.Hooks {
		seen := 0
		for _, n := range want.Matrix.Copies[r] {
			if n > 0 {
				seen++
			}
		}
		if r < len(h.Matrix.Seen) && h.Matrix.Seen[r] != seen {
			t.Errorf("row %s seen by %d calls, want %d", want.Matrix.Hooks[r], h.Matrix.Seen[r], seen)
		}
	}
	cells := p.Cells(0, len(want.Matrix.Hooks), 0, len(want.Calls))
	if len(want.Matrix.Hooks) > 0 && (!reflect.DeepEqual(cells.Copies, want.Matrix.Copies) || !reflect.DeepEqual(cells.Tokens, want.Matrix.Tokens)) {
		t.Errorf("cells %v %v, want %v %v", cells.Copies, cells.Tokens, want.Matrix.Copies, want.Matrix.Tokens)
	}
	// a window of the matrix is that window of the cells
	if len(want.Matrix.Hooks) > 0 && len(want.Calls) > 2 {
		w := p.Cells(len(want.Matrix.Hooks)-1, 5, 1, 2)
		if w.Hook != len(want.Matrix.Hooks)-1 || w.Call != 1 || !slices.Equal(w.Copies[0], want.Matrix.Copies[w.Hook][1:3]) {
			t.Errorf("window %+v, want row %d calls 1..2 of %v", w, w.Hook, want.Matrix.Copies[w.Hook])
		}
	}

	steps := p.Steps(0, len(want.Steps)+10)
	if len(steps) != len(want.Steps) {
		t.Fatalf("%d steps, want %d", len(steps), len(want.Steps))
	}
	for i, s := range steps {
		if !reflect.DeepEqual(s.Step, want.Steps[i]) || s.Node != want.Flow.Steps[i] {
			t.Fatalf("step %d: %+v at node %d, want %+v at node %d", i, s.Step, s.Node, want.Steps[i], want.Flow.Steps[i])
		}
	}
	calls, err := p.Calls(ctx, 0, len(want.Calls))
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := make([]Call, len(want.Calls))
	for i, c := range want.Calls {
		c.ToolCalls = withoutResults(c.ToolCalls)
		wantCalls[i] = c
	}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls differ:\n%+v\nwant\n%+v", calls, wantCalls)
	}
	// a row is the whole view's message, its text cut to a preview, its tool calls without results
	byID := func(id int) Message {
		m := want.Messages[id]
		m.ToolCalls = withoutResults(m.ToolCalls)
		if len(m.Content) > Preview {
			m.Size, m.Lines = len(m.Content), strings.Count(m.Content, "\n")+1
			m.Content = m.Content[:Preview]
		}
		return m
	}
	for id, m := range want.Messages {
		if text, err := p.Text(ctx, id); err != nil || text != m.Content {
			t.Fatalf("message %d's text: %.40q, %v; want %.40q", id, text, err, m.Content)
		}
	}
	for i := range want.Steps {
		l := p.List(i)
		rows, err := p.Rows(ctx, i, 0, l.Rows)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != l.Rows {
			t.Fatalf("step %d: %d rows of %d", i, len(rows), l.Rows)
		}
		var live []int
		tokens := 0
		for k, r := range rows {
			// a search's hit finds its row
			if at := p.RowOf(i, r.Message.ID); at != k {
				t.Fatalf("step %d: message %d at row %d, RowOf says %d", i, r.Message.ID, k, at)
			}
			if !reflect.DeepEqual(r.Message, byID(r.Message.ID)) {
				t.Fatalf("step %d: message %+v, want %+v", i, r.Message, byID(r.Message.ID))
			}
			if !r.RemovedHere {
				live = append(live, r.Message.ID)
				tokens += r.Message.Tokens
				if r.Injected != (r.Message.Created == i || slices.ContainsFunc(r.Message.Hidden, func(sp [2]int) bool { return sp[1] == i })) {
					t.Errorf("step %d: message %d injected %v", i, r.Message.ID, r.Injected)
				}
			} else if gone := r.Message.Removed != nil && *r.Message.Removed == i ||
				slices.ContainsFunc(r.Message.Hidden, func(sp [2]int) bool { return sp[0] == i }); !gone {
				t.Errorf("step %d: message %d shown as removed here", i, r.Message.ID)
			}
		}
		if p.RowOf(i, -1) != -1 || p.RowOf(i, len(want.Messages)) != -1 {
			t.Errorf("step %d: RowOf finds a message that is not there", i)
		}
		wantIDs := idsAt(want, i)
		if !slices.Equal(live, wantIDs) || l.Live != len(wantIDs) || l.Tokens != tokens {
			t.Fatalf("step %d: list %v (%d, %d tokens), want %v", i, live, l.Live, l.Tokens, wantIDs)
		}
		if call := want.Steps[i].Call; want.Steps[i].Kind == engine.StepLLMCall && call != nil && l.Tokens != want.Calls[*call].Tokens {
			t.Errorf("call %d: %d tokens in the list, the call says %d", *call, l.Tokens, want.Calls[*call].Tokens)
		}
		// a page of the rows is that part of them
		if l.Rows > 2 {
			page, err := p.Rows(ctx, i, 1, 1)
			if err != nil || len(page) != 1 || page[0].Message.ID != rows[1].Message.ID {
				t.Fatalf("step %d: rows[1:2] = %+v, %v", i, page, err)
			}
		}
	}
	// the chart's bars cover every call once, each its span's largest prompt
	bars := p.Bars(3)
	next := 0
	for _, b := range bars {
		if b.First != next || b.Max != want.Calls[b.MaxCall].Tokens || b.MaxStep != want.Calls[b.MaxCall].Step {
			t.Fatalf("bars %+v", bars)
		}
		for c := b.First; c <= b.Last; c++ {
			if want.Calls[c].Tokens > b.Max {
				t.Fatalf("bar %+v under call %d's %d tokens", b, c, want.Calls[c].Tokens)
			}
		}
		next = b.Last + 1
	}
	if next != len(want.Calls) {
		t.Fatalf("bars %+v end at %d of %d calls", bars, next, len(want.Calls))
	}
}

// idsAt is the list at step i as the frontend rebuilds it from a whole view
// (lib/api/messages.ts messagesAt).
func idsAt(v TraceView, i int) []int {
	req := v.Steps[i].Request
	var out []Message
	for _, m := range v.Messages {
		if m.Request != req || m.Created > i || m.Removed != nil && *m.Removed <= i {
			continue
		}
		if slices.ContainsFunc(m.Hidden, func(sp [2]int) bool { return sp[0] <= i && (sp[1] < 0 || sp[1] > i) }) {
			continue
		}
		out = append(out, m)
	}
	place := func(m Message) float64 {
		if m.Pos != nil {
			return *m.Pos
		}
		return float64(m.ID)
	}
	slices.SortStableFunc(out, func(a, b Message) int {
		if pa, pb := place(a), place(b); pa != pb {
			if pa < pb {
				return -1
			}
			return 1
		}
		return a.ID - b.ID
	})
	ids := make([]int, len(out))
	for k, m := range out {
		ids[k] = m.ID
	}
	return ids
}

// TestPagesWhileCounting: a run kept before its texts are counted opens at
// once with its messages marked pending and figures counting the rest;
// each count that arrives moves them, and once all are in they are the
// figures of a run counted before it was kept.
func TestPagesWhileCounting(t *testing.T) {
	ctx := context.Background()
	tc := counter(t)
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id := pagedRuns(t, st, tc, true)["claude-code-2.1.332.jsonl"]
	p, _ := openPaged(t, st, id, tc)
	h := p.Head()
	if h.Tokens.Pending == 0 {
		t.Fatal("a run kept with deferred counts is not pending")
	}
	rows, err := p.Rows(ctx, h.Steps-1, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if !r.Message.Pending || r.Message.Tokens != 0 {
			t.Fatalf("message %d counted before its text was: %+v", r.Message.ID, r.Message)
		}
	}
	if l := p.List(h.Steps - 1); l.Pending == 0 || l.Tokens != 0 {
		t.Fatalf("list at the end %+v", l)
	}
	// the counts arrive in two batches, as the background count keeps them
	var counts []history.TextCount
	if _, err := st.PendingTexts(ctx, id, func(b history.TextID, text string) error {
		counts = append(counts, history.TextCount{Text: b, Tokens: tc.(history.ContentCounter).Count(text)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	half := len(counts) / 2
	p.Counted(counts[:half], len(counts)-half)
	mid := p.List(h.Steps - 1)
	if mid.Pending == 0 || mid.Tokens == 0 {
		t.Fatalf("half counted: %+v", mid)
	}
	ids := []int{}
	for _, r := range rows {
		ids = append(ids, r.Message.ID)
	}
	half0 := p.MessageTokens(ids)
	p.Counted(counts[half:], 0)
	for k, m := range p.MessageTokens(ids) {
		if m.Pending || m.ID != ids[k] || m.Tokens != tc.CountMessage(rows[k].Message.Role, texts(t, st, p, ids[k])) {
			t.Fatalf("message %d once counted: %+v (half-way %+v)", ids[k], m, half0[k])
		}
	}
	if err := st.KeepCounts(ctx, counts); err != nil {
		t.Fatal(err)
	}
	if err := st.SettleTokens(ctx, id, tc.(history.ContentCounter)); err != nil {
		t.Fatal(err)
	}
	// the figures now are a whole view's of the settled run, and so are the
	// pages of the run opened again
	_, want := openPaged(t, st, id, tc)
	if p.Head().Tokens.Pending != 0 {
		t.Fatal("still pending")
	}
	checkPages(t, p, want)
	again, _ := openPaged(t, st, id, tc)
	checkPages(t, again, want)
}

// texts is message id's text as the history holds it.
func texts(t *testing.T, st *history.Store, p *Pages, id int) string {
	t.Helper()
	got, err := st.Texts(context.Background(), []history.TextID{p.refs.Messages[id]})
	if err != nil {
		t.Fatal(err)
	}
	return got[p.refs.Messages[id]]
}

func withoutResults(tcs []engine.ToolCall) []engine.ToolCall {
	if tcs == nil {
		return nil
	}
	out := slices.Clone(tcs)
	for i := range out {
		out[i].Result = ""
	}
	return out
}

// TestRowsCarryAPreviewOfALongText: a tool's 24 KB output is a row of its
// first Preview bytes, cut on a rune, with its size and lines; Text reads
// it whole.
func TestRowsCarryAPreviewOfALongText(t *testing.T) {
	ctx := context.Background()
	tc := counter(t)
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	long := strings.Repeat("é line of output\n", 2000) // a 2-byte rune across the cut
	sc, _ := scenario.Parse("long.yaml", []byte("name: long\ntools: [{name: cat, description: c}]\nrequests:\n  - user: read\n    rounds:\n      - tool_calls: [{name: cat, arguments: {}, result: "+strconv.Quote(long)+"}]\n      - content: done\n"))
	tr, err := engine.Run(ctx, sc, pagedHooks{}, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.SaveRun(ctx, history.RunInput{Trace: tr, ScenarioFile: "long.yaml", Tokens: tc})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := openPaged(t, st, id, tc)
	last := p.Head().Steps - 1
	rows, err := p.Rows(ctx, last, 0, p.List(last).Rows)
	if err != nil {
		t.Fatal(err)
	}
	var tool *Message
	for i := range rows {
		if rows[i].Message.Origin == engine.OriginTool {
			tool = &rows[i].Message
		}
	}
	if tool == nil {
		t.Fatal("no tool message at the end")
	}
	if tool.Size != len(long) || tool.Lines != 2001 || len(tool.Content) > Preview || !utf8.ValidString(tool.Content) || !strings.HasPrefix(long, tool.Content) {
		t.Fatalf("preview: %d bytes of %d (%d lines), valid %v", len(tool.Content), tool.Size, tool.Lines, utf8.ValidString(tool.Content))
	}
	if text, err := p.Text(ctx, tool.ID); err != nil || text != long {
		t.Fatalf("whole text: %d bytes, %v", len(text), err)
	}
}
