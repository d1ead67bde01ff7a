package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/atomicfile"
	"hookstudio/app/store/history"
)

const sessionsUsage = "sessions takes list, import ID|FILE, request ID|FILE CALL or search WORDS"

func sessionsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return 0, fmt.Errorf("%w: %s", errUsage, sessionsUsage)
	}
	if isHelp(args[0]) {
		return 0, &helpRequest{name: "sessions"}
	}
	switch args[0] {
	case "list":
		return sessionsList(ctx, args[1:], stdout)
	case "import":
		return sessionsImport(ctx, args[1:], stdout, stderr)
	case "request":
		return sessionsRequest(ctx, args[1:], stdout, stderr)
	case "search":
		return sessionsSearch(ctx, args[1:], stdout, stderr)
	}
	return 0, fmt.Errorf("%w: unknown sessions command %q; %s", errUsage, args[0], sessionsUsage)
}

// locationFlags are where the agents keep their sessions: the defaults
// (sessions.DefaultLocations: each CLI's own folder) or the flags.
func locationFlags(fs *flag.FlagSet) func() sessions.Locations {
	def := sessions.DefaultLocations()
	claude := fs.String("claude-dir", def.Claude, "Claude Code's projects folder")
	codex := fs.String("codex-dir", def.Codex, "Codex's sessions folder")
	gemini := fs.String("gemini-dir", def.Gemini, "Gemini CLI's folder of projects' chats (~/.gemini/tmp)")
	qwen := fs.String("qwen-dir", def.Qwen, "Qwen Code's projects folder")
	copilot := fs.String("copilot-dir", def.Copilot, "Copilot CLI's session-state folder")
	return func() sessions.Locations {
		return sessions.Locations{Claude: *claude, Codex: *codex, Gemini: *gemini, Qwen: *qwen, Copilot: *copilot}
	}
}

func agentFlag(s string) (sessions.Agent, error) {
	if s == "" || slices.Contains(sessions.Agents, sessions.Agent(s)) {
		return sessions.Agent(s), nil
	}
	names := make([]string, len(sessions.Agents))
	for i, a := range sessions.Agents {
		names[i] = string(a)
	}
	return "", fmt.Errorf("%w: --agent is one of %s, got %q", errUsage, strings.Join(names, ", "), s)
}

func sessionsList(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions list", flag.ContinueOnError)
	agent := fs.String("agent", "", "only this agent's sessions: claude-code, codex, gemini-cli, qwen-code or copilot-cli")
	project := fs.String("project", "", "only sessions run in this folder (or one inside it)")
	search := fs.String("search", "", "only sessions whose project, first prompt, model, id or hooks contain this")
	asJSON := fs.Bool("json", false, "print JSON")
	locs := locationFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 0 {
		return 0, fmt.Errorf("%w: sessions list takes no arguments, got %q", errUsage, pos)
	}
	a, err := agentFlag(*agent)
	if err != nil {
		return 0, err
	}
	list, err := sessions.NewLister().List(ctx, locs(), sessions.Filter{Agent: a, Project: *project, Search: *search})
	if err != nil {
		return 0, err
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, struct {
			Sessions []sessions.Summary `json:"sessions"`
		}{list})
	}
	if len(list) == 0 {
		l := locs()
		fmt.Fprintf(stdout, "no sessions found (looked in %s)\n", strings.Join(nonEmpty(l.Claude, l.Codex, l.Gemini, l.Qwen, l.Copilot), ", "))
		return exitOK, nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED\tAGENT\tPROJECT\tTURNS\tCALLS\tMODEL\tHOOKS\tSIZE\tID")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", s.Started.Local().Format("2006-01-02 15:04"), sessions.Backend(sessions.Session{Agent: s.Agent, Version: s.Version}),
			s.Project, s.Turns, s.Calls, s.Model, hookCounts(s.Hooks), byteSize(s.Size), s.ID)
	}
	return exitOK, tw.Flush()
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

func hookCounts(hs []sessions.HookCount) string {
	if len(hs) == 0 {
		return "-"
	}
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = fmt.Sprintf("%s×%d", h.Label, h.Count)
	}
	return strings.Join(parts, " ")
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// sessionFile is ID|FILE: a transcript's path, else the session with that
// id (or the one id starting with it) under the locations.
func sessionFile(ctx context.Context, arg string, l sessions.Locations) (string, error) {
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		return arg, nil
	}
	list, err := sessions.NewLister().List(ctx, l, sessions.Filter{})
	if err != nil {
		return "", err
	}
	var found []string
	for _, s := range list {
		if s.ID == arg {
			return s.File, nil
		}
		if strings.HasPrefix(s.ID, arg) {
			found = append(found, s.File)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%q is neither a transcript file nor a session id (hookctl sessions list shows them)", arg)
	}
	return "", fmt.Errorf("%q starts %d sessions' ids; give more of it", arg, len(found))
}

// progressPrinter tells stderr how far a long import is, every tenth.
func progressPrinter(stderr io.Writer, file string) func(read, total int64) {
	next := int64(0)
	return func(read, total int64) {
		if total < 8<<20 || read < next {
			return
		}
		fmt.Fprintf(stderr, "hookctl: reading %s: %s of %s\n", filepath.Base(file), byteSize(read), byteSize(total))
		next = read + total/10
	}
}

