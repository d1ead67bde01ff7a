// Package request holds request models: for one version of one agent CLI
// (Claude Code 2.1.332, Codex 0.171, …), everything it sends its model
// besides the conversation — its system prompt and the context blocks it
// adds around the user's first prompt (environment, date, git status,
// attribution, instruction files), the tools it offers, how it frames
// messages (content blocks, cache markers), its loop (no planning call,
// how a blocked stop continues) and the transcript its hooks read. The
// agent's texts are templates with named slots (the working folder, the
// date, the platform, …) that a run fills from the folder it simulates.
//
// A model is data learned by calibration (hookctl calibrate), never typed
// from memory. The CLIs' own texts are not ours to ship: a calibrated
// model, with texts, lives in the user's data folder
// (requests/<agent>/<version>.json); the binary bundles only each pinned
// version's shape — its pieces' slots, lengths, token counts and hashes —
// so a run without a calibration shows a placeholder of the right size
// that says how to calibrate (Model.Shipped, Placeholder).
package request

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// API is the wire protocol an agent speaks to its model.
type API string

const (
	Anthropic API = "anthropic" // Messages (Claude Code)
	Responses API = "responses" // OpenAI Responses (Codex)
	Gemini    API = "gemini"    // generateContent (Gemini CLI)
	Chat      API = "chat"      // OpenAI Chat Completions (Qwen Code, Copilot CLI)
)

// APIs lists every API.
var APIs = []API{Anthropic, Responses, Gemini, Chat}

// Model is one agent CLI version's request.
type Model struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	API     API    `json:"api"`
	// MadeBy says how the file was made ("hookctl calibrate claude-code").
	MadeBy string `json:"made_by,omitempty"`
	// Model is the model the CLI asks for when none is configured.
	Model string `json:"model"`
	// Shipped marks a bundled shape: the pieces' and tools' texts were
	// left out (the CLI's words are not ours to ship); only their shapes
	// remain.
	Shipped bool `json:"shipped,omitempty"`
	// Fields are the body's other top-level fields, in the order sent
	// (max_tokens, metadata, stream, …), as the calibration saw them.
	Fields []Field `json:"fields,omitempty"`
	// System is the system prompt, piece by piece: Anthropic's system
	// blocks, Responses' instructions, Gemini's systemInstruction parts, a
	// Chat Completions system message.
	System []Piece `json:"system"`
	// Turn is the first user turn as the agent sends it: its own pieces,
	// the prompt and where each hook event's words go, in order.
	Turn []Part `json:"turn"`
	// Tools are the tools the agent offers, in the order sent.
	Tools   []Tool  `json:"tools"`
	Framing Framing `json:"framing"`
	Loop    Loop    `json:"loop"`
	// Transcript is the transcript file the agent's hooks read
	// (transcript_path); nil when its hooks get none.
	Transcript *Transcript `json:"transcript,omitempty"`
	// Keys are the body's top-level keys in the order sent.
	Keys []string `json:"keys"`
	// Headers are the request's headers as sent (keys redacted by the
	// capture), which tell the agent apart (User-Agent).
	Headers map[string]string `json:"headers,omitempty"`
	// Lists are the templates of the agent's lists of things it finds in
	// the folder (ListSkills: the skills it offers), by slot.
	Lists map[string]List `json:"lists,omitempty"`
	// Stdin is, per hook event, the keys of the JSON a hook reads on
	// stdin in the CLI's order, as seen in calibration.
	Stdin map[string][]string `json:"stdin,omitempty"`

	// Where it came from (not in the file).
	Origin Origin `json:"-"`
	File   string `json:"-"`
}

// Ref is "<agent>@<version>".
func (m *Model) Ref() string { return m.Agent + "@" + m.Version }

// Origin is where a model was found.
type Origin string

const (
	// Bundled models are embedded in the binary: shapes only.
	Bundled Origin = "bundled"
	// Calibrated models were written to the data folder by hookctl
	// calibrate: texts included.
	Calibrated Origin = "calibrated"
)

// Field is one top-level field of the body (neither the conversation nor
// the system prompt nor the tools).
type Field struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// Piece is one text of the agent's own: a system prompt block or a
// context block of the first turn.
type Piece struct {
	// ID names it in diagnostics and the views ("system.3", "turn.env").
	ID string `json:"id"`
	// Role of the message it is or is part of (system, user, developer).
	Role string `json:"role"`
	// When is the condition under which the agent sends it ("" always):
	// a Condition.
	When Condition `json:"when,omitempty"`
	// Text is the template; nil in a shipped model.
	Text Text `json:"text,omitempty"`
	// Shape is the text's size and hash as calibrated (its slots filled
	// with the calibration's values).
	Shape Shape `json:"shape"`
	// Cache marks a prompt-cache marker on it (Anthropic cache_control).
	Cache bool `json:"cache,omitempty"`
}

