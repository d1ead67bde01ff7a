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
	"strconv"
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
	// HookNames is how the agent names a hook in its own words about it
	// ("Stop hook blocking error from command: …"); nil: by its command
	// as written.
	HookNames *HookNames `json:"hook_names,omitempty"`
	// Lists are the templates of the agent's lists of things it finds in
	// the folder (ListSkills: the skills it offers), by slot.
	Lists map[string]List `json:"lists,omitempty"`
	// Stdin is, per hook event, the keys of the JSON a hook reads on
	// stdin in the CLI's order, as seen in calibration.
	Stdin map[string][]string `json:"stdin,omitempty"`
	// Subagent is how the agent runs a sub-agent (subagent.go; nil: it
	// has none, or calibration did not learn it).
	Subagent *Subagent `json:"subagent,omitempty"`
	// Tree is how the agent lists the folder's structure (SlotTree); nil
	// when it does not.
	Tree *Tree `json:"tree,omitempty"`
	// Files are the context files the agent reads from the folder and
	// writes into its request (Gemini CLI's GEMINI.md).
	Files []ContextFile `json:"files,omitempty"`

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
	// Join: the event's words and the next part's are one text on the
	// wire, joined by it (Gemini CLI writes SessionStart's context on the
	// prompt: "<hook_context>…</hook_context>\n\nthe prompt").
	Join string `json:"join,omitempty"`
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
	// CallSignature is what the agent writes as the thought signature of
	// the first function call of each of the model's answers since the
	// user last spoke (Gemini CLI); "" none.
	CallSignature string `json:"call_signature,omitempty"`
	// SystemMessage: the system prompt is the conversation's first
	// message (Codex's developer message), not the API's field for it.
	SystemMessage bool `json:"system_message,omitempty"`
	// MergeOwn: the agent's own pieces of one role in a row are one
	// message, each a part of it (Codex's context items); hooks' words and
	// the prompt are messages of their own.
	MergeOwn bool `json:"merge_own,omitempty"`
	// Results are the agent's words around a tool's output, per tool
	// (Gemini CLI's run_shell_command: the output, its empty form, the
	// process group an opaque value; Codex's shell tool: its chunk, wall
	// time, exit code and token count, then the output).
	Results []ResultFrame `json:"results,omitempty"`
	// Parts: a user or tool message's content is a list of text parts,
	// even of one (Qwen Code's Chat Completions); otherwise a string.
	Parts bool `json:"parts,omitempty"`
	// Join are, by hook event, the separators with which the agent joins
	// that event's words to the text before them, in one text of one
	// message (Copilot CLI's prompt hook after its prompt); Part.Join
	// joins an event's words to the text after them.
	Join map[string]string `json:"join,omitempty"`
	// Prompt is how the agent writes every prompt it sends — the user's,
	// and a Stop hook's words it sends as a new prompt (Loop.StopPrompt) —
	// with slots prompt and datetime (Copilot CLI's
	// <current_datetime>); nil: the prompt as it is.
	Prompt Text `json:"prompt,omitempty"`
}

// ResultFrame is the text the model reads of a run of Tool: a template of
// SlotResult (what the tool printed; its Seg.Empty the agent's words for
// none), SlotExitCode, SlotResultTokens, SlotCount, ArgSlot(name) (the
// call's arguments) and opaque values of the agent's own.
type ResultFrame struct {
	Tool  string `json:"tool"`
	Text  Text   `json:"text,omitempty"`
	Shape Shape  `json:"shape"`
	// Hooks: the so worded output is the tool's result itself, the one
	// the agent's hooks read too (Gemini CLI's llmContent), and a failed
	// run's is its error; otherwise the words are the model's only
	// (Codex's function call output), a failed run's worded with exit
	// code 1 (Qwen Code's and Copilot CLI's as their hooks read them).
	Hooks bool `json:"hooks,omitempty"`
}

// Result is the frame of tool's output, or nil: none, or a shipped
// shape's (the CLI's words are not known).
func (f *Framing) Result(tool string) *ResultFrame {
	for i := range f.Results {
		if f.Results[i].Tool == tool && f.Results[i].Text != nil {
			return &f.Results[i]
		}
	}
	return nil
}

