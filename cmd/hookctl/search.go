package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/search"
)

// sessionsSearch finds words across every run of the history and every
// session on disk: it brings the index up to date first (what is new or
// changed), then prints a page of hits, best first.
func sessionsSearch(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions search", flag.ContinueOnError)
	var q search.Query
	fs.StringVar(&q.Agent, "agent", "", "only this agent's runs and sessions (claude-code, codex, …)")
	fs.StringVar(&q.Project, "project", "", "only sessions run in this folder (or one inside it)")
	fs.StringVar(&q.Hook, "hook", "", "only what this hook said or wrote (any part of its name or command)")
	fs.StringVar(&q.Event, "event", "", "only hooks of this event (PreToolUse, before_each_agent, …)")
	fs.StringVar(&q.Outcome, "outcome", "", "only hooks that ended so (blocked, denied, error, …)")
	fs.StringVar(&q.Source, "source", "", "only runs of this source: cli, app, live, capture, session, or disk (sessions not imported)")
	fs.StringVar(&q.Kind, "kind", "", "only this kind of hit: message, answer, tool_call, hook")
	since := fs.String("since", "", "only runs and sessions started on or after DATE (YYYY-MM-DD)")
	until := fs.String("until", "", "only runs and sessions started on or before DATE (YYYY-MM-DD)")
	file := fs.String("file", "", "find where FILE's text reached a model (each line a phrase)")
	fs.IntVar(&q.Limit, "limit", search.DefaultLimit, "hits a page")
	fs.IntVar(&q.Offset, "offset", 0, "skip this many hits (the next page: --offset LIMIT)")
	asJSON := fs.Bool("json", false, "print the hits as JSON")
	noIndex := fs.Bool("no-index", false, "search what is indexed, without indexing what is new first")
	db := fs.String("db", "", "history database (default: history.db in the app's data folder)")
	indexPath := fs.String("index", "", "search index (default: search.db in the app's data folder)")
	locs := locationFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	q.Text = strings.Join(pos, " ")
	if q.Project != "" {
		if q.Project, err = filepath.Abs(q.Project); err != nil {
			return 0, err
		}
	}
	if *file != "" {
		data, err := os.ReadFile(*file)
		if err != nil {
			return 0, err
		}
		// a text of lines: each line a phrase, even a one-line file
		q.Text = strings.TrimSpace(q.Text + "\n" + string(data) + "\n")
		if !strings.Contains(q.Text, "\n") {
			q.Text += "\n"
		}
	}
	for _, d := range []struct {
		flag, val string
		to        *time.Time
		days      int
	}{{"since", *since, &q.Since, 0}, {"until", *until, &q.Until, 1}} {
		if d.val == "" {
			continue
		}
		t, err := time.ParseInLocation("2006-01-02", d.val, time.Local)
		if err != nil {
			return 0, fmt.Errorf("%w: --%s %q is not a date (YYYY-MM-DD)", errUsage, d.flag, d.val)
		}
		*d.to = t.AddDate(0, 0, d.days)
	}
	ix, err := openSearchIndex(ctx, *indexPath, stderr)
	if err != nil {
		return 0, err
	}
	defer ix.Close()
	if !*noIndex {
		store, err := openHistory(ctx, *db, stderr)
		if err != nil {
			return 0, err
		}
		defer store.Close()
		err = search.Sync(ctx, ix, sessions.SearchSources(store, locs, sessions.Options{Profiles: dataProfiles()}), syncPrinter(stderr))
		if errors.Is(err, search.ErrSourceUnreadable) {
			fmt.Fprintf(stderr, "hookctl: warning: %v\n", err)
		} else if err != nil {
			return 0, err
		}
	}
	res, err := ix.Search(ctx, q)
	if errors.Is(err, search.ErrQuery) {
		return 0, fmt.Errorf("%w: %w", errUsage, err)
	}
	if err != nil {
		return 0, err
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, res)
	}
	printHits(stdout, res)
	return exitOK, nil
}

