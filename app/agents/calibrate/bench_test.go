package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/agentdata/profile"
)

// BenchmarkCalibrate is one whole calibration of each pinned Claude Code
// CLI (tools/agents; skipped when not installed): its three runs of
// `claude -p` against the in-process capture and the derivation
// (docs/benchmarks.md).
func BenchmarkCalibrate(b *testing.B) {
	for _, c := range []struct{ version, rel string }{
		{"2.1.197", "node_modules/.bin/claude"},
		{"2.1.332", "node_modules/claude-code-2.1.332/bin/claude.exe"},
	} {
		b.Run(c.version, func(b *testing.B) {
			cli, _ := filepath.Abs(filepath.Join("..", "..", "..", "tools", "agents", c.rel))
			if _, err := os.Stat(cli); err != nil {
				b.Skipf("%s is not installed (scripts/setup.sh agents)", c.rel)
			}
			for b.Loop() {
				res, err := Run(context.Background(), Options{Agent: profile.ClaudeCode, CLI: cli})
				if err != nil || res.Profile.Version != c.version {
					b.Fatalf("%v", err)
				}
			}
		})
	}
}
