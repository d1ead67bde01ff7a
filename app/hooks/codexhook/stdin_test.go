package codexhook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/hooktest"
	"hookstudio/app/hooks/skills"
)

// noHooks are a run's prompt hooks: none.
type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// TestStdinOrder: under a calibrated request model a hook reads its
// stdin's keys in the order the CLI was seen to write them.
func TestStdinOrder(t *testing.T) {
	root := hooktest.Project(t, map[string]string{HooksFile: `{"hooks": {
 "SessionStart": [{"hooks": [{"type": "command", "command": "cat > ss.json"}]}]
}}`})
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sc := hooktest.Scenario(t, "name: t\nrequests:\n  - user: go\n    rounds:\n      - content: done\n")
	h, err := New(Options{Config: cfg, Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	m := &request.Model{Agent: "codex", Version: "1", API: request.Responses, Turn: []request.Part{{Prompt: true}},
		Stdin: map[string][]string{SessionStart: {"cwd", "hook_event_name", "session_id"}}}
	if _, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}, Request: m}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "ss.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"cwd":`) || !strings.Contains(string(data), `"hook_event_name":"SessionStart","session_id":`) {
		t.Errorf("SessionStart's stdin is not in the model's order: %s", data)
	}
}
