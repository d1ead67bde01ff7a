// Hook Studio: a desktop app that shows, step by step, which messages an
// LLM agent's model receives as skill hooks are injected and removed.
package main

import (
	"context"
	"embed"
	"io/fs"
	"log"
	"sync"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/services/bind"
	"hookstudio/app/services/calibration"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
	"hookstudio/app/store/layout"
	"hookstudio/app/store/winstate"
	examples "hookstudio/skills"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

func main() {
	dataDir, err := studio.DefaultDataDir()
	if err != nil {
		log.Fatal(err)
	}
	counter, err := tokens.NewCounter()
	if err != nil {
		log.Fatal(err)
	}
	emitter := &bind.Emitter{}
	// The settings' request policy (seed 004); a damaged file is reported and left empty.
	reqPolicy, err := studio.LoadRequestPolicy(dataDir)
	if err != nil {
		log.Printf("hook studio: %v", err)
	}
	// The settings' user-level hooks.yaml; a damaged setting is reported and left empty.
	userHooks, err := studio.LoadUserHooks(dataDir)
	if err != nil {
		log.Printf("hook studio: %v", err)
	}
	// Which Claude Code version runs render as, and the profiles known; a damaged setting is reported and left automatic.
	agents, err := studio.LoadAgents(dataDir)
	if err != nil {
		log.Printf("hook studio: %v", err)
	}
	// Every hook system Hook Studio hosts; command hook results are reused
	// between runs whose input and files did not change.
	hooks := hooksets.Registry(hooksets.RegistryOptions{ReuseResults: true, Policy: reqPolicy.Policy})
	cfg := studio.Config{DataDir: dataDir, Examples: examples.FS, Tokens: counter, Emit: emitter.Emit,
		Hooks: hooks, ExecHooks: studio.HooksetsLoader(hooks, userHooks), Agents: agents}
	// The app works without its history: a database that cannot be opened
	// at all is reported and left alone.
	store, err := history.Open(context.Background(), history.DefaultPath(dataDir))
	if err != nil {
		log.Printf("hook studio: run history unavailable: %v", err)
	} else {
		defer store.Close()
		cfg.History = store
		// a capture killed before its run was rebuilt from its calls
		if _, err := capture.Recover(context.Background(), store, counter); err != nil {
			log.Printf("hook studio: %v", err)
		}
	}
	// Search across every run and session (search.db in the data folder),
	// indexed in the background once asked; a run kept is indexed as it is.
	searchBinding := bind.NewSearch(emitter.Emit, store, dataDir)
	if err := bind.SearchErr(searchBinding); err != nil {
		log.Printf("hook studio: search unavailable: %v", err)
	}
	emit := bind.ObserveRuns(searchBinding, emitter.Emit)
	cfg.Emit = emit
	svc, err := studio.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	if store != nil && store.Recovered != nil {
		svc.Notify(store.Recovered.Message())
	}
	studioBinding := bind.NewStudio(svc)
	bind.UseUserHooks(studioBinding, userHooks)
	bind.UseAgents(studioBinding, agents)
	agentsBinding := bind.NewAgents(calibration.New(emitter.Emit, dataDir, agents.Catalog(), agents.Finder())) // Settings ▸ Agents
	historyBinding := bind.NewHistory(store, counter)
	var eventSource bind.EventSource // stored runs' events; none without a history
	if store != nil {
		eventSource = store
	}
	opsBinding := bind.NewOps(studio.NewOperations(svc), eventSource) // controlled runs: events, control, approvals
	// The request inspector's stored runs; none without a history.
	var storedRuns bind.RunLoader
	if store != nil {
		storedRuns = store
	}
	requestsBinding := bind.NewRequests(svc, storedRuns).WithPolicy(reqPolicy)
	captureBinding := bind.NewCapture(emit, store, counter).WithProfiles(svc.Profiles) // the app as a real agent's model endpoint
	bind.UseCaptureAgents(captureBinding, agents.Catalog())                            // agents' hook texts: bundled and calibrated rendering profiles
	sessionsBinding := bind.NewSessions(emit, store, counter, dataDir)                 // the agents' own sessions, imported
	bind.UseSearch(sessionsBinding, searchBinding)                                     // listing them indexes them for the search
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		log.Fatal(err)
	}

	// The window opens as it was last placed, or fitting the smallest
	// screen, and is fitted to its real screen once it exists.
	winPath := winstate.DefaultPath(dataDir)
	last, saved, err := winstate.Load(winPath)
	if err != nil {
		log.Printf("hook studio: %v", err)
	}
	initial := winstate.Initial(last, saved)
	var placeOnce sync.Once

	err = wails.Run(&options.App{
		Title:       "Hook Studio",
		Width:       initial.Width,
		Height:      initial.Height,
		MinWidth:    winstate.Min.Width,
		MinHeight:   winstate.Min.Height,
		AssetServer: &assetserver.Options{Assets: dist},
		Linux:       &linux.Options{Icon: icon, ProgramName: "hookstudio"},
		OnStartup: func(ctx context.Context) {
			emitter.Start(ctx)
			bind.StartHistory(ctx, historyBinding)
			bind.StartRequests(ctx, requestsBinding)
			bind.StartSessions(ctx, sessionsBinding)
			bind.StartSearch(ctx, searchBinding)
			if err := bind.Start(ctx, studioBinding, bind.NativeWindow{Ctx: ctx}); err != nil {
				log.Printf("hook studio: %v", err)
			}
		},
		OnDomReady: func(ctx context.Context) {
			placeOnce.Do(func() { bind.RestoreWindow(ctx, winPath) })
		},
		OnBeforeClose: func(ctx context.Context) bool {
			if bind.BeforeClose(studioBinding) {
				return true // the user kept the window open
			}
			bind.RememberWindow(ctx, winPath)
			return false
		},
		OnShutdown: func(context.Context) {
			bind.StopCapture(captureBinding)
			bind.StopSessions(sessionsBinding)
			bind.StopSearch(searchBinding)
			bind.StopOps(opsBinding)
			bind.Stop(studioBinding)
			bind.StopAgents(agentsBinding) // a calibration running ends, its CLI with it
		},
		Bind: []any{studioBinding, historyBinding, opsBinding, bind.NewAbout(), requestsBinding, bind.NewLayout(layout.DefaultPath(dataDir)), captureBinding, agentsBinding, sessionsBinding, searchBinding},
	})
	if err != nil {
		log.Fatal(err)
	}
}