// ToolRun is a run of a tool as a ResultFrame words it: what it printed,
// its exit code, the call's arguments, and how many calls of the tool
// ran before it in the session.
type ToolRun struct {
	Output string
	Code   int
	Args   map[string]any
	Count  int
}

// Fill words run: its values, and each opaque value as calibrated.
func (r *ResultFrame) Fill(run ToolRun) string {
	v := Values{SlotResult: run.Output, SlotExitCode: strconv.Itoa(run.Code), SlotResultTokens: strconv.Itoa(ApproxTokens(run.Output)),
		SlotCount: strconv.Itoa(run.Count)}
	for _, s := range r.Text.Slots() {
		name, ok := strings.CutPrefix(s, argPrefix)
		if !ok {
			continue
		}
		switch x := run.Args[name].(type) {
		case string:
			v[s] = x
		case nil:
			v[s] = ""
		default:
			b, _ := json.Marshal(x)
			v[s] = string(b)
		}
	}
	return r.Text.Fill(v)
}

const argPrefix = "arg."

// ArgSlot is the slot of a tool call's argument name.
func ArgSlot(name string) string { return argPrefix + name }

// ApproxTokens is the token count an agent states of a text without a
// tokenizer: a token per four bytes, rounded up (Codex's output header;
// calibration checks the CLI counts so).
func ApproxTokens(s string) int { return (len(s) + 3) / 4 }

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
	// Sides are the calls the agent makes of its own beside the user's
	// turn (Gemini CLI's model router before it, Qwen Code's memory
	// extraction after it): each is a call of the run, which no scenario
	// round answers.
	Sides []Side `json:"sides,omitempty"`
}

// Side is a call the agent makes of its own: its request (its own system
// prompt, the conversation as it sends it, its body's fields), when it
// makes it, and the answer the simulated agent takes it got — what a
// capture answers it with, so the run goes on as the CLI's did against
// capture (the same model chosen).
type Side struct {
	Name string `json:"name"`
	// When is when the agent makes it: SideTurnStart or SideAfterTurn.
	When SideWhen `json:"when"`
	// Direct: only after a turn whose answer came from the prompt's own
	// call — no tool round and no Stop hook's block before it.
	Direct bool `json:"direct,omitempty"`
	// Model is the model it asks, "" the agent's; Method the API method
	// ("generateContent").
	Model  string `json:"model,omitempty"`
	Method string `json:"method,omitempty"`
	// System is its system prompt, in place of the agent's.
	System []Piece `json:"system"`
	// Alone: it carries none of the conversation, only its own messages
	// (After); otherwise the conversation as it stands (after a turn: the
	// turn's messages as its last call sent them, and the answer).
	Alone bool `json:"alone,omitempty"`
	// After are its own messages after the conversation.
	After []Piece `json:"after,omitempty"`
	// Tools it offers, in the order sent (nil: none).
	Tools []Tool `json:"tools,omitempty"`
	// Keys and Fields are its body's keys and other fields in the order
	// sent (generationConfig with the JSON schema it asks for).
	Keys   []string `json:"keys,omitempty"`
	Fields []Field  `json:"fields,omitempty"`
	// TurnApart: the user's turn is a message of its own, after the
	// conversation before it (Gemini CLI's router sends its history as
	// kept, then the request), where the turn's own call merges them.
	TurnApart bool `json:"turn_apart,omitempty"`
	// Answer is the answer taken (nil in a shipped shape: its size is
	// AnswerShape's).
	Answer      *string `json:"answer,omitempty"`
	AnswerShape Shape   `json:"answer_shape"`
}

// SideWhen says when a side call is made.
type SideWhen string

const (
	// SideTurnStart: before the first call of each prompt of the user's
	// (not again when a Stop hook's block sends the turn on).
	SideTurnStart SideWhen = "turn_start"
	// SideAfterTurn: once the turn has its last answer.
	SideAfterTurn SideWhen = "after_turn"
)

