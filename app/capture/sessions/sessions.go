// Package sessions opens the sessions people already ran with a real agent
// — Claude Code's ~/.claude/projects/<project>/<session>.jsonl, Codex's
// rollouts under ~/.codex/sessions, Gemini CLI's
// ~/.gemini/tmp/<project>/chats/session-*.jsonl, Qwen Code's
// ~/.qwen/projects/<project>/chats/*.jsonl, Copilot CLI's
// ~/.copilot/session-state/<session>/events.jsonl — as runs the
// simulator's views, the history and the comparison read: every model call
// with its exact request where the log holds it (rebuilt from the records,
// and marked so, where it does not), every hook that fired as a step at its
// place, and the words each hook put before the model attributed to it,
// each message read through capture's own reader (docs/sessions.md).
//
// An import streams the file line by line and never changes it; what it
// cannot read (a line that is not JSON, the agent's last line still being
// written, a request blob that is missing) is a Note saying where, and a
// record type it does not know is counted and listed, never a failure. A
// file no agent wrote is a FormatError naming it and the line.
package sessions

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Agent names the CLI that wrote a transcript.
type Agent string

const (
	ClaudeCode Agent = "claude-code"
	Codex      Agent = "codex"
	GeminiCLI  Agent = "gemini-cli"
	QwenCode   Agent = "qwen-code"
	CopilotCLI Agent = "copilot-cli"
)

// Agents are the agents whose logs the importer reads, in the order lists
// show them.
var Agents = []Agent{ClaudeCode, Codex, GeminiCLI, QwenCode, CopilotCLI}

// Session is what an import has read of a transcript so far.
type Session struct {
	Agent Agent `json:"agent"`
	// Version is the agent's version that wrote the transcript ("" when
	// it does not say).
	Version string    `json:"version"`
	ID      string    `json:"id"`
	File    string    `json:"file"`
	Project string    `json:"project"` // the folder the agent ran in
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended"`
	Model   string    `json:"model"`
	// Prompt is the first prompt the user sent (cut to PromptMax).
	Prompt string `json:"prompt"`
	// Turns are the prompts the user sent.
	Turns int        `json:"turns"`
	Calls []CallInfo `json:"calls"`
	// Hooks counts the hook invocations that fired.
	Hooks int `json:"hooks"`
	// Lines and Bytes are how much of the file was read (whole lines).
	Lines int   `json:"lines"`
	Bytes int64 `json:"bytes"`
	// Notes say what could not be read or rebuilt, and where.
	Notes []Note `json:"notes"`
	// Unknown are the record types the importer does not know: counted
	// and listed, their first record kept.
	Unknown []Unknown `json:"unknown"`
}

// CallInfo is what the transcript says of one model call beyond its
// messages: whether the request is exact, and its parameters.
type CallInfo struct {
	// Exact: the request as the agent recorded it (Claude Code's
	// api-request with its blobs); otherwise the message list is rebuilt
	// from the transcript's records and may differ from what was sent.
	Exact bool `json:"exact"`
	// Line is where the request (exact) or the answer (rebuilt) is.
	Line      int    `json:"line"`
	RequestID string `json:"request_id,omitempty"`
	Model     string `json:"model,omitempty"`
	// Params are the request's parameters as recorded (max_tokens,
	// thinking, betas …); nil when the transcript has none.
	Params json.RawMessage `json:"params,omitempty"`
	Tools  []string        `json:"tools"`
	// Missing names what of this request the transcript does not hold.
	Missing []string `json:"missing,omitempty"`
	// Call is the call's index in the run's trace (conversation after
	// conversation, as a simulation numbers requests' calls).
	Call int `json:"call"`

	conv *conversation
	k    int
}

// Note kinds.
const (
	NoteTruncated   = "truncated"    // the last line is incomplete: the agent may still be writing
	NoteNotJSON     = "not_json"     // a line that is not a JSON object
	NoteMissingBlob = "missing_blob" // a request names a message the transcript does not hold
	NoteMissing     = "missing"      // another part of a request the transcript does not hold
	NoteRebuilt     = "rebuilt"      // requests rebuilt from the records, not recorded
	NoteNoTime      = "no_time"      // no record says when: the file's time stands for the session's
)

// Note is one thing an import could not read or rebuild, and where.
type Note struct {
	Line    int    `json:"line"` // 1-based; 0 for the whole file
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (n Note) String() string {
	if n.Line == 0 {
		return n.Message
	}
	return fmt.Sprintf("line %d: %s", n.Line, n.Message)
}

// Unknown is a record type the importer does not show.
type Unknown struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
	// Lines are where they are (the first ones).
	Lines []int `json:"lines"`
	// Sample is the first such record as written (cut at SampleMax).
	Sample json.RawMessage `json:"sample,omitempty"`
}

// PromptMax caps Session.Prompt.
const PromptMax = 200

// SampleMax caps the record kept of each unknown type.
const SampleMax = 16 << 10

// String is how the app and hookctl list it.
func (u Unknown) String() string {
	lines := make([]string, len(u.Lines))
	for i, l := range u.Lines {
		lines[i] = fmt.Sprint(l)
	}
	more := ""
	if u.Count > len(u.Lines) {
		more = ", …"
	}
	s := "s"
	if u.Count == 1 {
		s = ""
	}
	return fmt.Sprintf("%d record%s of type %s not shown (line%s %s%s)", u.Count, s, u.Type, s, strings.Join(lines, ", "), more)
}

// unknowns counts unknown record types.
type unknowns map[string]*Unknown

const unknownLines = 8

func (u unknowns) add(typ string, line int, raw []byte) {
	k := u[typ]
	if k == nil {
		k = &Unknown{Type: typ}
		u[typ] = k
		if len(raw) <= SampleMax && json.Valid(raw) {
			k.Sample = json.RawMessage(append([]byte(nil), raw...))
		}
	}
	k.Count++
	if len(k.Lines) < unknownLines {
		k.Lines = append(k.Lines, line)
	}
}

func (u unknowns) list() []Unknown {
	out := make([]Unknown, 0, len(u))
	for _, k := range u {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lines[0] < out[j].Lines[0] })
	return out
}
