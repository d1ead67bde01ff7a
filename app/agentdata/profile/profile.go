// Package profile holds rendering profiles: for one version of one agent
// CLI (Claude Code 2.1.332, Codex 0.171, …), how each hook outcome reaches
// the model — the role, the wrapper and preamble around the hook's words,
// the place (a message of its own, a paragraph of a message the agent
// shares, a block after a tool result, the tool result itself, …) and how
// several hooks' outputs of one event come together. Renderings move
// between releases, so they are data learned by calibration (hookctl
// calibrate), not code: the simulator renders through a profile, capture
// recognises every known profile's hook text, the docs are generated from
// them.
//
// A profile is a JSON file, agents/<agent>/<version>.json in the app's data
// folder (calibrated) or embedded in the binary (bundled).
package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"html"
	"strings"
	"unicode"
)

// Profile is how one version of one agent renders hook outcomes.
type Profile struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	// MadeBy says how the file was made ("hookctl calibrate claude-code").
	MadeBy string `json:"made_by,omitempty"`
	// Outcomes by ID, "<Event>.<kind>" ("PreToolUse.context").
	Outcomes map[string]*Outcome `json:"outcomes"`
	// AgentParagraphs are the fingerprints (Fingerprint) of the paragraphs
	// the agent writes itself in the messages it shares with hooks' words
	// (Claude Code's system-role messages): a hook's words run on over
	// several paragraphs until one of these, or another hook's, begins.
	// Learned by calibration, sorted; the words are not kept.
	AgentParagraphs []string `json:"agent_paragraphs,omitempty"`

	// Where it came from (not in the file).
	Origin Origin `json:"-"`
	File   string `json:"-"`
	// By says why a run renders with it (Choice.By), once chosen.
	By string `json:"-"`
}

// Origin is where a profile was found.
type Origin string

const (
	// Bundled profiles are embedded in the binary.
	Bundled Origin = "bundled"
	// Calibrated profiles were written to the data folder by hookctl calibrate.
	Calibrated Origin = "calibrated"
)

// Ref is "<agent>@<version>".
func (p *Profile) Ref() string { return p.Agent + "@" + p.Version }

// Outcome is what the model reads for one kind of hook output at one event:
// one or more renderings (Claude Code 2.1.332's Stop block is a user
// message and a system message), and how several hooks' outputs join.
type Outcome struct {
	Renderings []Rendering `json:"renderings"`
	Join       *Join       `json:"join,omitempty"`
}

// Rendering is one piece of text the agent puts before the model.
type Rendering struct {
	Place Place `json:"place"`
	// Role of the message it is or is part of: system, user, developer
	// (Codex's input items), assistant. Empty for a tool result, a prompt
	// prefix or suffix and a notice.
	Role   Role   `json:"role,omitempty"`
	Anchor Anchor `json:"anchor,omitempty"`
	// Wrapper is the agent's markup around the text (<system-reminder>,
	// <hook_context>); Preamble its words before the hook's, inside it.
	Wrapper  *Wrapper `json:"wrapper,omitempty"`
	Preamble string   `json:"preamble,omitempty"`
	// Text is a template of the hook's part: the agent's label and the
	// hook's words, with {event} {tool} {command} {text} {prompt}.
	Text string `json:"text"`
	// IsError marks a tool result sent as an error.
	IsError bool `json:"is_error,omitempty"`
	// Escape is applied to the hook's words ({text}) before they are placed.
	Escape Escape `json:"escape,omitempty"`
	// Separator joins a prompt prefix or suffix to the prompt's text.
	Separator string `json:"separator,omitempty"`
}

// Wrapper is markup around a rendering, as written (newlines included).
type Wrapper struct {
	Open  string `json:"open"`
	Close string `json:"close"`
}

// Join is how several hooks' outputs of one event reach the model.
type Join struct {
	As JoinKind `json:"as"`
	// Separator between outputs joined in one message (JoinParagraphs) or
	// one text (JoinText).
	Separator string `json:"separator,omitempty"`
}

// Place is where a rendering reaches the model.
type Place string

const (
	// PlaceMessage: a message of its own, with Role.
	PlaceMessage Place = "message"
	// PlaceParagraph: a paragraph of a message the agent shares with its own
	// context (Claude Code's system-role message after the prompt).
	PlaceParagraph Place = "paragraph"
	// PlaceBlock: a content block (a part) of the turn it follows — a text
	// block after a tool result, an extra text part of the user's message.
	PlaceBlock Place = "block"
	// PlaceToolResult: the tool's result itself; the tool did not run.
	PlaceToolResult Place = "tool_result"
	// PlacePromptPrefix / PlacePromptSuffix: joined to the user's prompt
	// text with Separator (Gemini CLI's SessionStart, Copilot CLI's prompt hook).
	PlacePromptPrefix Place = "prompt_prefix"
	PlacePromptSuffix Place = "prompt_suffix"
	// PlaceNotice: shown to the user only; the model reads nothing.
	PlaceNotice Place = "notice"
	// PlaceSystemSuffix: appended to the agent's system prompt with
	// Separator (Qwen Code's SessionStart context).
	PlaceSystemSuffix Place = "system_suffix"
	// PlaceResultSuffix: appended to the tool's result with Separator, the
	// tool having run (Gemini CLI's AfterTool context, Copilot CLI's
	// postToolUse context).
	PlaceResultSuffix Place = "result_suffix"
)

