package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/platform/otelexport"
)

// attachHooks adds the folder's executable hooks a run reaches to cfg,
// request hooks (seed 004) innermost with the scenario's request_policy
// and scripted attempts; a run that has none stays as it was.
func attachHooks(hooks *hooksets.Set, cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if c, err := tokens.NewCounter(); err == nil {
		run.Tokens = c
	}
	return hooks.Attach(cfg, run)
}

// checkOTLP validates --otlp before anything runs.
func checkOTLP(url string) error {
	if url == "" {
		return nil
	}
	if _, err := otelexport.Endpoint(url); err != nil {
		return fmt.Errorf("%w: --otlp: %v", errUsage, err)
	}
	return nil
}

// exportOTLP sends the run to the collector; a failure is reported and
// makes the exit status 1.
func exportOTLP(ctx context.Context, stderr io.Writer, url string, run otelexport.Run) bool {
	if url == "" {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := otelexport.Export(ctx, run, url); err != nil {
		fmt.Fprintf(stderr, "hookctl: %v\n", err)
		return false
	}
	fmt.Fprintf(stderr, "hookctl: trace sent to %s\n", url)
	return true
}