// ContextFile is an instruction file the agent reads from the folder's
// root and writes into its request: its content is the slot
// SlotFile(Name), and FileCondition(Name) holds when it has any.
type ContextFile struct {
	Name string `json:"name"`
	// Trim: the agent writes the content without the white space around it.
	Trim bool `json:"trim,omitempty"`
}

// FileValues are the slots of the model's context files: read gives a
// file's content (ok false: the folder has none).
func (m *Model) FileValues(read func(name string) (string, bool)) Values {
	v := Values{}
	for _, f := range m.Files {
		text, ok := read(f.Name)
		if !ok {
			v[SlotFile(f.Name)] = ""
			continue
		}
		if f.Trim {
			text = strings.TrimSpace(text)
		}
		v[SlotFile(f.Name)] = text
	}
	return v
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
// ListOrder; or the files it reads (Files: item.name, item.content). The
// folder's tree is Model.Tree's.
type List struct {
	Item Text `json:"item,omitempty"`
	// Files are the project's files whose contents the agent sends (its
	// instruction files: QWEN.md, AGENTS.md), in the order it lists them,
	// each present one an item (item.name its path, item.content its
	// text) of the list ListFiles.
	Files []string `json:"files,omitempty"`
	// Sep stands between two items.
	Sep string `json:"sep,omitempty"`
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
// contents it sends.
const (
	ListSkills = "skills"
	ListFiles  = "files"
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
// entries: each list's own, and its merged items with their lead. The
// instruction files' list is the folder's own (workspace.AgentFolder
// reads it), not the entries'.
func (m *Model) ListValues(entries []Entry) Values {
	v := Values{}
	for slot, l := range m.Lists {
		if len(l.Files) > 0 {
			continue
		}
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

// HookNames says which name of a hook the agent's words about it use.
type HookNames struct {
	// StatusMessage are the events at which the agent names a handler by
	// its statusMessage when it has one.
	StatusMessage []string `json:"status_message,omitempty"`
	// PluginRoot: a plugin's hook command with its plugin's folder
	// written in for ${CLAUDE_PLUGIN_ROOT}.
	PluginRoot bool `json:"plugin_root,omitempty"`
	// PluginNote is what the agent adds after a plugin hook's blocking
	// words (slot "plugin": the plugin's name), at the events PluginNoteAt
	// names; nil: nothing.
	PluginNote   Text     `json:"plugin_note,omitempty"`
	PluginNoteAt []string `json:"plugin_note_at,omitempty"`
	// PluginNoteShape is the note's shape (a shipped model keeps it).
	PluginNoteShape *Shape `json:"plugin_note_shape,omitempty"`
}

// Transcript formats.
const (
	TranscriptClaudeCode = "claude-code"
	// TranscriptCodex: Codex's rollout, response items in an envelope;
	// Keys holds the envelope's (response_item) and each payload kind's.
	TranscriptCodex = "codex"
)

// Entry kinds of a transcript.
const (
	EntryUser       = "user"
	EntryAssistant  = "assistant"
	EntryToolResult = "tool_result"
)

// Condition says when a piece, or a part of a text, is sent.
type Condition string

const (
	Always Condition = ""
	// Git / NoGit: the working folder is (is not) in a git repository.
	Git   Condition = "git"
	NoGit Condition = "no_git"
)

// FileCondition holds when the folder has the context file name with
// something in it (its slot, SlotFile(name), is not empty); its Not, when
// it has none.
func FileCondition(name string) Condition { return Condition(fileCond + name) }

const (
	fileCond   = "file:"
	noFileCond = "no_file:"
)

// Holds says whether the condition holds for the run's values.
func (c Condition) Holds(v Values) bool {
	switch {
	case c == Always:
		return true
	case c == Git:
		return v[SlotIsGit] == "true"
	case c == NoGit:
		return v[SlotIsGit] != "true"
	case strings.HasPrefix(string(c), fileCond):
		return v[SlotFile(strings.TrimPrefix(string(c), fileCond))] != ""
	case strings.HasPrefix(string(c), noFileCond):
		return v[SlotFile(strings.TrimPrefix(string(c), noFileCond))] == ""
	}
	return false
}

// Not is the condition that holds when c does not.
func (c Condition) Not() Condition {
	switch {
	case c == Git:
		return NoGit
	case c == NoGit:
		return Git
	case strings.HasPrefix(string(c), fileCond):
		return Condition(noFileCond + strings.TrimPrefix(string(c), fileCond))
	case strings.HasPrefix(string(c), noFileCond):
		return Condition(fileCond + strings.TrimPrefix(string(c), noFileCond))
	}
	return c
}

// Valid says whether c is a condition a model may hold.
func (c Condition) Valid() bool {
	switch {
	case c == Always, c == Git, c == NoGit:
		return true
	case strings.HasPrefix(string(c), fileCond):
		return len(c) > len(fileCond)
	case strings.HasPrefix(string(c), noFileCond):
		return len(c) > len(noFileCond)
	}
	return false
}

// Text is a template: literals and slots, in order.
type Text []Seg

// Seg is a literal or a slot. Empty is what the CLI writes for the slot
// when its value is empty (Claude Code's "(clean)" git status); Default
// is an opaque slot's value as calibrated (SlotOpaque). When is the
// condition under which the CLI writes the segment at all (Gemini CLI's
// git section at the end of its one system text, its GEMINI.md block;
// a section's words are its segments under one condition, and what the
// CLI writes when it does not hold a literal under its Not). Lines is
// what the CLI writes before each line of the slot's value but the first
// (Qwen Code's "git: ").
type Seg struct {
	Lit     string
	Slot    string
	Empty   string
	Default string
	Lines   string
	When    Condition
}

type segJSON struct {
	Lit     *string   `json:"lit,omitempty"`
	Slot    string    `json:"slot,omitempty"`
	Empty   string    `json:"empty,omitempty"`
	Default string    `json:"default,omitempty"`
	Lines   string    `json:"lines,omitempty"`
	When    Condition `json:"when,omitempty"`
}

// MarshalJSON writes a literal as a JSON string and a slot as {"slot":
// name}; a conditional literal as {"lit": text, "when": condition}.
func (s Seg) MarshalJSON() ([]byte, error) {
	switch {
	case s.Slot != "":
		return json.Marshal(segJSON{Slot: s.Slot, Empty: s.Empty, Default: s.Default, Lines: s.Lines, When: s.When})
	case s.When != Always:
		return json.Marshal(segJSON{Lit: &s.Lit, When: s.When})
	}
	return json.Marshal(s.Lit)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Seg) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &s.Lit)
	}
	var o segJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("a template segment is a string, {\"slot\": NAME} or {\"lit\": TEXT, \"when\": CONDITION}: %w", err)
	}
	switch {
	case o.Slot == "" && o.Lit == nil:
		return fmt.Errorf("a template slot needs a name")
	case o.Slot != "" && o.Lit != nil:
		return fmt.Errorf("a template segment is a slot or a literal, not both")
	case !o.When.Valid():
		return fmt.Errorf("a template segment's condition %q is none of git, no_git, file:NAME, no_file:NAME", o.When)
	}
	if o.Lit != nil {
		s.Lit = *o.Lit
	}
	s.Slot, s.Empty, s.Default, s.Lines, s.When = o.Slot, o.Empty, o.Default, o.Lines, o.When
	return nil
}

// Slots are the slot names of t, in order, each once.
func (t Text) Slots() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range t {
		if s.Slot != "" && !seen[s.Slot] {
			seen[s.Slot] = true
			out = append(out, s.Slot)
		}
	}
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
		if !s.When.Holds(v) {
			continue
		}
		if s.Slot == "" {
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
	SlotTimezone  = "timezone"   // the machine's IANA time zone (Etc/UTC, Europe/Paris)
	SlotIsGit     = "is_git"     // true or false
	SlotGitBranch = "git_branch"
	SlotGitStatus = "git_status"  // `git status --short`
	SlotGitLog    = "git_commits" // `git log --oneline -n 5`
	// SlotDateLong is today written out in English, "Sunday, November
	// 29, 2026" (Gemini CLI's session context).
	SlotDateLong = "date_long"
	// SlotCwdNameSlug is the working folder's name in lower case, every
	// run of characters but letters and digits one '-' (Gemini CLI's
	// project folder under ~/.gemini/tmp).
	SlotCwdNameSlug = "cwd_name_slug"
	// SlotTree is the folder's structure as the agent lists it (Tree).
	SlotTree = "tree"
	// A tool's run within the agent's words around it (ResultFrame): what
	// it printed, its exit code, that output's ApproxTokens, and how many
	// calls of the tool ran before in the session (Copilot CLI numbers its
	// shells); ArgSlot(name) the call's arguments.
	SlotResult       = "result"
	SlotExitCode     = "exit_code"
	SlotResultTokens = "result_tokens"
	SlotCount        = "count"
	SlotHomeRel      = "home_rel"   // the home folder relative to the working folder ("../../home")
	SlotSession      = "session_id" // the session's id, as the hooks read it
	// SlotDatetime is the moment a request is sent, ISO 8601 with
	// milliseconds and the zone's offset (2026-11-29T05:54:05.367+00:00):
	// each request its own.
	SlotDatetime = "datetime"
)

// SlotFile is the slot of the content of the folder's context file name
// (GEMINI.md), as the agent writes it (ContextFile).
func SlotFile(name string) string { return fileCond + name }

// SlotOpaque is a value of the CLI's own that changes from request to
// request and that nothing of ours tells (Claude Code's billing line
// suffix): a run writes the calibration's value, and a comparison with the
// real CLI's request reads any value there (Opaque).
const SlotOpaque = "opaque"

// Planted slots are those a calibration sets to words of its own (a path,
// a prompt, a branch name): found wherever they stand. The machine's own
// values (the date, the platform, …) are found only where they stand once
// in a text, since short words such as "linux" may also be the CLI's own.
var Planted = []string{SlotCwd, SlotCwdSlug, SlotCwdDashed, SlotCwdNameSlug, SlotHome, SlotHomeRel, SlotPrompt, SlotGitBranch, SlotGitStatus, SlotGitLog,
	SlotSession, SlotDatetime}

// Machine slots are the machine's own values.
var Machine = []string{SlotDate, SlotDateLong, SlotOSVersion, SlotPlatform, SlotShell, SlotModel, SlotTimezone}

// Opaque reads text as t filled with v, any value standing for its opaque
// slots: the opaque slots' values in text, and whether text reads so.
func (t Text) Opaque(v Values, text string) (string, bool) {
	var b strings.Builder
	b.WriteString("^")
	has := false
	for _, s := range t {
		if !s.When.Holds(v) {
			continue
		}
		switch {
		case s.Slot == SlotOpaque:
			b.WriteString("([0-9A-Za-z]{1,16})")
			has = true
		case s.Slot != "":
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
	for _, r := range m.Framing.Results {
		add(r.Text)
	}
	for _, sd := range m.Loop.Sides {
		for _, p := range sd.System {
			add(p.Text)
		}
		for _, p := range sd.After {
			add(p.Text)
		}
	}
	// a sub-agent's request and the words its answer comes back in
	inner := func(s string) string { return s }
	if sa := m.Subagent; sa != nil {
		add(sa.Result)
		if sa.Request != nil {
			inner = sa.Request.MaskOpaque()
		}
	}
	return func(s string) string {
		for i, re := range res {
			s = re.ReplaceAllLiteralString(s, repl[i])
		}
		return inner(s)
	}
}

// Skeleton is t with each slot written as {name}, and each conditional
// segment between {?condition} and {/condition}: what its shape measures.
func (t Text) Skeleton() string {
	var b strings.Builder
	for _, s := range t {
		if s.When != Always {
			b.WriteString("{?" + string(s.When) + "}")
		}
		if s.Slot != "" {
			b.WriteString("{" + s.Slot + "}")
		} else {
			b.WriteString(s.Lit)
		}
		if s.When != Always {
			b.WriteString("{/" + string(s.When) + "}")
		}
	}
	return b.String()
}