// Present says whether the piece is sent with the run's values.
func (p *Piece) Present(v Values) bool { return p.When.Holds(v) }

// Holds says whether the condition holds for the run's values.
func (c Condition) Holds(v Values) bool {
	switch c {
	case Git:
		return v[SlotIsGit] == "true"
	case NoGit:
		return v[SlotIsGit] != "true"
	}
	return true
}

// Shape is a text's size and fingerprint: what a shipped model keeps.
type Shape struct {
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"`
	SHA256 string `json:"sha256,omitempty"`
	// Slots are the slots the text holds, in order.
	Slots []string `json:"slots,omitempty"`
}

// Part is one element of the first turn: an agent piece, the user's
// prompt, or the place where one hook event's words go.
type Part struct {
	Piece *Piece `json:"piece,omitempty"`
	// Prompt marks the user's prompt.
	Prompt bool `json:"prompt,omitempty"`
	// Hooks names the hook event whose words stand here
	// ("SessionStart", "UserPromptSubmit").
	Hooks string `json:"hooks,omitempty"`
}

// Tool is a tool the agent offers.
type Tool struct {
	Name string `json:"name"`
	// Definition is a template of the tool's JSON as sent (name,
	// description, schema): its slots are filled inside JSON strings. Nil
	// in a shipped model; Shape is its JSON text's.
	Definition Text  `json:"definition,omitempty"`
	Shape      Shape `json:"shape"`
}

// Framing is how the agent lays messages out on the wire, beyond what the
// API requires.
type Framing struct {
	// Merge: messages of the same role in a row are one API message (its
	// blocks, or paragraphs); otherwise each is an item of its own.
	Merge bool `json:"merge,omitempty"`
	// Paragraphs: the texts of one message (hook words and agent pieces of
	// the same role in a row) are joined with Separator into one text
	// (Claude Code's system-role messages); otherwise each is a content
	// block of its own.
	Paragraphs Role   `json:"paragraphs,omitempty"`
	Separator  string `json:"separator,omitempty"`
	// BlockSuffix ends a user text block that another text block follows
	// in the same message (Claude Code 2.1.197: "\n"), the agent's own
	// pieces aside (their learned text has it).
	BlockSuffix string `json:"block_suffix,omitempty"`
	// EmptyResult is what the agent writes for a tool that printed
	// nothing (slot "tool": the tool's name); nil: nothing.
	EmptyResult Text `json:"empty_result,omitempty"`
	// CacheLast puts a prompt-cache marker on the last block of the last
	// message (Claude Code); the other messages' single texts go as plain
	// strings (StringContent).
	CacheLast     bool `json:"cache_last,omitempty"`
	StringContent bool `json:"string_content,omitempty"`
	// SystemInMessages: system-role messages stand in the conversation
	// (Claude Code 2.1.332); otherwise the API has none there.
	SystemInMessages bool `json:"system_in_messages,omitempty"`
	// Parts: a user or tool message's content is a list of text parts,
	// even of one (Qwen Code's Chat Completions); otherwise a string.
	Parts bool `json:"parts,omitempty"`
	// Join are, by hook event, the separators with which the agent joins
	// that event's words to the text before them, in one text of one
	// message (Copilot CLI's prompt hook after its prompt).
	Join map[string]string `json:"join,omitempty"`
	// Prompt is how the agent writes every prompt it sends — the user's,
	// and a Stop hook's words it sends as a new prompt (Loop.StopPrompt) —
	// with slots prompt and datetime (Copilot CLI's
	// <current_datetime>); nil: the prompt as it is.
	Prompt Text `json:"prompt,omitempty"`
}

// Role names a message role in Framing.
type Role string