// Places lists every place, for validation and the docs.
var Places = []Place{PlaceMessage, PlaceParagraph, PlaceBlock, PlaceToolResult, PlacePromptPrefix, PlacePromptSuffix, PlaceNotice,
	PlaceSystemSuffix, PlaceResultSuffix}

// Affix says whether a rendering is joined to a text of the agent's own
// (the prompt, the system prompt, a tool's result) rather than a text of
// its own.
func (p Place) Affix() bool {
	switch p {
	case PlacePromptPrefix, PlacePromptSuffix, PlaceSystemSuffix, PlaceResultSuffix:
		return true
	}
	return false
}

// Role is a message role.
type Role string

// Roles lists the roles a rendering may have.
var Roles = []Role{"system", "user", "developer", "assistant"}

// Anchor is the message a rendering follows (or precedes).
type Anchor string

const (
	AnchorBeforePrompt     Anchor = "before_prompt"
	AnchorAfterPrompt      Anchor = "after_prompt"
	AnchorAfterToolResult  Anchor = "after_tool_result"
	AnchorAfterToolResults Anchor = "after_tool_results"
	AnchorAfterAnswer      Anchor = "after_answer"
	// AnchorBeforeToolResult: after the model's tool call, before the
	// tool's result (Codex's PreToolUse and PostToolUse context).
	AnchorBeforeToolResult Anchor = "before_tool_result"
)

// Anchors lists every anchor.
var Anchors = []Anchor{AnchorBeforePrompt, AnchorAfterPrompt, AnchorAfterToolResult, AnchorAfterToolResults, AnchorAfterAnswer, AnchorBeforeToolResult}

// Escape is how the hook's words are escaped.
type Escape string

const (
	// EscapeHTML turns <, >, &, ' and " into entities.
	EscapeHTML Escape = "html"
	// EscapeAngles turns < and > into &lt; and &gt;, nothing else (Qwen
	// Code's and Gemini CLI's additionalContext).
	EscapeAngles Escape = "angles"
)

// Escapes lists every escape.
var Escapes = []Escape{EscapeHTML, EscapeAngles}

var angles = strings.NewReplacer("<", "&lt;", ">", "&gt;")

// Apply escapes s.
func (e Escape) Apply(s string) string {
	switch e {
	case EscapeHTML:
		return html.EscapeString(s)
	case EscapeAngles:
		return angles.Replace(s)
	}
	return s
}

var unangles = strings.NewReplacer("&lt;", "<", "&gt;", ">")

// Undo gives back the words s was escaped from.
func (e Escape) Undo(s string) string {
	switch e {
	case EscapeHTML:
		return html.UnescapeString(s)
	case EscapeAngles:
		return unangles.Replace(s)
	}
	return s
}

// JoinKind says whether several outputs share a message.
type JoinKind string

const (
	// JoinSeparate: each output is a message (or block) of its own.
	JoinSeparate JoinKind = "separate"
	// JoinParagraphs: each output is a rendering of its own, the renderings
	// paragraphs of one message, Separator between them.
	JoinParagraphs JoinKind = "paragraphs"
	// JoinText: the outputs' words are joined with Separator into the
	// {text} of one rendering (Claude Code 2.1.332's PreToolUse context:
	// one label, then each hook's context on its own line).
	JoinText JoinKind = "text"
)

// JoinKinds lists every join.
var JoinKinds = []JoinKind{JoinSeparate, JoinParagraphs, JoinText}

// Values fill a rendering's template.
type Values struct {
	Event   string // the hook event ("PreToolUse")
	Tool    string // the tool's name, on tool events
	Command string // the handler's command as written
	Text    string // the hook's words: stdout, context, reason, stderr
	Prompt  string // the user's prompt
	Input   string // the tool call's input as the agent quotes it (Codex: the command)
	HookID  string // the agent's id of the hook run (Codex: stop:<n>:<hooks file>)
}

// Rendered is a rendering filled in: Content is what the model reads,
// Before and After the agent's own words around the hook's (wrapper and
// preamble), both part of Content.
type Rendered struct {
	Content string
	Before  string
	After   string
}

// Render fills the rendering with v.
func (r *Rendering) Render(v Values) Rendered {
	v.Text = r.Escape.Apply(v.Text)
	body := mustTemplate(r.Text).fill(v)
	before, after := r.Preamble, ""
	if r.Wrapper != nil {
		before, after = r.Wrapper.Open+before, r.Wrapper.Close
	}
	return Rendered{Content: before + body + after, Before: before, After: after}
}

// Outcome returns the outcome id of p, or nil.
func (p *Profile) Outcome(id string) *Outcome {
	if p == nil {
		return nil
	}
	return p.Outcomes[id]
}

// ID is an outcome's id: the event and the kind of output.
func ID(event, kind string) string { return event + "." + kind }

// SplitID is the event and kind of an outcome id.
func SplitID(id string) (event, kind string) {
	event, kind, _ = strings.Cut(id, ".")
	return event, kind
}

// Fingerprint is how a profile knows a paragraph of the agent's own
// without holding its words: the first three words of its first line
// (letters and digits only, digits as 0: a date, a version), hashed — 12
// hex digits of SHA-256.
func Fingerprint(paragraph string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(paragraph), "\n")
	words := strings.FieldsFunc(first, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	words = words[:min(3, len(words))]
	key := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '0'
		}
		return r
	}, strings.Join(words, " "))
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:6])
}
