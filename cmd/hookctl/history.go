package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// historyPath is --db, else history.db in the app's data folder, so the
// CLI and the app share one history.
func historyPath(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	dir, err := studio.DefaultDataDir()
	if err != nil {
		return "", err
	}
	return history.DefaultPath(dir), nil
}

// openHistory opens the store and passes on a recovery notice: a damaged
// history is replaced, and the user must hear where the old one went.
func openHistory(ctx context.Context, flagValue string, stderr io.Writer) (*history.Store, error) {
	path, err := historyPath(flagValue)
	if err != nil {
		return nil, err
	}
	s, err := history.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if s.Recovered != nil {
		fmt.Fprintf(stderr, "hookctl: warning: %s\n", s.Recovered.Message())
	}
	recoverCaptures(ctx, s, stderr)
	return s, nil
}

// recoverCaptures rebuilds the run of a capture that was killed before it
// could (its calls are all in the history's journal).
func recoverCaptures(ctx context.Context, s *history.Store, stderr io.Writer) {
	states, err := s.UnfoldedCaptures(ctx)
	if err != nil || len(states) == 0 {
		return
	}
	var counter capture.Counter
	if c, err := tokens.NewCounter(); err == nil {
		counter = c
	}
	if _, err := capture.Recover(ctx, s, counter); err != nil {
		fmt.Fprintf(stderr, "hookctl: warning: %v\n", err)
	}
}

// recordRun stores a simulated run. Any failure is a warning: the history
// is a convenience, and the simulation itself succeeded.
func recordRun(ctx context.Context, stderr io.Writer, dbFlag string, in history.RunInput, evs ...events.Event) {
	// A run interrupted by Ctrl-C is still worth keeping, and saving is quick.
	ctx = context.WithoutCancel(ctx)
	warn := func(err error) { fmt.Fprintf(stderr, "hookctl: warning: run not recorded in the history: %v\n", err) }
	s, err := openHistory(ctx, dbFlag, stderr)
	if err != nil {
		warn(err)
		return
	}
	defer s.Close()
	if counter, err := tokens.NewCounter(); err == nil {
		in.Tokens = counter
	} else {
		warn(err)
		return
	}
	id, err := s.SaveRun(ctx, in)
	if err != nil {
		warn(err)
	}
	if id != 0 && len(evs) > 0 {
		if err := s.SaveEvents(ctx, id, evs); err != nil {
			warn(err)
		}
	}
}

const historyUsage = "history takes list, show RUN, events RUN or diff RUN_A RUN_B"

func historyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return 0, fmt.Errorf("%w: %s", errUsage, historyUsage)
	}
	if isHelp(args[0]) {
		return 0, &helpRequest{name: "history"}
	}
	switch args[0] {
	case "list":
		return historyList(ctx, args[1:], stdout, stderr)
	case "show":
		return historyShow(ctx, args[1:], stdout, stderr)
	case "diff":
		return historyDiff(ctx, args[1:], stdout, stderr)
	case "events":
		return historyEventsCmd(ctx, args[1:], stdout, stderr) // events.go
	}
	return 0, fmt.Errorf("%w: unknown history command %q; %s", errUsage, args[0], historyUsage)
}

// parseDate accepts a day (local time) or an RFC 3339 instant.
func parseDate(flagName, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%w: --%s must be a date (2006-01-02) or an RFC 3339 time, got %q", errUsage, flagName, s)
}

func parseRunID(s string) (history.RunID, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%w: %q is not a run number", errUsage, s)
	}
	return history.RunID(id), nil
}

