package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"hookstudio/app/agent/tokens"
	rendering "hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/capture"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/atomicfile"
	"hookstudio/app/store/profiles"
)

// captureDoc is a capture as hookctl writes it: the shape of simulate
// --json (requests → llm_calls → messages), each call with its raw request.
type captureDoc struct {
	Capture  bool                `json:"capture"`
	BaseURL  string              `json:"base_url"`
	Status   string              `json:"status"`
	Requests []captureRequestDoc `json:"requests"`
}

type captureRequestDoc struct {
	Index    int            `json:"index"`
	LLMCalls []capture.Call `json:"llm_calls"`
}

// captureCmd serves the capture endpoint until SIGINT/SIGTERM or
// --max-requests, then writes what the agent sent.
func captureCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	// The server's goroutines report each call while this one reports
	// the rest: one writer at a time.
	stderr = &lockedWriter{w: stderr}
	fs := flag.NewFlagSet("capture", flag.ContinueOnError)
	port := fs.Int("port", 0, "port on 127.0.0.1 (0: a free one)")
	listen := fs.String("listen", "", "listen on HOST:PORT instead of 127.0.0.1 (beyond loopback, --token is required)")
	token := fs.String("token", "", "the API key clients must send (x-api-key or Authorization: Bearer)")
	answers := fs.String("answers", "", "the answers file: per call, in order, content, tool_calls or error")
	profile := fs.String("profile", "", "forward each request to this model profile (its base URL, model and key) and relay its answer")
	profilesFile := fs.String("profiles", "", "profiles file for --profile (default: profiles.json in the app's data folder)")
	maxRequests := fs.Int("max-requests", 0, "stop after this many requests (0: at SIGINT/SIGTERM)")
	jsonFile := fs.String("json", "", "write the capture as JSON to FILE (default: stdout)")
	noHistory := fs.Bool("no-history", false, "do not record the capture in the run history")
	saveScenario := fs.String("save-scenario", "", "also save the capture as a scenario FILE whose mock replays the recorded answers")
	db := fs.String("db", "", "history database (default: history.db in the app's data folder)")
	recipeOf := fs.String("recipe", "", "print how to run this agent CLI against the capture (hookctl recipe lists them)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 || (*answers == "") == (*profile == "") || *port < 0 || *port > 65535 || *maxRequests < 0 || *profilesFile != "" && *profile == "" {
		return 0, fmt.Errorf("%w: capture takes --answers FILE or --profile NAME, and optionally --port N (or --listen HOST:PORT --token T), --max-requests N, --json FILE", errUsage)
	}
	var howTo recipe.Recipe
	if *recipeOf != "" {
		if howTo, err = recipe.Find(*recipeOf); err != nil {
			return 0, fmt.Errorf("%w: %w", errUsage, err)
		}
	}
	var script *capture.Script
	var up *capture.Upstream
	if *profile != "" {
		path := *profilesFile
		if path == "" {
			dir, err := studio.DefaultDataDir()
			if err != nil {
				return 0, err
			}
			path = profiles.DefaultPath(dir)
		}
		if up, err = capture.UpstreamOf(profiles.NewStore(path), *profile); err != nil {
			return 0, fmt.Errorf("%w (profiles file %s)", err, path)
		}
	} else if script, err = capture.LoadScript(*answers); err != nil {
		return 0, err
	}
	counter, err := tokens.NewCounter()
	if err != nil {
		return 0, err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	// The capture is kept in the history as calls arrive: a hookctl
	// killed mid-capture leaves the calls it had.
	var keeper *capture.Keeper
	if !*noHistory {
		store, err := openHistory(ctx, *db, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "hookctl: warning: capture not recorded in the history: %v\n", err)
		} else {
			defer store.Close()
			keeper = capture.NewKeeper(store, counter, time.Now())
			keeper.OnSaved = func(_ int64, err error) {
				if err != nil {
					fmt.Fprintf(stderr, "hookctl: warning: %v\n", err)
				}
			}
		}
	}
	enough := make(chan struct{})
	var once sync.Once
	n := 0
	addr := fmt.Sprintf("127.0.0.1:%d", *port)
	if *listen != "" {
		addr = *listen
	}
	var answerer capture.Answerer = script
	if up != nil {
		answerer = nil // the upstream answers
	}
	var journal *capture.Journal
	if keeper != nil {
		journal = keeper.Journal()
	}
	dataDir, err := studio.DefaultDataDir()
	if err != nil {
		return 0, err
	}
	agents := capture.NewAgentReader(rendering.NewCatalog(dataDir)) // bundled and calibrated rendering profiles
	srv, err := capture.Listen(capture.Options{Addr: addr, Token: *token, Answerer: answerer, Upstream: up, Tokens: counter, Journal: journal, Agents: agents,
		OnCall: func(c capture.Call) {
			n++
			if keeper != nil {
				keeper.Add(c)
			}
			line := fmt.Sprintf("#%d %s %s → %d, %d messages, %d tokens in", c.N+1, c.API, c.Path, c.Status, len(c.Messages), c.InputTokens)
			if c.Side != "" {
				line += " (side request: " + c.Side + ")"
			}
			if c.Error != "" {
				line += ": " + c.Error
			}
			fmt.Fprintln(stderr, line)
			if *maxRequests > 0 && n >= *maxRequests {
				once.Do(func() { close(enough) })
			}
		}})
	if err != nil {
		if keeper != nil {
			_, _ = keeper.Close()
		}
		return 0, err
	}
	fmt.Fprintf(stdout, "listening on %s\n", srv.URL())
	if up != nil {
		fmt.Fprintf(stderr, "hookctl: forwarding to profile %s (%s, model %s)\n", up.Profile, up.Host(), up.Model)
	}
	if *recipeOf != "" {
		printRecipe(stderr, howTo.For(srv.URL(), ""))
	}
	if f, ok := stdout.(*os.File); ok {
		_ = f.Sync()
	}
	select {
	case <-ctx.Done():
	case <-enough:
	}
	if err := srv.Close(); err != nil {
		return 0, err
	}
	calls := srv.Calls()
	doc := captureDoc{Capture: true, BaseURL: srv.URL(), Status: "ok", Requests: []captureRequestDoc{{LLMCalls: calls}}}
	if calls == nil {
		doc.Requests[0].LLMCalls = []capture.Call{}
	}
	if keeper != nil {
		// the last calls saved (the app's History opens the run in the simulator's views)
		if _, err := keeper.Close(); err != nil {
			fmt.Fprintf(stderr, "hookctl: warning: %v\n", err)
		}
	}
	if *saveScenario != "" {
		if err := writeCaptureScenario(*saveScenario, calls, stderr); err != nil {
			return 0, err
		}
	}
	if *jsonFile == "" {
		return exitOK, writeJSON(stdout, doc)
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := atomicfile.Write(*jsonFile, append(data, '\n'), 0o644); err != nil {
		return 0, fmt.Errorf("write %s: %w", *jsonFile, err)
	}
	fmt.Fprintf(stderr, "hookctl: %d request(s) captured into %s\n", len(calls), *jsonFile)
	return exitOK, nil
}

// writeCaptureScenario saves the capture as a scenario file (its mock
// replays the recorded answers), saying what it does not replay.
func writeCaptureScenario(path string, calls []capture.Call, stderr io.Writer) error {
	data, notes, err := capture.ScenarioYAML(capture.Name(calls), calls)
	for _, n := range notes {
		fmt.Fprintf(stderr, "hookctl: note: %s\n", n)
	}
	if err != nil {
		return fmt.Errorf("save the capture as a scenario: %w", err)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(stderr, "hookctl: the capture saved as scenario %s (hookctl simulate %s replays it)\n", path, path)
	return nil
}

// lockedWriter serializes writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
