package capture_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/history"
)

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// A tool loop in each API: the first request, and the second with the
// scripted call and its result sent back.
var toolLoops = []struct {
	api           capture.API
	path          string
	first, second string
}{
	{capture.Anthropic, "/v1/messages",
		`{"model":"m","stream":true,"system":"You are an agent.","tools":[{"name":"run","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"list the files"}]}`,
		`{"model":"m","stream":true,"system":"You are an agent.","tools":[{"name":"run","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"list the files"},
		 {"role":"assistant","content":[{"type":"text","text":"Listing."},{"type":"tool_use","id":"toolu_01_1","name":"run","input":{"cmd":"ls"}}]},
		 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01_1","content":"a.go b.go"}]}]}`},
	{capture.OpenAI, "/v1/chat/completions",
		`{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"run"}}],"messages":[{"role":"system","content":"You are an agent."},{"role":"user","content":"list the files"}]}`,
		`{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"run"}}],"messages":[{"role":"system","content":"You are an agent."},{"role":"user","content":"list the files"},
		 {"role":"assistant","content":"Listing.","tool_calls":[{"id":"call_01_1","type":"function","function":{"name":"run","arguments":"{\"cmd\":\"ls\"}"}}]},
		 {"role":"tool","tool_call_id":"call_01_1","content":"a.go b.go"}]}`},
	{capture.Responses, "/v1/responses",
		`{"model":"m","stream":true,"tools":[{"type":"function","name":"run"}],"input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are an agent."}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"list the files"}]}]}`,
		`{"model":"m","stream":true,"tools":[{"type":"function","name":"run"}],"input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are an agent."}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"list the files"}]},
		 {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Listing."}]},{"type":"function_call","call_id":"call_01_1","name":"run","arguments":"{\"cmd\":\"ls\"}"},
		 {"type":"function_call_output","call_id":"call_01_1","output":"a.go b.go"}]}`},
	{capture.Gemini, "/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
		`{"systemInstruction":{"parts":[{"text":"You are an agent."}]},"tools":[{"functionDeclarations":[{"name":"run"}]}],"contents":[{"role":"user","parts":[{"text":"list the files"}]}]}`,
		`{"systemInstruction":{"parts":[{"text":"You are an agent."}]},"tools":[{"functionDeclarations":[{"name":"run"}]}],"contents":[{"role":"user","parts":[{"text":"list the files"}]},
		 {"role":"model","parts":[{"text":"Listing."},{"functionCall":{"id":"call_01_1","name":"run","args":{"cmd":"ls"}}}]},
		 {"role":"user","parts":[{"functionResponse":{"id":"call_01_1","name":"run","response":{"output":"a.go b.go"}}}]}]}`},
}

// TestSaveAsScenarioAndCompareEveryAPI: a tool loop captured in each of
// the four APIs is kept in the history; saved as a scenario from there,
// it simulates to the captured answers, tool call and result; and the
// history compares the capture with that simulation call by call.
func TestSaveAsScenarioAndCompareEveryAPI(t *testing.T) {
	for _, loop := range toolLoops {
		t.Run(string(loop.api), func(t *testing.T) {
			ctx := context.Background()
			store, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			sc, err := capture.ParseScript("a.yaml", []byte("answers:\n  - {content: Listing., tool_calls: [{name: run, arguments: {cmd: ls}}]}\n  - content: a.go and b.go\n"))
			if err != nil {
				t.Fatal(err)
			}
			keeper := capture.NewKeeper(store, nil, time.Now())
			srv, err := capture.Listen(capture.Options{Answerer: sc, Journal: keeper.Journal(), OnCall: keeper.Add})
			if err != nil {
				t.Fatal(err)
			}
			for _, body := range []string{loop.first, loop.second} {
				res, err := http.Post(srv.URL()+loop.path, "application/json", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					t.Fatalf("status %d", res.StatusCode)
				}
			}
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}
			runID, err := keeper.Close()
			if err != nil {
				t.Fatal(err)
			}
			calls, err := capture.CallsOfRun(ctx, store, runID, nil)
			if err != nil || len(calls) != 2 {
				t.Fatalf("calls of run %d: %v (%d)", runID, err, len(calls))
			}
			data, notes, err := capture.ScenarioYAML("captured", calls)
			if err != nil || len(notes) != 0 {
				t.Fatalf("%v %q", err, notes)
			}
			scn, diags := scenario.Parse("captured.yaml", data)
			for _, d := range diags {
				if d.Severity == "error" {
					t.Fatalf("%v\n%s", d, data)
				}
			}
			if scn.SystemPrompt != "You are an agent." || len(scn.Requests) != 1 || scn.Requests[0].User != "list the files" ||
				scn.Requests[0].Rounds[0].ToolCalls[0].Result != "a.go b.go" {
				t.Fatalf("scenario:\n%s", data)
			}
			sim, err := engine.Run(ctx, scn, noHooks{}, engine.Config{Model: llm.NewMock(scn)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range sim.Calls {
				if c.Phase == engine.PhaseAgent {
					s := c.Content
					for _, tc := range c.ToolCalls {
						args, _ := json.Marshal(tc.Arguments)
						s += " → " + tc.Name + string(args) + " = " + tc.Result
					}
					got = append(got, s)
				}
			}
			if want := `Listing. → run{"cmd":"ls"} = a.go b.go|a.go and b.go`; strings.Join(got, "|") != want {
				t.Errorf("simulated %q, want %q", got, want)
			}
			simID, err := store.SaveRun(ctx, history.RunInput{Trace: sim, ScenarioFile: "captured.yaml"})
			if err != nil {
				t.Fatal(err)
			}
			cmp, err := store.Compare(ctx, history.RunID(runID), simID)
			if err != nil {
				t.Fatal(err)
			}
			paired := 0
			for _, d := range cmp.Calls {
				if d.A != nil && d.B != nil {
					paired++
				}
			}
			if paired != 2 || cmp.A.Source != history.SourceCapture {
				t.Errorf("%d of the capture's calls paired with the simulation's: %+v", paired, cmp.Calls)
			}
		})
	}
}
