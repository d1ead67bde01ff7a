package sessions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The fixtures: transcripts both pinned Claude Code versions wrote, run
// offline against hookctl capture by cmd/hookctl's
// TestRealAgentClaudeCodeSessions (-update), scrubbed of that machine; each
// with what the capture saw (<name>.capture.json).
var claudeFixtures = []struct {
	name  string
	exact bool
}{
	{"claude-code-2.1.197", false},
	{"claude-code-2.1.332", true},
}

// codexFixture is a rollout the pinned Codex CLI wrote, run the same way
// (cmd/hookctl's TestRealAgentCodexSessions).
const codexFixture = "codex-0.171.0"

type capturedCall struct {
	Body     string `json:"body_sha256"`
	Messages []struct {
		Role    string `json:"role"`
		Origin  string `json:"origin"`
		Hook    string `json:"hook"`
		Content string `json:"content_sha256"`
	} `json:"messages"`
}

func readCaptured(t *testing.T, name string) []capturedCall {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".capture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Calls []capturedCall `json:"calls"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Calls
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// bodySum is a body's hash as the fixture keeps it: re-encoded with sorted keys.
func bodySum(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("body: %v", err)
	}
	out, _ := json.Marshal(v)
	return sum(string(out))
}

func importFixture(t *testing.T, name string, opts Options) *Importer {
	t.Helper()
	im, err := ImportFile(context.Background(), filepath.Join("testdata", name+".jsonl"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func byHook(m engine.Message) bool { return m.Origin == engine.OriginHook || m.EditedBy != "" }

// hookEvent is the event of the hook that wrote m ("" none).
func hookEvent(tr *engine.Trace, m engine.Message) string {
	if m.HookCall == nil {
		return ""
	}
	return tr.HookCalls[*m.HookCall].Event
}

// TestClaudeCodeFixtures: the calls of each pinned version's transcript are
// the calls the capture saw. 2.1.332 records its requests: each body
// rebuilt from the transcript is the body sent, and each message list the
// capture's, message for message, the hooks' words attributed to hooks.
// 2.1.197 does not: its lists are rebuilt from the records, and each holds
// every hook's words the model read.
func TestClaudeCodeFixtures(t *testing.T) {
	for _, fx := range claudeFixtures {
		t.Run(fx.name, func(t *testing.T) {
			bodies := map[int][]byte{}
			im := importFixture(t, fx.name, Options{OnRequest: func(k int, b []byte) { bodies[k] = b }})
			s := im.Session()
			tr, err := im.Trace()
			if err != nil {
				t.Fatal(err)
			}
			captured := readCaptured(t, fx.name)
			if len(s.Calls) != len(captured) || len(tr.Calls) != len(captured) {
				t.Fatalf("%d calls (%d in the trace), the capture saw %d", len(s.Calls), len(tr.Calls), len(captured))
			}
			for k, want := range captured {
				got := tr.CallMessages(k)
				if s.Calls[k].Exact != fx.exact {
					t.Errorf("call %d: exact %v", k+1, s.Calls[k].Exact)
				}
				if !fx.exact {
					for _, w := range want.Messages {
						if w.Origin == capture.OriginHook && !slices.ContainsFunc(got, func(m engine.Message) bool {
							return sum(m.Content) == w.Content && byHook(m) && sameLabel(hookEvent(tr, m), w.Hook)
						}) {
							t.Errorf("call %d: a hook's words the model read (%s %s… of %s) are not its hook's message in the rebuilt list", k+1, w.Role, w.Content[:8], w.Hook)
						}
					}
					continue
				}
				if bodySum(t, bodies[k]) != want.Body {
					t.Errorf("call %d: the body rebuilt from the transcript is not the body sent", k+1)
				}
				if len(got) != len(want.Messages) {
					t.Errorf("call %d: %d messages, the capture %d", k+1, len(got), len(want.Messages))
					continue
				}
				for i, w := range want.Messages {
					if got[i].Role != w.Role || sum(got[i].Content) != w.Content || byHook(got[i]) != (w.Origin == capture.OriginHook) ||
						!sameLabel(hookEvent(tr, got[i]), w.Hook) {
						t.Errorf("call %d message %d: %s %q hook %v %s; the capture: %s %s… %s", k+1, i, got[i].Role, got[i].Content, byHook(got[i]),
							hookEvent(tr, got[i]), w.Role, w.Content[:8], w.Hook)
					}
				}
			}
			// a hook that said nothing the model read is a step where it
			// fired, not ahead of the rest: the session's first hook step
			// is its SessionStart
			for _, st := range tr.Steps() {
				if st.HookCall != nil {
					if !strings.HasPrefix(st.HookCall.Event, "SessionStart") {
						t.Errorf("the first hook step is %s's, not SessionStart's", st.HookCall.Event)
					}
					break
				}
			}
			checkGolden(t, fx.name, account(t, s, tr))
		})
	}
}

// TestClaudeCodeReadAsCapture: each request rebuilt from the 2.1.332
// transcript, sent to a capture endpoint, is read there as the import read
// it — message for message, each hook's words its event's — whatever
// capture's reading is today (the fixtures' .capture.json is what it was
// when the real CLI ran): the importer reads with capture's own reader.
func TestClaudeCodeReadAsCapture(t *testing.T) {
	var bodies [][]byte
	im := importFixture(t, "claude-code-2.1.332", Options{OnRequest: func(_ int, b []byte) { bodies = append(bodies, b) }})
	tr := mustTrace(t, im)
	script, err := capture.ParseScript("answers.yaml", []byte("answers:\n"+strings.Repeat("  - content: ok\n", len(bodies))))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := capture.Listen(capture.Options{Answerer: script})
	if err != nil {
		t.Fatal(err)
	}
	for k, body := range bodies {
		res, err := http.Post(srv.URL()+"/v1/messages", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("request %d: capture answered %s", k+1, res.Status)
		}
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	calls := srv.Calls()
	if len(calls) != len(tr.Calls) || len(calls) == 0 {
		t.Fatalf("capture read %d calls, the import has %d", len(calls), len(tr.Calls))
	}
	for k, c := range calls {
		got := tr.CallMessages(k)
		if len(got) != len(c.Messages) {
			t.Errorf("call %d: %d messages, the capture %d", k+1, len(got), len(c.Messages))
			continue
		}
		for i, w := range c.Messages {
			if got[i].Role != w.Role || got[i].Content != w.Content || byHook(got[i]) != (w.Origin == capture.OriginHook) || !sameLabel(hookEvent(tr, got[i]), w.Hook) {
				t.Errorf("call %d message %d: %s %.60q hook %q; the capture: %s %.60q %s %q", k+1, i, got[i].Role, got[i].Content, hookEvent(tr, got[i]),
					w.Role, w.Content, w.Origin, w.Hook)
			}
		}
	}
}

// TestCodexFixture: Codex records no request, yet each call's list rebuilt
// from the rollout's items is the list the capture got, message for
// message, with the hooks' words attributed to their hooks — but the system
// prompt: the rollout keeps Codex's base instructions, which it trims
// before sending.
func TestCodexFixture(t *testing.T) {
	im := importFixture(t, codexFixture, Options{})
	s := im.Session()
	tr := mustTrace(t, im)
	captured := readCaptured(t, codexFixture)
	if s.Agent != Codex || s.Version != "0.171.0" || len(tr.Calls) != len(captured) || !hasNote(s, NoteRebuilt, 0) {
		t.Fatalf("%s %s: %d calls, the capture %d; notes %v", s.Agent, s.Version, len(tr.Calls), len(captured), s.Notes)
	}
	for k, want := range captured {
		got := tr.CallMessages(k)
		if len(got) != len(want.Messages) || s.Calls[k].Exact {
			t.Errorf("call %d: %d messages (exact %v), the capture %d", k+1, len(got), s.Calls[k].Exact, len(want.Messages))
			continue
		}
		for i, w := range want.Messages {
			same := sum(got[i].Content) == w.Content || (i == 0 && got[i].Origin == engine.OriginSystemPrompt && w.Origin == capture.OriginSystem)
			if got[i].Role != w.Role || !same || byHook(got[i]) != (w.Origin == capture.OriginHook) || !sameLabel(hookEvent(tr, got[i]), w.Hook) {
				t.Errorf("call %d message %d: %s %.60q hook %v %s; the capture: %s %s… %s", k+1, i, got[i].Role, got[i].Content, byHook(got[i]),
					hookEvent(tr, got[i]), w.Role, w.Content[:8], w.Hook)
			}
		}
	}
	checkGolden(t, codexFixture, account(t, s, tr))
}

// account is what the golden files pin of an import: the session, and per
// call and hook step what the trace says.
func account(t *testing.T, s Session, tr *engine.Trace) []byte {
	t.Helper()
	s.File = filepath.Base(s.File)
	for i := range s.Calls {
		s.Calls[i].Params = nil // pinned whole by the bodies
		s.Calls[i].Tools = []string{strings.Join(s.Calls[i].Tools, ",")}
	}
	type call struct {
		Model    string   `json:"model"`
		Answer   string   `json:"answer"`
		Tools    []string `json:"tool_calls,omitempty"`
		Messages []string `json:"messages"`
	}
	type step struct {
		Kind    string   `json:"kind"`
		Hook    string   `json:"hook,omitempty"`
		Outcome string   `json:"outcome,omitempty"`
		Exit    *int     `json:"exit,omitempty"`
		Changes []string `json:"changes,omitempty"`
		Added   int      `json:"added"`
		Removed int      `json:"removed"`
	}
	var doc struct {
		Session Session `json:"session"`
		Calls   []call  `json:"calls"`
		Steps   []step  `json:"steps"`
	}
	doc.Session = s
	for k, c := range tr.Calls {
		cc := call{Model: c.Model, Answer: c.Content}
		for _, tc := range c.ToolCalls {
			cc.Tools = append(cc.Tools, tc.Name)
		}
		for _, m := range tr.CallMessages(k) {
			tag := m.Role + " " + string(m.Origin)
			if m.System != "" {
				tag += " [" + m.System + "/" + firstOf(m.Hook, m.EditedBy) + "]"
			}
			cc.Messages = append(cc.Messages, tag+" "+cutRunes(strings.ReplaceAll(m.Content, "\n", "⏎"), 60))
		}
		doc.Calls = append(doc.Calls, cc)
	}
	for _, st := range tr.Steps() {
		sp := step{Kind: string(st.Kind), Added: len(st.Added), Removed: len(st.Removed)}
		if hc := st.HookCall; hc != nil {
			sp.Hook, sp.Outcome, sp.Exit, sp.Changes = hc.Event+" "+hc.Hook, string(hc.Outcome), hc.ExitCode, hc.Changes
		}
		doc.Steps = append(doc.Steps, sp)
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the import (go test -update rewrites it):\n%s", path, got)
	}
}

func fixtureLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
}

func importText(t *testing.T, text string) *Importer {
	t.Helper()
	im := NewImporter("session.jsonl", Options{})
	_, _ = im.Write([]byte(text))
	return im
}

func hasNote(s Session, kind string, line int) bool {
	return slices.ContainsFunc(s.Notes, func(n Note) bool { return n.Kind == kind && (line == 0 || n.Line == line) })
}

// TestBadInput: what cannot be read is a note saying where, never a failed
// import, and never quotes the line (a transcript holds what tools
// printed, keys and all).
func TestBadInput(t *testing.T) {
	lines := fixtureLines(t, "claude-code-2.1.332")
	whole := importText(t, strings.Join(lines, ""))
	calls := len(whole.Session().Calls)
	secret := "sk-ant-api03-NOTINANYNOTE"

	t.Run("the last line still being written", func(t *testing.T) {
		last := lines[len(lines)-1]
		im := importText(t, strings.Join(lines[:len(lines)-1], "")+last[:len(last)/2])
		im.Finish()
		s := im.Session()
		if !hasNote(s, NoteTruncated, len(lines)) {
			t.Errorf("notes %v", s.Notes)
		}
		if _, err := im.Trace(); err != nil {
			t.Fatal(err)
		}
		// the rest of the line arrives: read once, the note gone
		_, _ = im.Write([]byte(last[len(last)/2:] + "\n"))
		if s := im.Session(); hasNote(s, NoteTruncated, 0) || s.Lines != len(lines) {
			t.Errorf("after the line ended: %d lines, notes %v", s.Lines, s.Notes)
		}
	})
	t.Run("a line that is not JSON", func(t *testing.T) {
		bad := slices.Insert(slices.Clone(lines), 5, `{"type":"user","message":{"content":"`+secret+"\n")
		im := importText(t, strings.Join(bad, ""))
		s := im.Session()
		if !hasNote(s, NoteNotJSON, 6) || len(s.Calls) != calls {
			t.Errorf("%d calls, notes %v", len(s.Calls), s.Notes)
		}
		if data, _ := json.Marshal(s.Notes); strings.Contains(string(data), secret) {
			t.Error("a note quotes the line")
		}
	})
	t.Run("a blob missing", func(t *testing.T) {
		var cut []string
		dropped := ""
		for _, l := range lines {
			if dropped == "" && strings.Contains(l, `"type":"api-request-blob"`) && strings.Contains(l, "post context one") {
				dropped = l
				continue
			}
			cut = append(cut, l)
		}
		if dropped == "" {
			t.Fatal("the fixture has no blob of the PostToolUse context")
		}
		im := importText(t, strings.Join(cut, ""))
		s := im.Session()
		var at int
		for i, l := range cut {
			if strings.Contains(l, `"type":"api-request"`) && i > slices.Index(lines, dropped)-1 {
				at = i + 1
				break
			}
		}
		if !hasNote(s, NoteMissingBlob, at) || len(s.Calls) != calls {
			t.Fatalf("%d calls, notes %v (want one at line %d)", len(s.Calls), s.Notes, at)
		}
		tr, err := im.Trace()
		if err != nil {
			t.Fatal(err)
		}
		msgs := tr.CallMessages(1)
		if !slices.ContainsFunc(msgs, func(m engine.Message) bool { return strings.HasPrefix(m.Content, "[not in the transcript") }) {
			t.Error("no placeholder where the blob's message was")
		}
	})
	t.Run("record types the importer does not know", func(t *testing.T) {
		odd := slices.Clone(lines)
		for _, at := range []int{3, 10, 20} {
			odd = slices.Insert(odd, at, `{"type":"brand-new-record","sessionId":"x","payloadish":{"a":1}}`+"\n")
		}
		odd = slices.Insert(odd, 4, `{"type":"attachment","attachment":{"type":"brand_new_attachment","x":1},"uuid":"u1","parentUuid":null}`+"\n")
		s := importText(t, strings.Join(odd, "")).Session()
		if len(s.Calls) != calls {
			t.Errorf("%d calls", len(s.Calls))
		}
		var kinds []string
		for _, u := range s.Unknown {
			kinds = append(kinds, u.String())
		}
		if !slices.Contains(kinds, "3 records of type brand-new-record not shown (lines 4, 12, 22)") ||
			!slices.Contains(kinds, "1 record of type attachment/brand_new_attachment not shown (line 5)") {
			t.Errorf("unknown: %q", kinds)
		}
		if u := s.Unknown[0]; !json.Valid(u.Sample) {
			t.Error("the first unknown record is not kept")
		}
	})
}

// TestReadInPieces: a transcript read as it is written, in pieces of any
// size, imports as the whole file does.
func TestReadInPieces(t *testing.T) {
	names := []string{codexFixture}
	for _, fx := range claudeFixtures {
		names = append(names, fx.name)
	}
	for _, fx := range logFixtures {
		names = append(names, fx.name) // Gemini CLI's answers written again whole, by id
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		whole := importText(t, string(data))
		want := record(t, whole)
		for _, size := range []int{1, 7, 100, 4096} {
			im := NewImporter("session.jsonl", Options{})
			for i := 0; i < len(data); i += size {
				_, _ = im.Write(data[i:min(i+size, len(data))])
				if i%(size*50) == 0 {
					_, _ = im.Trace() // looked at midway, as the app does while following
				}
			}
			if got := record(t, im); got != want {
				t.Errorf("%s in pieces of %d bytes: another trace", name, size)
			}
			if !slices.EqualFunc(im.Session().Calls, whole.Session().Calls, func(a, b CallInfo) bool { return a.Exact == b.Exact && a.Line == b.Line }) {
				t.Errorf("%s in pieces of %d bytes: other calls", name, size)
			}
		}
	}
}

func record(t *testing.T, im *Importer) string {
	t.Helper()
	tr, err := im.Trace()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(tr.Record())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestScrubKeepsRequests: a transcript scrubbed of a key imports as the
// original does, each recorded request rebuilt whole with the key
// replaced in it.
func TestScrubKeepsRequests(t *testing.T) {
	name := "claude-code-2.1.332"
	var orig []string
	importFixture(t, name, Options{OnRequest: func(_ int, b []byte) { orig = append(orig, string(b)) }})
	in, err := os.Open(filepath.Join("testdata", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	rep := strings.NewReplacer("SESSIONSECRET", "SCRUBBEDKEY")
	if err := Scrub(in, &out, rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	im := NewImporter("scrubbed.jsonl", Options{OnRequest: func(_ int, b []byte) { got = append(got, string(b)) }})
	_, _ = im.Write(out.Bytes())
	if s := im.Session(); hasNote(s, NoteMissingBlob, 0) || len(got) != len(orig) {
		t.Fatalf("%d requests of %d, notes %v", len(got), len(orig), s.Notes)
	}
	for i := range orig {
		if want := rep.Replace(orig[i]); got[i] != want {
			t.Errorf("request %d differs from the original's with the key replaced", i+1)
		}
	}
	if !strings.Contains(strings.Join(got, ""), "SCRUBBEDKEY") {
		t.Error("no request holds the key: the test proves nothing")
	}
}

// TestClaudeCodeMultiParagraphContext: a hook's context of several
// paragraphs is read whole as the hook's, in a request rebuilt from the
// records (2.1.197) and in one the transcript keeps (2.1.332), as a
// capture reads it.
func TestClaudeCodeMultiParagraphContext(t *testing.T) {
	const one, more = "prompt context: the build folder is shared with CI", "\\n\\nand so is the cache.\\n\\n- item: kept too"
	for _, f := range claudeFixtures {
		t.Run(f.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", f.name+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(one)) {
				t.Fatalf("the fixture has no %q", one)
			}
			file := filepath.Join(t.TempDir(), f.name+".jsonl")
			if err := os.WriteFile(file, bytes.ReplaceAll(data, []byte(one), []byte(one+more)), 0o644); err != nil {
				t.Fatal(err)
			}
			im, err := ImportFile(context.Background(), file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tr := mustTrace(t, im)
			want := "UserPromptSubmit hook additional context: " + one + "\n\nand so is the cache.\n\n- item: kept too"
			found := false
			for _, m := range tr.CallMessages(0) {
				switch {
				case m.Content == want && byHook(m):
					found = true
				case strings.Contains(m.Content, "and so is the cache") || strings.Contains(m.Content, "item: kept too"):
					t.Errorf("a part of the hook's context read apart: %s %q", m.Origin, m.Content)
				}
			}
			if !found {
				t.Errorf("no hook message %q in %v", want, tr.CallMessages(0))
			}
		})
	}
}
