package calibrate

import (
	"context"
	"os"
	"testing"

	"hookstudio/app/agentdata/request"
)

func TestDevRequestClaude(t *testing.T) {
	cli := os.Getenv("HS_DEV_CLI")
	if cli == "" {
		t.Skip("HS_DEV_CLI")
	}
	agent := os.Getenv("HS_DEV_AGENT")
	if agent == "" {
		agent = "claude-code"
	}
	m, err := Request(context.Background(), Options{Agent: agent, CLI: cli, Progress: func(p Progress) { t.Logf("%+v", p) }})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(os.Getenv("HS_DEV_OUT"), request.Encode(m), 0o644)
}