func sessionsImport(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions import", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the run as hookctl history show --json --trace does")
	db := fs.String("db", "", "history database (default: history.db in the app's data folder)")
	follow := fs.Bool("follow", false, "keep importing what the agent appends until Ctrl+C")
	saveScenario := fs.String("save-scenario", "", "also save the session as a scenario FILE (answers and tool results as recorded)")
	locs := locationFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, fmt.Errorf("%w: sessions import takes one session id or transcript file, got %d", errUsage, len(pos))
	}
	file, err := sessionFile(ctx, pos[0], locs())
	if err != nil {
		return 0, err
	}
	store, err := openHistory(ctx, *db, stderr)
	if err != nil {
		return 0, err
	}
	defer store.Close()
	counter, err := tokens.NewCounter()
	if err != nil {
		return 0, err
	}
	counts := sessions.NewCounts(counter)
	opts := sessions.Options{Progress: progressPrinter(stderr, file), Profiles: dataProfiles()}
	var id history.RunID
	if *follow {
		ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
		defer stop()
		fmt.Fprintf(stderr, "hookctl: following %s (Ctrl+C stops)\n", file)
		err = sessions.Follow(ctx, file, store, counts, opts, func(u sessions.Update) {
			if u.Err != nil {
				fmt.Fprintf(stderr, "hookctl: warning: %v\n", u.Err)
				return
			}
			if u.Run != 0 {
				id = u.Run
				fmt.Fprintf(stderr, "hookctl: %s: %d lines, %d calls, %d hooks → run %d\n", time.Now().Format("15:04:05"), u.Session.Lines, len(u.Session.Calls), u.Session.Hooks, u.Run)
			}
		})
		if err != nil {
			return 0, err
		}
		if id == 0 {
			return 0, fmt.Errorf("%s: %w", file, sessions.ErrEmpty)
		}
		ctx = context.WithoutCancel(ctx)
	} else {
		im, err := sessions.ImportFile(ctx, file, opts)
		if err != nil {
			return 0, err
		}
		if id, err = sessions.Keep(ctx, store, im, counts); err != nil {
			if errors.Is(err, sessions.ErrUnknownFormat) {
				return 0, err // it names the file and the line
			}
			return 0, fmt.Errorf("%s: %w", file, err)
		}
	}
	run, err := store.LoadRun(ctx, id)
	if err != nil {
		return 0, err
	}
	sess, err := runSession(run)
	if err != nil {
		return 0, err
	}
	for _, n := range sess.Notes {
		fmt.Fprintf(stderr, "hookctl: note: %s\n", n)
	}
	for _, u := range sess.Unknown {
		fmt.Fprintf(stderr, "hookctl: note: %s\n", u)
	}
	if *saveScenario != "" {
		if err := writeSessionScenario(*saveScenario, run, sess, stderr); err != nil {
			return 0, err
		}
	}
	if *asJSON {
		return exitOK, writeJSON(stdout, showDoc(run, true))
	}
	exact := 0
	for _, c := range sess.Calls {
		if c.Exact {
			exact++
		}
	}
	fmt.Fprintf(stdout, "session %s · %s · %s\n", sess.ID, sessions.Backend(sess), sess.Project)
	fmt.Fprintf(stdout, "%s → %s · %d turns · %d model calls (%d exact, %d rebuilt) · %d hooks fired\n",
		sess.Started.Local().Format("2006-01-02 15:04:05"), sess.Ended.Local().Format("15:04:05"), sess.Turns, len(sess.Calls), exact, len(sess.Calls)-exact, sess.Hooks)
	fmt.Fprintf(stdout, "kept as run %d (hookctl history show %d)\n", run.ID, run.ID)
	return exitOK, nil
}

// runSession is the session a run of source session was imported from.
func runSession(run *history.Run) (sessions.Session, error) {
	var s sessions.Session
	if run.Session == nil {
		return s, fmt.Errorf("run %d is not an imported session", run.ID)
	}
	if err := json.Unmarshal(run.Session.Data, &s); err != nil {
		return s, fmt.Errorf("run %d: %w", run.ID, err)
	}
	return s, nil
}

// writeSessionScenario saves the session as a scenario file whose mock
// replays the recorded answers and tool results.
func writeSessionScenario(path string, run *history.Run, s sessions.Session, stderr io.Writer) error {
	data, notes, err := sessions.ScenarioYAML(run.Trace, s)
	for _, n := range notes {
		fmt.Fprintf(stderr, "hookctl: note: %s\n", n)
	}
	if err != nil {
		return fmt.Errorf("save the session as a scenario: %w", err)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(stderr, "hookctl: the session saved as scenario %s (hookctl simulate %s replays it)\n", path, path)
	return nil
}

// sessionsRequest prints one recorded request's body as the agent sent it.
func sessionsRequest(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions request", flag.ContinueOnError)
	locs := locationFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 2 {
		return 0, fmt.Errorf("%w: sessions request takes a session id or transcript file and a call number", errUsage)
	}
	var n int
	if _, err := fmt.Sscan(pos[1], &n); err != nil || n < 1 {
		return 0, fmt.Errorf("%w: %q is not a call number (1, 2, …)", errUsage, pos[1])
	}
	file, err := sessionFile(ctx, pos[0], locs())
	if err != nil {
		return 0, err
	}
	var body []byte
	im, err := sessions.ImportFile(ctx, file, sessions.Options{Progress: progressPrinter(stderr, file), OnRequest: func(call int, b []byte) {
		if call == n-1 {
			body = b
		}
	}})
	if err != nil {
		return 0, err
	}
	s := im.Session()
	switch {
	case n > len(s.Calls):
		return 0, fmt.Errorf("%s has %d model calls", file, len(s.Calls))
	case body == nil:
		return 0, errors.New("the transcript does not record this call's request (it is rebuilt from the records): hookctl sessions import shows it")
	}
	_, err = stdout.Write(append(body, '\n'))
	return exitOK, err
}

// dataProfiles are the bundled rendering profiles and those calibrated
// into the app's data folder (hookctl calibrate).
func dataProfiles() *profile.Catalog {
	dir, err := studio.DefaultDataDir()
	if err != nil {
		dir = ""
	}
	return profile.NewCatalog(dir)
}