// Loop is how the agent's loop runs, beyond seed 000's.
type Loop struct {
	// Planning: the agent makes a planning call without tools first (seed
	// 000 does; no agent CLI seen does).
	Planning bool `json:"planning,omitempty"`
	// KeepsBlockedAnswer: after a Stop hook blocked, the next call still
	// holds the answer the hook blocked, before the hook's words.
	KeepsBlockedAnswer bool `json:"keeps_blocked_answer,omitempty"`
	// AfterTool are the agent's own messages after a tool's result
	// (Claude Code's skill text after its Skill tool ran).
	AfterTool []ToolPiece `json:"after_tool,omitempty"`
	// Reminders are the agent's own messages it adds once a turn has gone
	// on for a while without a word to the user.
	Reminders []Reminder `json:"reminders,omitempty"`
	// StopPrompt: a Stop hook's words that keep the agent going are sent
	// as a new prompt, written as Framing.Prompt writes the user's.
	StopPrompt bool `json:"stop_prompt,omitempty"`
	// Results are how the agent writes a tool's output for the model, by
	// tool (Qwen Code's "Command: …", Copilot CLI's shell id and exit
	// code): what its hooks read as the result too.
	Results []Result `json:"results,omitempty"`
	// Side are the calls the agent makes of its own beside the turn's
	// (Qwen Code's memory extraction after a turn): each a call of the
	// run that takes no answer the scenario scripts.
	Side []SideCall `json:"side,omitempty"`
}

// ToolPiece is an agent's message after a call of Tool: its slots are
// the values of the thing the call's argument Arg names (a skill's
// folder and body: SlotSkillDir, SlotSkillBody).
type ToolPiece struct {
	Tool  string `json:"tool"`
	Arg   string `json:"arg,omitempty"`
	Piece Piece  `json:"piece"`
}

// Reminder is an agent's message added once per turn after After answers
// in a row that called tools and said nothing.
type Reminder struct {
	After int   `json:"after"`
	Piece Piece `json:"piece"`
}

// List is how the agent writes a list of things it found: each item by
// the Item template (slots item.name, item.description), in the order of
// ListOrder; the files it reads (Files: item.name, item.content); or the
// folder's tree (Tree).
type List struct {
	Item Text `json:"item,omitempty"`
	// Files are the project's files whose contents the agent sends (its
	// instruction files: QWEN.md, AGENTS.md), in the order it lists them,
	// each present one an item (item.name its path, item.content its
	// text) of the list ListFiles.
	Files []string `json:"files,omitempty"`
	// Sep stands between two items.
	Sep string `json:"sep,omitempty"`
	// Tree is how the agent draws the working folder's tree (ListTree).
	Tree *Tree `json:"tree,omitempty"`
	// Shape of one item's template.
	Shape Shape `json:"shape"`
	// Merged are the kinds the agent lists among its own items (the
	// lines that follow the slot in its text), in name order, rather than
	// after the kinds before them (Claude Code 2.1.197's plugin skills).
	Merged []string `json:"merged,omitempty"`
}

// MergedSlot is the slot of a list's items merged into the agent's own
// ("skills.merged"): its value is one item per line group, each starting
// with the item template's first text.
func MergedSlot(slot string) string { return slot + ".merged" }

// Entry is a thing an agent lists: a skill with its kind, its folder and
// its instructions (the SKILL.md after its frontmatter).
type Entry struct {
	Name        string
	Description string
	// Kind orders the list: project skills, then plugin skills, each by
	// name (ListOrder).
	Kind string
	Dir  string
	Body string
}

// Kinds of entries, in the order an agent lists them.
const (
	EntryProject = "project"
	EntryPlugin  = "plugin"
	// EntryFile is an instruction file whose content the agent sends
	// (List.Files): Name its path in the project, Body its text.
	EntryFile = "file"
)

// The list slots: the skills an agent lists, the instruction files whose
// contents it sends, the working folder's tree it draws.
const (
	ListSkills = "skills"
	ListFiles  = "files"
	ListTree   = "tree"
)

// Item slots of a List's template.
const (
	ItemName        = "item.name"
	ItemDescription = "item.description"
	ItemContent     = "item.content"
)

// Slots of a ToolPiece that reads a skill.
const (
	SlotSkillDir  = "skill_dir"
	SlotSkillBody = "skill_body"
)

// RenderList writes the entries as the list slot's value: each kind's in
// name order, kinds as ListOrder has them.
func (m *Model) RenderList(slot string, entries []Entry) string {
	l, ok := m.Lists[slot]
	if !ok || l.Item == nil {
		return ""
	}
	var b strings.Builder
	for _, kind := range ListOrder {
		if slices.Contains(l.Merged, kind) {
			continue
		}
		var names []Entry
		for _, e := range entries {
			if e.Kind == kind {
				names = append(names, e)
			}
		}
		sort.Slice(names, func(i, j int) bool { return names[i].Name < names[j].Name })
		for _, e := range names {
			b.WriteString(l.Item.Fill(Values{ItemName: e.Name, ItemDescription: e.Description}))
		}
	}
	return b.String()
}

