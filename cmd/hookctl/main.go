// Command hookctl validates skill hooks and simulates scenarios headless:
// the same engine as the desktop app, without GTK or WebKit.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"

	"hookstudio/app/platform/version"
)

// Exit codes: 0 success, 1 problems found, 2 usage error, 3 the folder's
// executable hooks need --trust (simulate, test).
const (
	exitOK         = 0
	exitProblems   = 1
	exitUsage      = 2
	exitNotTrusted = 3
)

// exitStatus ends `hookctl help`; README and docs say the same.
const exitStatus = `Exit status: 0 no errors (warnings allowed), 1 errors found (or a failed
expectation), 2 usage error, 3 not run: the folder has executable hooks and
--trust was not given (simulate, test; the commands that would run are listed).
`

// errUsage marks an error in how the command was called.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var (
		code int
		err  error
	)
	if !version.Get().History {
		var stop bool
		if args, stop = withoutHistory(args, stderr); stop {
			return exitProblems
		}
	}
	switch args[0] {
	case "--version", "version":
		fmt.Fprintf(stdout, "hookctl %s\n", version.Get())
		if !version.Get().History {
			fmt.Fprintln(stdout, "run history: not available (built without cgo)")
		}
		return exitOK
	case "validate":
		code, err = validateCmd(ctx, args[1:], stdout)
	case "simulate":
		code, err = simulateCmd(ctx, args[1:], stdout, stderr)
	case "test":
		code, err = testCmd(ctx, args[1:], stdout, stderr)
	case "history":
		code, err = historyCmd(ctx, args[1:], stdout, stderr)
	case "export":
		code, err = exportCmd(ctx, args[1:], stdout)
	case "import":
		code, err = importCmd(ctx, args[1:], stdout)
	case "capture":
		code, err = captureCmd(ctx, args[1:], stdout, stderr)
	case "recipe":
		code, err = recipeCmd(ctx, args[1:], stdout)
	case "calibrate":
		code, err = calibrateCmd(ctx, args[1:], stdout, stderr)
	case "sessions":
		code, err = sessionsCmd(ctx, args[1:], stdout, stderr)
	case "convert":
		code, err = convertCmd(ctx, args[1:], stdout)
	case "help", "-h", "--help":
		if len(args) > 1 { // hookctl help COMMAND: that command's --help
			return run(ctx, append(slices.Clone(args[1:]), "--help"), stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	var help *helpRequest
	switch {
	case errors.As(err, &help):
		printHelp(stdout, help)
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "hookctl: %v\n\n%s", err, usage)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "hookctl: %v\n", err)
		return exitProblems
	}
	return code
}

// noHistory explains a build made without cgo (a cross build for macOS):
// go-sqlite3 is then a stub that cannot open the run history.
const noHistory = "the run history is not available in this build (made without cgo, which SQLite needs; see the README's Releases)"

// withoutHistory adapts a command line to a build without the run history:
// simulate runs without recording, and history stops at once with the
// reason rather than with the SQLite stub's error.
func withoutHistory(args []string, stderr io.Writer) ([]string, bool) {
	switch args[0] {
	case "history", "sessions":
		if slices.ContainsFunc(args, isHelp) || (args[0] == "sessions" && (len(args) < 2 || (args[1] != "import" && args[1] != "search"))) {
			return args, false // its usage, listing and requests need no database
		}
		fmt.Fprintf(stderr, "hookctl: %s\n", noHistory)
		return args, true
	case "simulate":
		if !slices.Contains(args, "--no-history") && !slices.Contains(args, "-no-history") {
			fmt.Fprintf(stderr, "hookctl: note: this run is not recorded: %s\n", noHistory)
			return append([]string{args[0], "--no-history"}, args[1:]...), false
		}
	}
	return args, false
}

// parseArgs parses flags wherever they stand among the positional
// arguments (the flag package alone stops at the first positional one).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, &helpRequest{name: fs.Name(), fs: fs}
		} else if err != nil {
			return nil, fmt.Errorf("%w: %w", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// defaultSkillsDir is ./skills when it exists: the layout of a repository
// that ships skills.
func defaultSkillsDir() string {
	if fi, err := os.Stat("skills"); err == nil && fi.IsDir() {
		return "skills"
	}
	return "."
}
