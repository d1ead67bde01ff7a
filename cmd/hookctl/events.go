package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"

	"hookstudio/app/agent/events"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/services/runs"
)

// eventFlags are simulate's event-stream and control options.
type eventFlags struct {
	events  *bool
	control *string
}

func addEventFlags(fs *flag.FlagSet) *eventFlags {
	return &eventFlags{
		events:  fs.Bool("events", false, "print the run's events as JSON Lines instead of the trace"),
		control: fs.String("control", "", "read pause, resume and cancel lines from stdin (--control stdin) or a file or FIFO"),
	}
}

// eventRun is the event stream, control and approvals of one simulate run.
// Its goroutines (the printer, the control reader, the signal watcher)
// end in finish/stop.
type eventRun struct {
	st      *events.Stream
	ctl     *events.Control
	ctx     context.Context // the run's: Control cancels it, and so does run.cancel
	release context.CancelFunc
	parent  context.Context
	printed chan struct{}
	stopped chan struct{}
	once    sync.Once
	sigDone chan struct{}
	readers sync.WaitGroup // the control reader of a file; one on stdin ends at EOF or exit
	ctlFile *os.File
	stderr  io.Writer
	print   bool
}

// start attaches the monitor to run (the scenario's approval policy with
// its scripted decisions, its budget), makes run.ctx cancellable by the
// control, and starts the printer and the control readers: a first SIGINT
// cancels the run at its next checkpoint, a second one exits at once.
func (f *eventFlags) start(ctx context.Context, run *providerRun, spec *runs.Spec, stdout, stderr io.Writer, asJSON bool) (*eventRun, error) {
	sc := spec.Scenario
	if *f.events && asJSON {
		return nil, fmt.Errorf("%w: --events and --json both print to stdout; choose one", errUsage)
	}
	o := events.Options{Stream: events.NewStream(events.StreamOptions{})}.ForScenario(sc)
	if sc.Budget != nil {
		c, err := tokens.NewCounter()
		if err != nil {
			return nil, err
		}
		o.Tokens = c
	}
	o.Control = events.NewControl()
	e := &eventRun{st: o.Stream, ctl: o.Control, parent: ctx, printed: make(chan struct{}), stopped: make(chan struct{}), sigDone: make(chan struct{}), stderr: stderr, print: *f.events}
	if *f.control != "" {
		in := os.Stdin
		if *f.control != "stdin" {
			file, err := os.Open(*f.control)
			if err != nil {
				return nil, fmt.Errorf("--control: %w", err)
			}
			in, e.ctlFile = file, file
		}
		if e.ctlFile != nil {
			e.readers.Add(1)
			go func() { defer e.readers.Done(); e.readControl(in) }()
		} else {
			go e.readControl(in) // stdin: a blocked read cannot be interrupted; it ends at EOF or exit
		}
	}
	if ctx.Err() != nil { // interrupted already: the run ends at its first checkpoint
		e.ctl.Cancel("interrupted (SIGINT)")
	}
	spec.Events = &o // the run's assembler puts the stream last among its handlers
	spec.BeforeFinish = func() {
		if e.parent.Err() != nil {
			e.ctl.Cancel("interrupted (SIGINT)")
		}
	}
	// The run's context: cancelled by the control (a cancel line, SIGINT,
	// aborting a request in flight) and by run.cancel (the provider ends a
	// run it cannot go on with; run.ctx keeps that cause for explain). An
	// interrupt reaches it through the control, so the run sees why.
	var cancel context.CancelFunc
	e.ctx, cancel = o.Control.Context(context.WithoutCancel(run.ctx))
	stopAfter := context.AfterFunc(run.ctx, func() {
		if ctx.Err() == nil {
			cancel()
		}
	})
	e.release = func() { stopAfter(); cancel() }
	// SIGINT: main's context ends; the run is cancelled at its next checkpoint.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt)
	go func() {
		defer close(e.sigDone)
		defer signal.Stop(sig)
		n := 0
		for {
			select {
			case <-ctx.Done():
				e.ctl.Cancel("interrupted (SIGINT)")
				ctx = context.Background() // once
			case <-sig:
				if n++; n >= 2 {
					fmt.Fprintln(stderr, "hookctl: interrupted twice; exiting")
					os.Exit(130)
				}
			case <-e.stopped:
				return
			}
		}
	}()
	go func() {
		defer close(e.printed)
		enc := json.NewEncoder(stdout)
		e.st.Pump(func(evs []events.Event) {
			if !e.print {
				return
			}
			for _, ev := range evs {
				_ = enc.Encode(ev)
			}
		})
	}()
	return e, nil
}

// readControl applies pause, resume and cancel lines until EOF.
func (e *eventRun) readControl(in io.Reader) {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		switch cmd := strings.TrimSpace(sc.Text()); cmd {
		case "pause":
			e.ctl.Pause("requested on --control")
		case "resume":
			e.ctl.Resume()
		case "cancel":
			e.ctl.Cancel("requested on --control")
		case "":
		default:
			fmt.Fprintf(e.stderr, "hookctl: --control: unknown command %q (pause, resume or cancel)\n", cmd)
		}
	}
}

// finish waits for the printer (the run said how it ended) and returns
// the events to store.
func (e *eventRun) finish() []events.Event {
	e.st.Close()
	<-e.printed
	if d := e.st.Dropped(); d > 0 && e.print {
		fmt.Fprintf(e.stderr, "hookctl: %d streamed events were dropped (LLM_PARTIAL; the queue was full)\n", d)
	}
	return e.st.Persistent()
}

// stop ends the control readers and releases the run's context.
func (e *eventRun) stop() {
	e.once.Do(func() {
		close(e.stopped)
		if e.ctlFile != nil {
			e.ctlFile.Close()
		}
		e.release()
		<-e.sigDone
		e.readers.Wait()
	})
}

// historyEventsCmd prints a stored run's events as JSON Lines.
func historyEventsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("history events", flag.ContinueOnError)
	db := fs.String("db", "", "history database (default: history.db in the app's data folder)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, fmt.Errorf("%w: history events takes one run id", errUsage)
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
	evs, err := s.Events(ctx, id)
	if err != nil {
		return 0, err
	}
	enc := json.NewEncoder(stdout)
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			return 0, err
		}
	}
	return exitOK, nil
}