// RenderFiles writes the instruction files among entries as the list
// ListFiles' value: each a file of List.Files, in that order.
func (m *Model) RenderFiles(entries []Entry) string {
	l, ok := m.Lists[ListFiles]
	if !ok || l.Item == nil {
		return ""
	}
	var items []string
	for _, name := range l.Files {
		for _, e := range entries {
			if e.Kind == EntryFile && e.Name == name {
				items = append(items, l.Item.Fill(Values{ItemName: e.Name, ItemContent: e.Body}))
			}
		}
	}
	return strings.Join(items, l.Sep)
}

// RenderMerged writes the entries of the list's merged kinds, in name
// order, each item whole: the value of MergedSlot(slot).
func (m *Model) RenderMerged(slot string, entries []Entry) string {
	l, ok := m.Lists[slot]
	if !ok || len(l.Merged) == 0 {
		return ""
	}
	var es []Entry
	for _, e := range entries {
		if slices.Contains(l.Merged, e.Kind) {
			es = append(es, e)
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	var b strings.Builder
	for _, e := range es {
		b.WriteString(l.Item.Fill(Values{ItemName: e.Name, ItemDescription: e.Description}))
	}
	return b.String()
}

// mergeItems puts each item of merged (items that start with lead, one
// per line group) among the items of text that follow: before the first
// whose name sorts after its own.
func mergeItems(merged, text, lead string) string {
	if merged == "" || lead == "" {
		return text
	}
	var items []string
	for _, line := range strings.SplitAfter(merged, "\n") {
		if line != "" {
			items = append(items, line)
		}
	}
	for _, it := range items {
		name := itemName(it, lead)
		at := len(text)
		for i := 0; i <= len(text); {
			if strings.HasPrefix(text[i:], lead) && (i == 0 || text[i-1] == '\n') {
				if itemName(text[i:], lead) > name {
					at = i
					break
				}
			}
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				break
			}
			i += nl + 1
		}
		text = text[:at] + it + text[at:]
	}
	return text
}

// itemName is the name of the item s starts with: what follows lead up
// to the first ": ".
func itemName(s, lead string) string {
	s = strings.TrimPrefix(s, lead)
	if i := strings.Index(s, ": "); i >= 0 {
		return s[:i]
	}
	return s
}

// ListValues are the values of every list slot of the model for the
// entries: each list's own, and its merged items with their lead.
func (m *Model) ListValues(entries []Entry) Values {
	v := Values{}
	for slot, l := range m.Lists {
		v[slot] = m.RenderList(slot, entries)
		if len(l.Merged) > 0 {
			v[MergedSlot(slot)] = m.RenderMerged(slot, entries)
			if len(l.Item) > 0 && l.Item[0].Slot == "" {
				v[MergedSlot(slot)+".lead"] = l.Item[0].Lit
			}
		}
	}
	return v
}

// ListOrder is the order of kinds in an agent's lists.
var ListOrder = []string{EntryProject, EntryPlugin}

// SkillValues are the slots a ToolPiece of a skill reads, per skill:
// "skill_dir:<name>" and "skill_body:<name>".
func SkillValues(entries []Entry) Values {
	v := Values{}
	for _, e := range entries {
		v[SlotSkillDir+":"+e.Name] = e.Dir
		v[SlotSkillBody+":"+e.Name] = e.Body
	}
	return v
}

// Transcript is the JSONL transcript file the agent keeps for its hooks.
type Transcript struct {
	// Format names the layout ("claude-code": one entry per message with
	// content blocks).
	Format string `json:"format"`
	// Keys are, per entry kind (user, assistant, tool_result), the keys of
	// an entry in the CLI's order; MessageKeys those of its message.
	Keys        map[string][]string `json:"keys"`
	MessageKeys map[string][]string `json:"message_keys,omitempty"`
	// Constants are, per kind, the fields every entry of the calibration's
	// had with one value (the CLI's version, the entry point, …).
	Constants map[string]map[string]json.RawMessage `json:"constants,omitempty"`
}

// Transcript formats.
const TranscriptClaudeCode = "claude-code"

// Entry kinds of a transcript.
const (
	EntryUser       = "user"
	EntryAssistant  = "assistant"
	EntryToolResult = "tool_result"
)

// Condition says when a piece is sent.
type Condition string

const (
	Always Condition = ""
	// Git / NoGit: the working folder is (is not) in a git repository.
	Git   Condition = "git"
	NoGit Condition = "no_git"
)

// Text is a template: literals and slots, in order.
type Text []Seg

// Seg is a literal, a slot or a section. Empty is what the CLI writes for
// the slot when its value is empty (Claude Code's "(clean)" git status),
// or for the section when its condition does not hold (Copilot CLI's "Not
// a git repository"); Default is an opaque slot's value as calibrated
// (SlotOpaque); Lines is what the CLI writes before each line of the
// slot's value but the first (Qwen Code's "git: "). A section (When set)
// is Text written when When holds.
type Seg struct {
	Lit     string
	Slot    string
	Empty   string
	Default string
	Lines   string
	When    Condition
	Text    Text
}

type slotJSON struct {
	Slot    string    `json:"slot,omitempty"`
	Empty   string    `json:"empty,omitempty"`
	Default string    `json:"default,omitempty"`
	Lines   string    `json:"lines,omitempty"`
	When    Condition `json:"when,omitempty"`
	Text    Text      `json:"text,omitempty"`
}

// MarshalJSON writes a literal as a JSON string, a slot as {"slot":
// name} and a section as {"when": condition, "text": […]}.
func (s Seg) MarshalJSON() ([]byte, error) {
	if s.Slot != "" || s.When != "" {
		return json.Marshal(slotJSON{s.Slot, s.Empty, s.Default, s.Lines, s.When, s.Text})
	}
	return json.Marshal(s.Lit)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Seg) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &s.Lit)
	}
	var o slotJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("a template segment is a string, {\"slot\": NAME} or {\"when\": CONDITION, \"text\": […]}: %w", err)
	}
	if (o.Slot == "") == (o.When == "") {
		return fmt.Errorf("a template segment names a slot or a condition")
	}
	s.Slot, s.Empty, s.Default, s.Lines, s.When, s.Text = o.Slot, o.Empty, o.Default, o.Lines, o.When, o.Text
	return nil
}

