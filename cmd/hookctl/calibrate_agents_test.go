package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/agentdata/profile"
)

// pinnedAgents are the other agent CLIs tools/agents pins, each the source
// of the bundled profile of its version.
var pinnedAgents = []struct{ agent, version, rel string }{
	{"codex", "0.171.0", "node_modules/.bin/codex"},
	{"gemini-cli", "0.61.0", "node_modules/.bin/gemini"},
	{"qwen-code", "0.24.4", "node_modules/.bin/qwen"},
	{"copilot-cli", "1.0.102", "node_modules/.bin/copilot"},
}

// TestRealAgentCalibrateAgents: calibrating Codex CLI, Gemini CLI, Qwen
// Code and Copilot CLI (each run from its recipe against an in-process
// capture with a probe project of its hook dialect) gives the bundled
// profile of its pinned version back, byte for byte (-update writes them:
// that is how those bundled profiles are made). Beside the other agents'
// runs.
func TestRealAgentCalibrateAgents(t *testing.T) {
	t.Parallel()
	for _, c := range pinnedAgents {
		t.Run(c.agent, func(t *testing.T) {
			cli := agentTool(t, c.rel)
			t.Parallel()
			data := t.TempDir()
			out, errOut, code := runCLIEnv(t, []string{"HOOKSTUDIO_DATA_DIR=" + data}, "calibrate", c.agent, "--cli", cli, "--json")
			if code != exitOK {
				t.Fatalf("calibrate: exit %d\n%s", code, errOut)
			}
			var res struct {
				File string `json:"file"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if res.File != profile.Path(data, c.agent, c.version) {
				t.Fatalf("saved to %s, want the pinned version's %s", res.File, profile.Path(data, c.agent, c.version))
			}
			got, err := os.ReadFile(res.File)
			if err != nil {
				t.Fatal(err)
			}
			bundled := filepath.Join("..", "..", "app", "agentdata", "profile", "bundled", c.agent, c.version+".json")
			if *update {
				if err := os.WriteFile(bundled, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(bundled)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("calibrating %s %s gives another profile than the bundled one (go test -run RealAgentCalibrateAgents -update rewrites it):\n%s", c.agent, c.version, got)
			}
		})
	}
}