func historyList(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("history list", flag.ContinueOnError)
	db := fs.String("db", "", "history database")
	asJSON := fs.Bool("json", false, "print JSON")
	var f history.Filter
	fs.StringVar(&f.Scenario, "scenario", "", "only runs of this scenario (its name)")
	fs.StringVar(&f.Skill, "skill", "", "only runs of this skill's scenarios or hooks")
	source := fs.String("source", "", "only runs from cli, app, live, capture or session")
	since := fs.String("since", "", "only runs started on or after this date")
	until := fs.String("until", "", "only runs started before this date")
	fs.IntVar(&f.Limit, "limit", 20, "at most this many runs (0: all)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 0 {
		return 0, fmt.Errorf("%w: history list takes no arguments, got %q", errUsage, pos)
	}
	if f.Limit < 0 {
		return 0, fmt.Errorf("%w: --limit must not be negative", errUsage)
	}
	if f.Since, err = parseDate("since", *since); err != nil {
		return 0, err
	}
	if f.Until, err = parseDate("until", *until); err != nil {
		return 0, err
	}
	f.Source = history.Source(*source)
	s, err := openHistory(ctx, *db, stderr)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	runs, err := s.ListRuns(ctx, f)
	if err != nil {
		return 0, err
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, struct {
			Runs []history.RunSummary `json:"runs"`
		}{runs})
	}
	if len(runs) == 0 {
		fmt.Fprintln(stdout, "no runs recorded")
		return exitOK, nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED\tSCENARIO\tSOURCE\tBACKEND\tSTATUS\tCALLS\tTOKENS IN\tTOKENS OUT\tWALL")
	for _, r := range runs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", r.ID, r.Started.Local().Format("2006-01-02 15:04:05"),
			r.Scenario, r.Source, r.Backend, r.Status, r.LLMCalls, r.TokensIn, r.TokensOut, time.Duration(r.WallMS)*time.Millisecond)
	}
	return exitOK, tw.Flush()
}

func historyShow(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("history show", flag.ContinueOnError)
	db := fs.String("db", "", "history database")
	asJSON := fs.Bool("json", false, "print JSON")
	withTrace := fs.Bool("trace", false, "with --json, include the whole trace (every call's messages)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, fmt.Errorf("%w: history show takes one run number, got %d", errUsage, len(pos))
	}
	id, err := parseRunID(pos[0])
	if err != nil {
		return 0, err
	}
	s, err := openHistory(ctx, *db, stderr)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	run, err := s.LoadRun(ctx, id)
	if errors.Is(err, history.ErrNotFound) {
		return 0, fmt.Errorf("run %d is not in the history", id)
	}
	if err != nil {
		return 0, err
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, showDoc(run, *withTrace))
	}
	r := run.RunSummary
	fmt.Fprintf(stdout, "run %d · %s (%s)\n", r.ID, r.Scenario, r.ScenarioFile)
	fmt.Fprintf(stdout, "scenario sha256 %s\n", r.ScenarioHash)
	fmt.Fprintf(stdout, "%s · source %s · backend %s · status %s", r.Started.Local().Format("2006-01-02 15:04:05"), r.Source, r.Backend, r.Status)
	if r.Agent != "" {
		fmt.Fprintf(stdout, " · renders as %s", r.Agent)
	}
	if r.Error != "" {
		fmt.Fprintf(stdout, " · %s", r.Error)
	}
	fmt.Fprintf(stdout, "\n%d steps · %d LLM calls · %d tokens in · %d tokens out · largest prompt %d · wall %s\n\n",
		r.Steps, r.LLMCalls, r.TokensIn, r.TokensOut, r.MaxPromptTokens, time.Duration(r.WallMS)*time.Millisecond)

	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALL\tREQUEST\tPHASE\tROUND\tMESSAGES\tTOKENS IN\tTOKENS OUT")
	for _, c := range run.Calls {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%d\t%d\t%d\n", c.Index+1, c.Request, c.Phase, roundText(c.Round), c.Messages, c.TokensIn, c.TokensOut)
	}
	if err := tw.Flush(); err != nil {
		return 0, err
	}
	if len(run.Hooks) > 0 {
		fmt.Fprintln(stdout)
		tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "HOOK\tINJECTED\tREMOVED\tCALLS SEEN\tCOPIES\tTOKENS\tEXEC\tOK\tFAILED\tSKIPPED\tMS")
		for _, h := range run.Hooks {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", h.Hook, h.Injected, h.Removed, h.CallsSeen,
				h.CopiesSeen, h.TokensTotal, h.Executions, h.Successes, h.Failures, h.Skipped, h.TotalDurationMS)
		}
		if err := tw.Flush(); err != nil {
			return 0, err
		}
	}
	return exitOK, showExec(stdout, run)
}

// showDoc is a run as history show --json prints it, with the whole
// trace document when withTrace.
func showDoc(run *history.Run, withTrace bool) any {
	out := struct {
		*history.Run
		Trace *engine.Document `json:"trace,omitempty"`
	}{Run: run}
	if withTrace {
		d := run.Trace.Document()
		out.Trace = &d
	}
	return out
}

