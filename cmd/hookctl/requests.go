package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"hookstudio/app/platform/otelexport"
)

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
