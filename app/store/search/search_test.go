package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

func TestItems(t *testing.T) {
	got := Items(guardRecord(t))
	type row struct {
		kind                       string
		call, message, step, count int
		hook, event, outcome, tool string
	}
	want := []row{
		{KindMessage, 0, 0, 0, 1, "", "", "", ""},
		{KindMessage, 0, 1, 0, 1, "", "", "", ""},
		// the reminder, injected again before the second call: once, counted twice
		{KindMessage, 0, 2, 0, 2, "rules/reminder", "before_each_agent", "", ""},
		{KindToolCall, 0, -1, 1, 1, "", "", "", "Bash"},
		// the guard's words in the tool's place: received by the next call
		{KindMessage, 1, 4, 3, 1, "./hooks/guard.sh", "PreToolUse:Bash", "blocked", "Bash"},
		{KindHook, 1, 4, 3, 1, "./hooks/guard.sh", "PreToolUse:Bash", "blocked", ""},
		{KindAnswer, 1, -1, 5, 1, "", "", "", ""},
	}
	var rows []row
	for _, it := range got {
		rows = append(rows, row{it.Kind, it.Call, it.Message, it.Step, it.Count, it.Hook, it.Event, it.Outcome, it.Tool})
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("items:\n got %v\nwant %v", rows, want)
	}
	if !strings.Contains(got[4].Context, `rm -rf build`) || !strings.Contains(got[5].Context, `"tool_name":"Bash"`) {
		t.Errorf("a tool result is about its call, a hook about its input: %q, %q", got[4].Context, got[5].Context)
	}
	if got[5].Body != "rm -rf deletes files for good; use git clean -n first" {
		t.Errorf("a hook's words are what it said: %q", got[5].Body)
	}
}

func TestItemsCutAndClean(t *testing.T) {
	rec := guardRecord(t)
	rec.Messages[1].Content = "start \x02fake\x03 " + strings.Repeat("ü", MaxBody) // 2 bytes a rune: cut inside one
	items := Items(rec)
	body := items[1].Body
	if len(body) > MaxBody || strings.ContainsAny(body, markOpen+markClose) || !strings.HasPrefix(body, "start fake ") {
		t.Fatalf("body cut to %d bytes, starting %q", len(body), body[:20])
	}
	if !strings.HasSuffix(body, "ü") {
		t.Error("the cut ends inside a rune")
	}
}

// hitRow is what a test checks of a hit.
type hitRow struct {
	key           string
	kind          string
	call, message int
}

func rowsOf(r Results) []hitRow {
	var out []hitRow
	for _, h := range r.Hits {
		out = append(out, hitRow{h.Key, h.Kind, h.Call, h.Message})
	}
	return out
}

