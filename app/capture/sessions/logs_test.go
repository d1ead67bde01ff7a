package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
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

// TestFollowLogs: a Gemini CLI, Qwen Code or Copilot CLI session being
// written is kept as it grows, as a Claude Code one is.
func TestFollowLogs(t *testing.T) {
	for _, fx := range logFixtures {
		t.Run(fx.name, func(t *testing.T) { followFixture(t, fx.name) })
	}
}

// layLogs puts the log fixtures where each CLI keeps its logs under root:
// Gemini CLI's tmp/<project>/chats/session-*.jsonl (beside .project_root),
// Qwen Code's projects/<project>/chats/<id>.jsonl, Copilot CLI's
// session-state/<id>/events.jsonl.
func layLogs(t *testing.T, root string) (Locations, map[Agent]string) {
	t.Helper()
	l := Locations{Gemini: filepath.Join(root, ".gemini", "tmp"), Qwen: filepath.Join(root, ".qwen", "projects"), Copilot: filepath.Join(root, ".copilot", "session-state")}
	at := map[Agent]string{
		GeminiCLI:  filepath.Join(l.Gemini, "project", "chats", "session-2026-11-29T04-36-08fc63b6.jsonl"),
		QwenCode:   filepath.Join(l.Qwen, "-home-user-project", "chats", "7ff4d44e.jsonl"),
		CopilotCLI: filepath.Join(l.Copilot, "7fc85094", "events.jsonl"),
	}
	for _, fx := range logFixtures {
		data, err := os.ReadFile(filepath.Join("testdata", fx.name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(at[fx.agent]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at[fx.agent], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(l.Gemini, "project", ".project_root"), []byte("/home/user/project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return l, at
}

// TestListAgentLogs: each CLI's logs are listed from where it keeps them,
// their summary (read without importing) what the import says.
func TestListAgentLogs(t *testing.T) {
	l, at := layLogs(t, t.TempDir())
	list, err := NewLister().List(context.Background(), l, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(logFixtures) {
		t.Fatalf("%d sessions listed: %+v", len(list), list)
	}
	for _, s := range list {
		im, err := ImportFile(context.Background(), s.File, Options{})
		if err != nil {
			t.Fatal(err)
		}
		is := im.Session()
		if s.File != at[s.Agent] || s.Agent != is.Agent || s.ID != is.ID || s.Version != is.Version || s.Project != is.Project || s.Project != "/home/user/project" ||
			s.Prompt != is.Prompt || s.Turns != is.Turns || s.Calls != len(is.Calls) || s.Model != is.Model || !s.Started.Equal(is.Started) || s.Started.IsZero() {
			t.Errorf("%s: listed %+v, imported %s %s %s %q %q turns %d calls %d %s %v", s.Agent, s, is.ID, is.Version, is.Project, is.Prompt, is.Model, is.Turns,
				len(is.Calls), is.Model, is.Started)
		}
		if len(s.Hooks) == 0 {
			t.Errorf("%s: no hook listed", s.Agent)
		}
	}
	for _, a := range []Agent{GeminiCLI, QwenCode, CopilotCLI} {
		if got, err := NewLister().List(context.Background(), l, Filter{Agent: a}); err != nil || len(got) != 1 || got[0].Agent != a {
			t.Errorf("--agent %s: %+v %v", a, got, err)
		}
	}
}

// TestUnknownFormat: a file no agent wrote is an error naming the file and
// the first line that says so, never a session with no call; a log whose
// first line is broken is still told by the lines after it.
func TestUnknownFormat(t *testing.T) {
	random := make([]byte, 3<<10)
	rng := rand.New(rand.NewPCG(35, 4))
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	lines := fixtureLines(t, "copilot-cli-1.0.102")
	for _, tc := range []struct {
		name string
		data []byte
		line int
	}{
		{"random bytes", random, 1},
		{"JSON of no agent", []byte(strings.Repeat(`{"hello":"world"}`+"\n", 20)), 1},
		{"two lines of no agent", []byte("\n\nnot json\n{\"type\":\"banana\"}\n"), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "x.jsonl")
			if err := os.WriteFile(file, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			im, err := ImportFile(context.Background(), file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = im.Trace()
			var fe *FormatError
			if !errors.Is(err, ErrUnknownFormat) || !errors.As(err, &fe) || fe.File != file || fe.Line != tc.line || !strings.Contains(err.Error(), file) {
				t.Errorf("%v (want a format error at %s:%d)", err, file, tc.line)
			}
			if _, err := Keep(context.Background(), openStore(t), im, nil); !errors.Is(err, ErrUnknownFormat) {
				t.Errorf("kept: %v", err)
			}
		})
	}
	t.Run("a broken first line", func(t *testing.T) {
		im := importText(t, "{\"type\":\"session.st\n"+strings.Join(lines[1:], ""))
		s := im.Session()
		if _, err := im.Trace(); err != nil || s.Agent != CopilotCLI || !hasNote(s, NoteNotJSON, 1) || len(s.Calls) != 4 {
			t.Errorf("%v: %s, %d calls, notes %v", err, s.Agent, len(s.Calls), s.Notes)
		}
	})
}

// TestNoTimestamps: a log none of whose records says when is kept at the
// file's last change, and a note says so.
func TestNoTimestamps(t *testing.T) {
	stamp := regexp.MustCompile(`"(timestamp|startTime)":"[^"]*",?`)
	file := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(file, []byte(stamp.ReplaceAllString(strings.Join(fixtureLines(t, "copilot-cli-1.0.102"), ""), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	if err := os.Chtimes(file, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	im, err := ImportFile(context.Background(), file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Session()
	if !s.Started.Equal(mtime) || !s.Ended.Equal(mtime) || !hasNote(s, NoteNoTime, 0) {
		t.Errorf("started %v ended %v, notes %v", s.Started, s.Ended, s.Notes)
	}
	st := openStore(t)
	id, err := Keep(context.Background(), st, im, nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := st.LoadRun(context.Background(), id)
	if err != nil || !run.Started.Equal(mtime) {
		t.Errorf("the run starts %v (%v)", run.Started, err)
	}
	sum, err := Summarize(FileRef{Agent: CopilotCLI, Path: file})
	if err != nil || !sum.Started.Equal(mtime) {
		t.Errorf("listed as started %v (%v)", sum.Started, err)
	}
}

// TestLogUnknownRecords: a record a log's reader does not know is counted
// and listed with its first sample, never a failed import, and the calls
// are those of the log without it.
func TestLogUnknownRecords(t *testing.T) {
	for _, tc := range []struct {
		fixture, record, kind string
	}{
		{"gemini-cli-0.61.0", `{"id":"x1","timestamp":"2026-11-29T05:00:00Z","type":"brand_new","content":"?"}`, "message/brand_new"},
		{"qwen-code-0.24.4", `{"uuid":"u1","parentUuid":null,"type":"brand_new","provenance":"x"}`, "brand_new"},
		{"qwen-code-0.24.4", `{"uuid":"u2","parentUuid":null,"type":"system","subtype":"brand_new","provenance":"system"}`, "system/brand_new"},
		{"copilot-cli-1.0.102", `{"type":"brand.new","data":{"x":1},"id":"e1","timestamp":"2026-11-29T05:00:00Z"}`, "brand.new"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			lines := fixtureLines(t, tc.fixture)
			whole := len(importText(t, strings.Join(lines, "")).Session().Calls)
			odd := slices.Insert(slices.Clone(lines), 3, tc.record+"\n")
			s := importText(t, strings.Join(odd, "")).Session()
			i := slices.IndexFunc(s.Unknown, func(u Unknown) bool { return u.Type == tc.kind })
			if i < 0 || s.Unknown[i].Count != 1 || s.Unknown[i].Lines[0] != 4 || !json.Valid(s.Unknown[i].Sample) || len(s.Calls) != whole {
				t.Errorf("%d calls (the log %d), unknown %+v", len(s.Calls), whole, s.Unknown)
			}
		})
	}
}

// TestGeminiListSetAgain: a Gemini CLI log whose list is set anew ($set
// messages, as a resumed or compressed chat writes it) holding answers it
// read before has no more calls for them; $rewindTo cuts the list, and the
// next answer's call is made from what is left.
func TestGeminiListSetAgain(t *testing.T) {
	lines := fixtureLines(t, "gemini-cli-0.61.0")
	lines[len(lines)-1] += "\n"
	whole := importText(t, strings.Join(lines, ""))
	var msgs []json.RawMessage
	for _, l := range lines {
		var probe struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		}
		if json.Unmarshal([]byte(l), &probe) == nil && probe.ID != "" {
			msgs = append(msgs, json.RawMessage(strings.TrimSpace(l)))
		}
	}
	set, _ := json.Marshal(map[string]any{"$set": map[string]any{"messages": msgs}})
	again := importText(t, strings.Join(lines, "")+string(set)+"\n")
	if s := again.Session(); len(s.Calls) != len(whole.Session().Calls) || hasNote(s, NoteNotJSON, 0) {
		t.Errorf("%d calls after the list was set again, %d before; notes %v", len(s.Calls), len(whole.Session().Calls), s.Notes)
	}
	// rewound to before the last answer, then answered anew
	var last struct {
		ID string `json:"id"`
	}
	for _, m := range msgs {
		var p struct {
			ID, Type string
		}
		_ = json.Unmarshal(m, &p)
		if p.Type == "gemini" {
			last.ID = p.ID
		}
	}
	rewind := fmt.Sprintf(`{"$rewindTo":%q}`+"\n"+`{"id":"new1","timestamp":"2026-11-29T06:00:00Z","type":"gemini","content":"again","model":"m"}`+"\n", last.ID)
	im := importText(t, strings.Join(lines, "")+rewind)
	tr := mustTrace(t, im)
	k := len(tr.Calls) - 1
	got := tr.CallMessages(k)
	if k != len(whole.Session().Calls) || tr.Calls[k].Content != "again" || len(got) == 0 || got[len(got)-1].Content == "No tests to run." {
		t.Errorf("after the rewind: %d calls, the last answering %q after %q", len(tr.Calls), tr.Calls[k].Content, got[len(got)-1].Content)
	}
}