// openSearchIndex opens the index at path (default: in the data folder),
// saying when a damaged one was started again.
func openSearchIndex(ctx context.Context, path string, stderr io.Writer) (*search.Index, error) {
	if path == "" {
		dir, err := studio.DefaultDataDir()
		if err != nil {
			return nil, err
		}
		path = search.DefaultPath(dir)
	}
	ix, err := search.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if ix.Rebuilt != "" {
		fmt.Fprintf(stderr, "hookctl: note: the search index is built again (%s)\n", ix.Rebuilt)
	}
	return ix, nil
}

// syncPrinter tells stderr how far indexing is, when there is much to do:
// a line when it starts, then about every tenth.
func syncPrinter(stderr io.Writer) func(search.Progress) {
	next := 0
	return func(p search.Progress) {
		if p.Total < 20 || !p.Running || p.Done < next {
			return
		}
		fmt.Fprintf(stderr, "hookctl: indexing %d of %d (new or changed since the last search)\n", p.Done+1, p.Total)
		next = p.Done + max(p.Total/10, 1)
	}
}

// printHits writes a page of hits: where each is, then its snippet with
// the matched words in «».
func printHits(w io.Writer, res search.Results) {
	if len(res.Hits) == 0 {
		fmt.Fprintln(w, "no hits")
		return
	}
	for _, h := range res.Hits {
		fmt.Fprintln(w, hitWhere(h))
		fmt.Fprintln(w, "  "+hitWhat(h))
		var b strings.Builder
		for _, s := range h.Snippet {
			if s.Hit {
				b.WriteString("«" + s.Text + "»")
			} else {
				b.WriteString(s.Text)
			}
		}
		fmt.Fprintln(w, "  "+strings.Join(strings.Fields(b.String()), " "))
		fmt.Fprintln(w)
	}
	total := fmt.Sprint(res.Total)
	if res.More {
		total += "+"
	}
	fmt.Fprintf(w, "hits %d–%d of %s", res.Offset+1, res.Offset+len(res.Hits), total)
	if res.Offset+len(res.Hits) < res.Total || res.More {
		fmt.Fprintf(w, " (the next: --offset %d)", res.Offset+len(res.Hits))
	}
	fmt.Fprintln(w)
}

// hitWhere is the run or session a hit is in.
func hitWhere(h search.Hit) string {
	var parts []string
	if h.Run != 0 {
		parts = append(parts, fmt.Sprintf("run %d", h.Run))
	} else {
		parts = append(parts, "session "+h.File+" (not imported)")
	}
	if h.Agent != "" {
		parts = append(parts, sessions.Backend(sessions.Session{Agent: sessions.Agent(h.Agent), Version: h.Version}))
	}
	if h.Source != "" && h.Source != search.SourceDisk {
		parts = append(parts, h.Source)
	}
	if h.Project != "" {
		parts = append(parts, h.Project)
	}
	if !h.Started.IsZero() {
		parts = append(parts, h.Started.Local().Format("2006-01-02 15:04"))
	}
	if h.Title != "" {
		parts = append(parts, fmt.Sprintf("%q", cutText(h.Title, 60)))
	}
	return strings.Join(parts, " · ")
}

// hitWhat is where in the run a hit is and what it is.
func hitWhat(h search.Hit) string {
	var parts []string
	if h.Call >= 0 {
		parts = append(parts, fmt.Sprintf("call %d", h.Call+1))
	}
	if h.Message >= 0 {
		parts = append(parts, fmt.Sprintf("message %d", h.Message))
	}
	what := h.Kind
	switch h.Kind {
	case search.KindMessage:
		what = h.Role + " message"
		if h.Tool != "" {
			what = h.Tool + "'s result"
		}
	case search.KindAnswer:
		what = "the model's answer"
	case search.KindToolCall:
		what = "tool call " + h.Tool
	case search.KindHook:
		what = "hook run"
	}
	parts = append(parts, what)
	if h.Hook != "" {
		hook := strings.TrimSpace(h.Event + " " + cutText(h.Hook, 50))
		if h.Outcome != "" {
			hook += " · " + h.Outcome
		}
		parts = append(parts, hook)
	}
	if h.Count > 1 {
		parts = append(parts, fmt.Sprintf("×%d", h.Count))
	}
	if h.Run == 0 {
		parts = append(parts, "hookctl sessions import "+h.File+" keeps it")
	}
	return strings.Join(parts, " · ")
}

func cutText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