// Slots are the slot names of t (its sections' included), in order, each
// once.
func (t Text) Slots() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Text)
	walk = func(t Text) {
		for _, s := range t {
			if s.Slot != "" && !seen[s.Slot] {
				seen[s.Slot] = true
				out = append(out, s.Slot)
			}
			walk(s.Text)
		}
	}
	walk(t)
	return out
}

// Fill renders t with v; a slot v lacks is left as "{name}".
func (t Text) Fill(v Values) string { return t.fill(v, func(s string) string { return s }) }

// FillJSON renders t, a JSON text, with v: each value is escaped as the
// inside of a JSON string.
func (t Text) FillJSON(v Values) string {
	return t.fill(v, func(s string) string {
		b, _ := json.Marshal(s)
		return string(b[1 : len(b)-1])
	})
}

func (t Text) fill(v Values, esc func(string) string) string {
	var b strings.Builder
	for i, s := range t {
		switch {
		case s.When != "":
			if s.When.Holds(v) {
				b.WriteString(s.Text.fill(v, esc))
			} else {
				b.WriteString(s.Empty)
			}
			continue
		case s.Slot == "":
			lit := s.Lit
			if i > 0 && t[i-1].Slot != "" {
				// items the agent lists among its own follow a list slot
				lit = mergeItems(v[MergedSlot(t[i-1].Slot)], lit, v[MergedSlot(t[i-1].Slot)+".lead"])
			}
			b.WriteString(lit)
			continue
		}
		x, ok := v[s.Slot]
		if !ok && s.Slot == SlotOpaque {
			x, ok = s.Default, true
		}
		switch {
		case !ok:
			b.WriteString("{" + s.Slot + "}")
		case x == "" && s.Empty != "":
			b.WriteString(s.Empty)
		default:
			if s.Lines != "" {
				x = strings.ReplaceAll(x, "\n", "\n"+s.Lines)
			}
			b.WriteString(esc(x))
		}
	}
	return b.String()
}

// Values are the slots' values for one run.
type Values map[string]string

