package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// logFixtures are logs the pinned Gemini CLI, Qwen Code and Copilot CLI
// wrote, run offline against hookctl capture by cmd/hookctl's
// TestRealAgentLogSessions (-update), their agents' own texts and the
// machine's paths scrubbed; each with what the capture saw, the messages
// the log cannot hold marked.
var logFixtures = []struct {
	name    string
	agent   Agent
	version string // as the log says ("": it does not)
}{
	{"gemini-cli-0.61.0", GeminiCLI, ""},
	{"qwen-code-0.24.4", QwenCode, "0.24.4"},
	{"copilot-cli-1.0.102", CopilotCLI, "1.0.102"},
}

type loggedMessage struct {
	Role       string `json:"role"`
	Origin     string `json:"origin"`
	Hook       string `json:"hook"`
	Content    string `json:"content_sha256"`
	Unrecorded bool   `json:"unrecorded"`
}

// TestLogFixtures: no log of these records its requests, yet each call's
// list rebuilt from the log is the list the capture got, message for
// message, each hook's words attributed to their hook — but for the
// messages the agent does not write to its log (marked by the real-agent
// test); each import is told from the file alone and notes what it rebuilt.
func TestLogFixtures(t *testing.T) {
	for _, fx := range logFixtures {
		t.Run(fx.name, func(t *testing.T) {
			im := importFixture(t, fx.name, Options{})
			s := im.Session()
			tr := mustTrace(t, im)
			data, err := os.ReadFile(filepath.Join("testdata", fx.name+".capture.json"))
			if err != nil {
				t.Fatal(err)
			}
			var captured struct {
				Calls []struct {
					Messages []loggedMessage `json:"messages"`
				} `json:"calls"`
			}
			if err := json.Unmarshal(data, &captured); err != nil {
				t.Fatal(err)
			}
			if s.Agent != fx.agent || s.Version != fx.version || len(tr.Calls) != len(captured.Calls) || !hasNote(s, NoteRebuilt, 0) || s.Prompt != "clean the build folder" {
				t.Fatalf("%s %q (%q): %d calls, the capture %d; notes %v", s.Agent, s.Version, s.Prompt, len(tr.Calls), len(captured.Calls), s.Notes)
			}
			recorded := 0
			for k, c := range captured.Calls {
				if s.Calls[k].Exact {
					t.Errorf("call %d: exact", k+1)
				}
				var want []loggedMessage
				for _, m := range c.Messages {
					if !m.Unrecorded {
						want = append(want, m)
					}
				}
				recorded += len(want)
				got := tr.CallMessages(k)
				if len(got) != len(want) {
					t.Errorf("call %d: %d messages, the capture %d the log holds", k+1, len(got), len(want))
					continue
				}
				for i, w := range want {
					if got[i].Role != w.Role || sum(got[i].Content) != w.Content || byHook(got[i]) != (w.Origin == "hook") || !sameLabel(hookEvent(tr, got[i]), w.Hook) {
						t.Errorf("call %d message %d: %s %.60q hook %v %s; the capture: %s %s… %s %s", k+1, i, got[i].Role, got[i].Content, byHook(got[i]),
							hookEvent(tr, got[i]), w.Role, w.Content[:8], w.Origin, w.Hook)
					}
				}
			}
			if recorded == 0 {
				t.Fatal("the capture has no message the log holds: the fixture proves nothing")
			}
			checkGolden(t, fx.name, account(t, s, tr))
		})
	}
}