func sortedRows(r Results) []hitRow {
	out := rowsOf(r)
	slices.SortFunc(out, func(a, b hitRow) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
	return out
}

func TestSearch(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	day := time.Date(2026, 11, 26, 10, 0, 0, 0, time.Local)
	if err := ix.Put(ctx, guardDoc(t, 1, day)); err != nil {
		t.Fatal(err)
	}
	// a codex session a day later that read a file: its lines numbered as the tool shows them
	read := engine.ToolCall{ID: "c1", Name: "Read", Arguments: map[string]any{"file_path": "/home/user/other/config.go"}}
	codex := &engine.Record{
		Calls: []engine.LLMCall{{Index: 0, Step: 1, Content: "done", ToolCalls: []engine.ToolCall{read}}},
		Messages: []engine.MessageRecord{
			{Content: "read the config", Role: "user", Origin: engine.OriginUserInput, Removed: -1},
			{Content: "     1→package config\n     2→\n     3→const Limit = 40 // the line limit\n", Role: "tool", Origin: engine.OriginTool, Ref: 0, Removed: -1},
		},
		Steps:     []engine.StepRecord{{Kind: engine.StepBuildMessages, AddFrom: 0, AddTo: 2}, {Kind: engine.StepLLMCall}},
		ToolCalls: []engine.ToolCall{read},
	}
	if err := ix.Put(ctx, Doc{Key: FileKey("/home/user/.codex/sessions/rollout-1.jsonl"), Source: SourceDisk, File: "/home/user/.codex/sessions/rollout-1.jsonl",
		Agent: "codex", Version: "0.171.0", Project: "/home/user/other", Title: "read the config", Started: day.AddDate(0, 0, 1), Sig: "1", Record: codex}); err != nil {
		t.Fatal(err)
	}
	run1, disk := RunKey(1), FileKey("/home/user/.codex/sessions/rollout-1.jsonl")
	for _, tc := range []struct {
		name string
		q    Query
		want []hitRow // in any order
	}{
		{"words", Query{Text: "rm -rf"}, []hitRow{
			{run1, KindAnswer, 1, -1}, {run1, KindHook, 1, 4}, {run1, KindMessage, 1, 4}, {run1, KindToolCall, 0, -1}}},
		{"where did my guard block something", Query{Text: "outcome:blocked"}, []hitRow{{run1, KindHook, 1, 4}, {run1, KindMessage, 1, 4}}},
		{"blocked, and what", Query{Text: "rm", Outcome: "blocked", Kind: KindHook}, []hitRow{{run1, KindHook, 1, 4}}},
		{"hook by a part of its command", Query{Text: "hook:guard event:pretooluse git"}, []hitRow{{run1, KindHook, 1, 4}, {run1, KindMessage, 1, 4}}},
		{"an event by the agent's label", Query{Text: "git", Event: "PreToolUse:Bash"}, []hitRow{{run1, KindHook, 1, 4}, {run1, KindMessage, 1, 4}}},
		{"an event is not a prefix", Query{Text: "git", Event: "PreTool"}, nil},
		{"a prompt hook by its id", Query{Hook: "rules/reminder"}, []hitRow{{run1, KindMessage, 0, 2}}},
		{"phrase", Query{Text: `"build folder"`}, []hitRow{{run1, KindAnswer, 1, -1}, {run1, KindMessage, 0, 1}}},
		{"phrase in another order", Query{Text: `"folder build"`}, nil},
		{"prefix", Query{Text: "delet*"}, []hitRow{{run1, KindAnswer, 1, -1}, {run1, KindMessage, 0, 2}, {run1, KindMessage, 1, 4}, {run1, KindHook, 1, 4}}},
		{"OR", Query{Text: "careful OR config"}, []hitRow{{run1, KindMessage, 0, 0}, {disk, KindMessage, 0, 0}, {disk, KindMessage, 0, 1}, {disk, KindToolCall, 0, -1}}},
		{"NOT", Query{Text: "rm NOT guard"}, []hitRow{{run1, KindToolCall, 0, -1}}},
		{"what a tool result is about", Query{Text: "config.go"}, []hitRow{{disk, KindMessage, 0, 1}, {disk, KindToolCall, 0, -1}}},
		{"a file's text pasted: a phrase a line", Query{Text: "package config\nconst Limit = 40 // the line limit"}, []hitRow{{disk, KindMessage, 0, 1}}},
		{"pasted lines not in it", Query{Text: "package config\nconst Limit = 41"}, nil},
		{"agent", Query{Text: "the agent:codex"}, []hitRow{{disk, KindMessage, 0, 1}, {disk, KindMessage, 0, 0}}},
		{"agent, any case", Query{Text: "config", Agent: "Codex"}, []hitRow{{disk, KindMessage, 0, 0}, {disk, KindMessage, 0, 1}, {disk, KindToolCall, 0, -1}}},
		{"project and the folders in it", Query{Text: "careful project:/home/user"}, []hitRow{{run1, KindMessage, 0, 0}}},
		{"project is a folder, not a prefix", Query{Text: "careful project:/home/us"}, nil},
		{"source", Query{Text: "source:disk"}, []hitRow{{disk, KindMessage, 0, 0}, {disk, KindMessage, 0, 1}, {disk, KindToolCall, 0, -1}, {disk, KindAnswer, 0, -1}}},
		{"since", Query{Text: "config since:" + day.AddDate(0, 0, 1).Format("2006-01-02")}, []hitRow{{disk, KindMessage, 0, 0}, {disk, KindMessage, 0, 1}, {disk, KindToolCall, 0, -1}}},
		{"until a day includes it", Query{Text: "careful until:" + day.Format("2006-01-02")}, []hitRow{{run1, KindMessage, 0, 0}}},
		{"until the day before", Query{Text: "careful until:" + day.AddDate(0, 0, -1).Format("2006-01-02")}, nil},
		{"punctuation only is no word", Query{Text: "careful &&"}, []hitRow{{run1, KindMessage, 0, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ix.Search(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(tc.want)
			slices.SortFunc(want, func(a, b hitRow) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
			if got := sortedRows(res); !slices.Equal(got, want) {
				t.Errorf("hits:\n got %v\nwant %v", got, want)
			}
			if res.Total != len(tc.want) || res.More {
				t.Errorf("total %d (more %v), want %d", res.Total, res.More, len(tc.want))
			}
		})
	}
}

func TestSearchRanksAndMarks(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	if err := ix.Put(ctx, guardDoc(t, 1, time.Now())); err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(ctx, Query{Text: "guard forbids"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 {
		t.Fatalf("hits %v", rowsOf(res))
	}
	h := res.Hits[0]
	if h.Rank >= 0 || h.Agent != "claude-code" || h.Project != "/home/user/project" || h.Title != "clean the build folder" || h.Run != 1 {
		t.Errorf("hit %+v", h)
	}
	var marked []string
	text := ""
	for _, s := range h.Snippet {
		text += s.Text
		if s.Hit {
			marked = append(marked, s.Text)
		}
	}
	if !slices.Equal(marked, []string{"guard forbids"}) || text != "I will not delete the build folder: the guard forbids rm -rf." {
		t.Errorf("snippet %q, marked %q", text, marked)
	}
	// the words weigh more than what they are about: the hook whose
	// command only says guard.sh ranks last
	res, err = ix.Search(ctx, Query{Text: "guard"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 3 || res.Hits[2].Kind != KindHook {
		t.Errorf("ranked %v", rowsOf(res))
	}
	for i := 1; i < len(res.Hits); i++ {
		if res.Hits[i].Rank < res.Hits[i-1].Rank {
			t.Errorf("hit %d ranks %f before %f", i, res.Hits[i-1].Rank, res.Hits[i].Rank)
		}
	}
}

func TestSearchPages(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 25 {
		if err := ix.Put(ctx, guardDoc(t, int64(i+1), t0.Add(time.Duration(i)*time.Hour))); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, off := range []int{0, 10, 20} {
		res, err := ix.Search(ctx, Query{Text: "forbids", Limit: 10, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		want := min(10, 25-off)
		if len(res.Hits) != want || res.Total != 25 || res.Offset != off || res.Limit != 10 {
			t.Fatalf("page at %d: %d hits of %d", off, len(res.Hits), res.Total)
		}
		for _, h := range res.Hits {
			if seen[h.Key] {
				t.Errorf("%s on two pages", h.Key)
			}
			seen[h.Key] = true
		}
		// equal ranks: newest first
		for i := 1; i < len(res.Hits); i++ {
			if res.Hits[i].Started.After(res.Hits[i-1].Started) {
				t.Errorf("page at %d: %s before %s", off, res.Hits[i-1].Key, res.Hits[i].Key)
			}
		}
	}
	// filters only: newest first too
	res, err := ix.Search(ctx, Query{Outcome: "blocked", Kind: KindHook, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{res.Hits[0].Key, res.Hits[1].Key, res.Hits[2].Key}; !slices.Equal(got, []string{RunKey(25), RunKey(24), RunKey(23)}) || res.Total != 25 {
		t.Errorf("newest blocks: %v of %d", got, res.Total)
	}
	if s := res.Hits[0].Snippet; len(s) != 1 || s[0].Hit || !strings.HasPrefix(s[0].Text, "rm -rf deletes") {
		t.Errorf("a hit without words shows their start: %+v", s)
	}
}

func TestSearchProblems(t *testing.T) {
	ix := openTemp(t)
	for _, tc := range []struct {
		q    Query
		says []string // each problem is named
	}{
		{Query{}, []string{"type words"}},
		{Query{Text: "&& ||"}, []string{"type words"}},
		{Query{Text: "OR rm"}, []string{"OR stands between"}},
		{Query{Text: "rm OR"}, []string{"OR stands between"}},
		{Query{Text: "NOT rm"}, []string{"say what to find"}},
		{Query{Text: "since:yesterday until:2026-13-01 kind:file rm"}, []string{"since:yesterday", "until:2026-13-01", `kind "file"`}},
		{Query{Text: "agent:codex rm", Agent: "claude-code"}, []string{`"claude-code" in the filters and "codex"`}},
		{Query{Text: "hook: rm"}, []string{"hook: needs a value"}},
		{Query{Source: "disc", Text: "rm"}, []string{`source "disc"`}},
	} {
		_, err := ix.Search(context.Background(), tc.q)
		if !errors.Is(err, ErrQuery) {
			t.Errorf("%+v: %v, want ErrQuery", tc.q, err)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%+v: %q does not say %q", tc.q, err, s)
			}
		}
	}
}

func TestPutStandsInAndRemoves(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	d := guardDoc(t, 7, time.Now())
	for range 3 {
		if err := ix.Put(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ix.Search(ctx, Query{Text: "forbids"})
	if err != nil || res.Total != 1 {
		t.Fatalf("indexed three times: %d hits, %v", res.Total, err)
	}
	// the run kept again with other words
	d.Record.Calls[1].Content = "Nothing to clean."
	d.Sig = "2"
	if err := ix.Put(ctx, d); err != nil {
		t.Fatal(err)
	}
	if res, _ := ix.Search(ctx, Query{Text: "forbids"}); res.Total != 0 {
		t.Errorf("old words still found: %v", rowsOf(res))
	}
	if res, _ := ix.Search(ctx, Query{Text: "nothing"}); res.Total != 1 {
		t.Errorf("new words not found: %v", rowsOf(res))
	}
	if err := ix.Remove(ctx, d.Key); err != nil {
		t.Fatal(err)
	}
	var items, fts int
	ix.db.QueryRow(`SELECT count(*) FROM items`).Scan(&items)
	ix.db.QueryRow(`SELECT count(*) FROM fts`).Scan(&fts)
	if items != 0 || fts != 0 {
		t.Errorf("removed, but %d items and %d texts stay", items, fts)
	}
	if got, _ := ix.Indexed(ctx); len(got) != 0 {
		t.Errorf("indexed: %v", got)
	}
}

// TestSnippetOfALongText: a match far into a long tool output is shown
// with its words marked, not the output's start.
func TestSnippetOfALongText(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	d := guardDoc(t, 1, time.Now())
	d.Record.ToolCalls[0].Result = strings.Repeat("filler words of a long listing\n", 8000) + "the needle is here\n" + strings.Repeat("more filler\n", 100)
	d.Record.Messages[4].Content = d.Record.ToolCalls[0].Result
	if err := ix.Put(ctx, d); err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(ctx, Query{Text: "needle"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("%v %v", rowsOf(res), err)
	}
	var marked []string
	for _, s := range res.Hits[0].Snippet {
		if s.Hit {
			marked = append(marked, s.Text)
		}
	}
	if !slices.Equal(marked, []string{"needle"}) {
		t.Errorf("snippet %+v", res.Hits[0].Snippet)
	}
	var texts int
	ix.db.QueryRow(`SELECT count(*) FROM texts`).Scan(&texts)
	if err := ix.Remove(ctx, d.Key); err != nil {
		t.Fatal(err)
	}
	var after int
	ix.db.QueryRow(`SELECT count(*) FROM texts`).Scan(&after)
	if texts == 0 || after != 0 {
		t.Errorf("texts %d, after removing %d", texts, after)
	}
}

// TestSearchRanksTheNewestOfAWordFoundEverywhere: a word in more places
// than RankCap is ranked among its newest RankCap places, counted
// "RankCap+"; runs started at the same moment are both kept.
func TestSearchRanksTheNewestOfAWordFoundEverywhere(t *testing.T) {
	ctx := context.Background()
	ix := openTemp(t)
	ix.rankCap = 5
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	// run 1, the oldest, says forbids twice: the best match of all
	old := guardDoc(t, 1, t0)
	old.Record.Calls[1].Content = "forbids, forbids: the guard forbids it"
	if err := ix.Put(ctx, old); err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 8; i++ {
		// two runs a moment
		if err := ix.Put(ctx, guardDoc(t, int64(i), t0.Add(time.Duration(i/2)*time.Hour))); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ix.Search(ctx, Query{Text: "forbids"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 5 || !res.More || len(res.Hits) != 5 {
		t.Fatalf("total %d more %v, %d hits", res.Total, res.More, len(res.Hits))
	}
	for _, h := range res.Hits {
		if h.Key == RunKey(1) || h.Key == RunKey(2) || h.Key == RunKey(3) {
			t.Errorf("%s is not among the newest five", h.Key)
		}
	}
	// narrowed, the oldest is ranked again, first
	res, err = ix.Search(ctx, Query{Text: "forbids", Until: t0.Add(time.Minute)})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Key != RunKey(1) || res.More {
		t.Errorf("narrowed: %v %v", rowsOf(res), err)
	}
	if got, _ := ix.Indexed(ctx); len(got) != 8 {
		t.Errorf("indexed %d runs, want 8", len(got))
	}
}

func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Segment
	}{
		{"plain", []Segment{{Text: "plain"}}},
		{"a \x02b\x03 c", []Segment{{Text: "a "}, {Text: "b", Hit: true}, {Text: " c"}}},
		{"\x02rm\x03 -\x02rf\x03 build", []Segment{{Text: "rm -rf", Hit: true}, {Text: " build"}}},
		{"\x02guard\x03 \x02forbids\x03", []Segment{{Text: "guard forbids", Hit: true}}},
		{"\x02a\x03 and \x02b\x03", []Segment{{Text: "a", Hit: true}, {Text: " and "}, {Text: "b", Hit: true}}},
		{"…end \x02cut", []Segment{{Text: "…end "}, {Text: "cut", Hit: true}}},
		{"", []Segment{}},
	} {
		if got := segments(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("segments(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestPastedTextIsAPhraseALine: a pasted text's lines are phrases, the
// first 64 of them.
func TestPastedTextIsAPhraseALine(t *testing.T) {
	var lines []string
	for i := range 100 {
		lines = append(lines, fmt.Sprintf("line %d of the file", i))
	}
	q := Query{Text: strings.Join(lines, "\n") + "\n\n   \n"}
	p, err := parse(&q)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.terms) != maxLines || p.terms[0].text != "line 0 of the file" || p.terms[63].text != "line 63 of the file" {
		t.Fatalf("%d terms, first %q", len(p.terms), p.terms[0].text)
	}
	if m := p.match(); !strings.HasPrefix(m, `"line 0 of the file" AND "line 1 of the file" AND`) {
		t.Errorf("match %s", m[:80])
	}
}