// The slots a run fills (Values' keys). Calibration finds each in the
// CLI's texts by giving it values of its own and seeing where they land.
const (
	SlotCwd       = "cwd"        // the working folder, absolute
	SlotCwdSlug   = "cwd_slug"   // the working folder with every character but letters and digits as '-'
	SlotCwdDashed = "cwd_dashed" // the working folder with every '/' as '-'
	SlotHome      = "home"       // the user's home folder
	SlotPrompt    = "prompt"     // the user's prompt
	SlotDate      = "date"       // today, YYYY-MM-DD, local time
	SlotPlatform  = "platform"   // linux, darwin, win32
	SlotOSVersion = "os_version" // `uname -sr`
	SlotShell     = "shell"      // the login shell's name
	SlotModel     = "model"      // the model the CLI asks for
	SlotIsGit     = "is_git"     // true or false
	SlotGitBranch = "git_branch"
	SlotGitStatus = "git_status"  // `git status --short`
	SlotGitLog    = "git_commits" // `git log --oneline -n 5`
	SlotDateLong  = "date_long"   // today as "Sunday, November 29, 2026" (en-US, local time)
	SlotHomeRel   = "home_rel"    // the home folder relative to the working folder ("../../home")
	SlotSession   = "session_id"  // the session's id, as the hooks read it
	// SlotDatetime is the moment a request is sent, ISO 8601 with
	// milliseconds and the zone's offset (2026-11-29T05:54:05.367+00:00):
	// each request its own.
	SlotDatetime = "datetime"
)

// SlotOpaque is a value of the CLI's own that changes from request to
// request and that nothing of ours tells (Claude Code's billing line
// suffix): a run writes the calibration's value, and a comparison with the
// real CLI's request reads any value there (Opaque).
const SlotOpaque = "opaque"

// Planted slots are those a calibration sets to words of its own (a path,
// a prompt, a branch name): found wherever they stand. The machine's own
// values (the date, the platform, …) are found only where they stand once
// in a text, since short words such as "linux" may also be the CLI's own.
var Planted = []string{SlotCwd, SlotCwdSlug, SlotCwdDashed, SlotHome, SlotHomeRel, SlotPrompt, SlotGitBranch, SlotGitStatus, SlotGitLog,
	SlotSession, SlotDatetime}

// Machine slots are the machine's own values.
var Machine = []string{SlotDateLong, SlotDate, SlotOSVersion, SlotPlatform, SlotShell, SlotModel}

// Opaque reads text as t filled with v, any value standing for its opaque
// slots: the opaque slots' values in text, and whether text reads so.
func (t Text) Opaque(v Values, text string) (string, bool) {
	var b strings.Builder
	b.WriteString("^")
	has := false
	for _, s := range t {
		switch {
		case s.Slot == SlotOpaque:
			b.WriteString("([0-9A-Za-z]{1,16})")
			has = true
		case s.Slot != "" || s.When != "":
			b.WriteString(regexp.QuoteMeta(Text{s}.Fill(v)))
		default:
			b.WriteString(regexp.QuoteMeta(s.Lit))
		}
	}
	b.WriteString("$")
	if !has {
		return "", t.Fill(v) == text
	}
	m := regexp.MustCompile(b.String()).FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// MaskOpaque is a function that writes every opaque value of the model's
// pieces in a text as "{opaque}": what a comparison of a simulated request
// with the real CLI's leaves aside (the calibration's value against the
// request's own).
func (m *Model) MaskOpaque() func(string) string {
	var res []*regexp.Regexp
	var repl []string
	add := func(t Text) {
		for i, s := range t {
			if s.Slot != SlotOpaque {
				continue
			}
			before, after := "", ""
			if i > 0 && t[i-1].Slot == "" {
				before = t[i-1].Lit[max(0, len(t[i-1].Lit)-16):]
			}
			if i+1 < len(t) && t[i+1].Slot == "" {
				after = t[i+1].Lit[:min(len(t[i+1].Lit), 16)]
			}
			res = append(res, regexp.MustCompile(regexp.QuoteMeta(before)+`[0-9A-Za-z]{1,16}`+regexp.QuoteMeta(after)))
			repl = append(repl, before+"{opaque}"+after)
		}
	}
	for _, p := range m.System {
		add(p.Text)
	}
	for _, p := range m.Turn {
		if p.Piece != nil {
			add(p.Piece.Text)
		}
	}
	return func(s string) string {
		for i, re := range res {
			s = re.ReplaceAllLiteralString(s, repl[i])
		}
		return s
	}
}

// Skeleton is t with each slot written as {name}: what its shape measures.
func (t Text) Skeleton() string {
	var b strings.Builder
	for _, s := range t {
		switch {
		case s.Slot != "":
			b.WriteString("{" + s.Slot + "}")
		case s.When != "":
			b.WriteString("{" + string(s.When) + ":" + s.Text.Skeleton() + "}")
		default:
			b.WriteString(s.Lit)
		}
	}
	return b.String()
}