// showExec prints seed 001's metrics of the run's executable hooks and
// seed 004's request usage per model.
func showExec(w io.Writer, run *history.Run) error {
	if len(run.ExecHooks) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SYSTEM\tEXECUTABLE HOOK\tRUNS\tOK\tFAILED\tSKIPPED\tMS")
		for _, h := range run.ExecHooks {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.1f\n", h.System, h.Hook, h.Executions, h.Successes, h.Failures, h.Skipped, h.TotalDurationMS)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(run.Usage) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "MODEL\tREQUESTS\tOK\tFAILED\tATTEMPTS\tPROMPT\tCOMPLETION\tTHINKING\tCACHED")
		for _, u := range run.Usage {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", u.Model, u.Requests, u.Successes, u.Failures, u.Attempts,
				u.PromptTokens, u.CompletionTokens, u.ThinkingTokens, u.CachedTokens)
		}
		return tw.Flush()
	}
	return nil
}

func roundText(r *int) string {
	if r == nil {
		return "-"
	}
	return strconv.Itoa(*r)
}

func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func historyDiff(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("history diff", flag.ContinueOnError)
	db := fs.String("db", "", "history database")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 2 {
		return 0, fmt.Errorf("%w: history diff takes two run numbers, got %d", errUsage, len(pos))
	}
	a, err := parseRunID(pos[0])
	if err != nil {
		return 0, err
	}
	b, err := parseRunID(pos[1])
	if err != nil {
		return 0, err
	}
	s, err := openHistory(ctx, *db, stderr)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	cmp, err := s.Compare(ctx, a, b)
	if errors.Is(err, history.ErrNotFound) {
		return 0, fmt.Errorf("%w (see hookctl history list)", err)
	}
	if err != nil {
		return 0, err
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, cmp)
	}
	fmt.Fprintf(stdout, "run %d (%s) → run %d (%s)\n", cmp.A.ID, runLabel(cmp.A), cmp.B.ID, runLabel(cmp.B))
	if cmp.A.Agent != cmp.B.Agent {
		fmt.Fprintf(stdout, "rendered as %s → %s: what an upgrade changes for these hooks\n", orNone(cmp.A.Agent), orNone(cmp.B.Agent))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALL\tREQUEST\tPHASE\tROUND\tSTATUS\tTOKENS A\tTOKENS B\tDELTA\tCHANGES")
	for _, d := range cmp.Calls {
		num := "-"
		switch {
		case d.B != nil:
			num = strconv.Itoa(*d.B + 1)
		case d.A != nil:
			num = strconv.Itoa(*d.A+1) + " (A)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", num, d.Request, d.Phase, roundText(d.Round), d.Status,
			d.TokensA, d.TokensB, signed(d.TokenDelta), changeCounts(d.Messages))
	}
	if err := tw.Flush(); err != nil {
		return 0, err
	}
	for _, d := range cmp.Calls {
		if len(d.Messages) == 0 {
			continue
		}
		where := fmt.Sprintf("request %d, %s", d.Request, d.Phase)
		if d.Round != nil {
			where += fmt.Sprintf(" round %d", *d.Round)
		}
		fmt.Fprintf(stdout, "\n%s:\n", where)
		for _, m := range d.Messages {
			mark := map[string]string{history.MsgAdded: "+", history.MsgRemoved: "-", history.MsgChanged: "~"}[m.Op]
			fmt.Fprintf(stdout, "  %s %s %s (%s) %s tokens\n", mark, m.Op, m.Tag, m.Role, signed(m.TokenDelta))
		}
	}
	fmt.Fprintf(stdout, "\ntotal prompt tokens %d → %d (%s); %d of %d calls differ\n",
		cmp.TokensA, cmp.TokensB, signed(cmp.TokenDelta), cmp.ChangedCalls, len(cmp.Calls))
	return exitOK, nil
}

// runLabel is a run's scenario, and the agent version it rendered as.
func runLabel(r history.RunSummary) string {
	if r.Agent == "" {
		return r.Scenario
	}
	return r.Scenario + ", " + r.Agent
}

func changeCounts(ms []history.MessageDiff) string {
	n := map[string]int{}
	for _, m := range ms {
		n[m.Op]++
	}
	var parts []string
	for _, op := range []string{history.MsgChanged, history.MsgAdded, history.MsgRemoved} {
		if n[op] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[op], op))
		}
	}
	return strings.Join(parts, ", ")
}
