package capture

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agentdata/profile"
)

var updateAgents = flag.Bool("update", false, "rewrite testdata/agents/*.golden from what the reader gives")

// unreadable are hook texts nothing tells from the agent's own, by fixture:
// the hook's words alone where the agent's would be (a tool result, a new
// prompt) or joined to them with nothing between but a blank line.
var unreadable = map[string][]string{
	"qwen-code-0.24.4-deny":     {"DENY-REASON from PreToolUse"},     // the tool result is the reason
	"qwen-code-0.24.4-stop":     {"CTX-PostToolUse", "BLOCK-REASON"}, // "\n\nC" after the tool's output; the reason as the next prompt
	"qwen-code-0.24.4-tool":     {"CTX-PostToolUse"},
	"copilot-cli-1.0.102-stop":  {"BLOCK-REASON from agentStop"}, // the next prompt
	"gemini-cli-0.61.0-context": {"BLOCK-REASON from AfterAgent"},
}

// TestAgentReaderGolden: requests each agent CLI sent hookctl capture
// (testdata/agents: headers and body as sent, long texts clipped, tools
// left out), read with the agent's bundled profile. The hooks of those
// runs answered with marked words (CTX-<event>, DENY-REASON, BLOCK-REASON,
// EXIT2-STDERR, PLAIN-<event>): each must be origin hook with its event,
// and nothing else (docs/agents/).
func TestAgentReaderGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "agents", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	ar := NewAgentReader(profile.NewCatalog(""))
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			var fx struct {
				API     API               `json:"api"`
				Path    string            `json:"path"`
				Headers map[string]string `json:"headers"`
				Body    json.RawMessage   `json:"body"`
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &fx); err != nil {
				t.Fatal(err)
			}
			path, _, _ := strings.Cut(fx.Path, "?")
			gp, _ := parseGeminiPath(path)
			c := Call{API: fx.API, Path: fx.Path, Headers: fx.Headers}
			completeCall(&c, fx.Body, gp, nil, nil, false, ar)
			var b strings.Builder
			if c.Agent != nil {
				fmt.Fprintf(&b, "agent %s %s (by %s)\n", c.Agent.Name, c.Agent.Version, c.Agent.By)
			}
			for _, m := range c.Messages {
				text := m.Content
				if len(text) > 90 {
					text = text[:90] + "…"
				}
				fmt.Fprintf(&b, "%-9s %-13s %-28s %q\n", m.Role, m.Origin, m.Hook, text)
				marked := strings.Contains(m.Content, "CTX-") || strings.Contains(m.Content, "-REASON from") || strings.Contains(m.Content, "EXIT2-STDERR") || strings.Contains(m.Content, "PLAIN-")
				name := strings.TrimSuffix(filepath.Base(file), ".json")
				known := slices.ContainsFunc(unreadable[name], func(s string) bool { return strings.Contains(m.Content, s) })
				// Droid and Cline have no profile: their hook texts stay as read
				if marked && !known != (m.Origin == OriginHook) && !strings.Contains(file, "droid") && !strings.Contains(file, "cline") {
					t.Errorf("%s %q: origin %s, hook %q", m.Role, text, m.Origin, m.Hook)
				}
			}
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *updateAgents {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./app/capture -run TestAgentReaderGolden -update)", err)
			}
			if b.String() != string(want) {
				t.Errorf("read as\n%s\nwant\n%s", b.String(), want)
			}
		})
	}
}
