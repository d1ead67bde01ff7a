package capture

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"hookstudio/app/agentdata/identify"
	"hookstudio/app/agentdata/profile"
)

// AgentReader reads a call with the rendering profiles of the agent CLI
// that sent it (identify tells which, from its headers and system
// prompt): each hook's words are origin hook with their event, the
// agent's own tagged context (Codex's <environment_context>, Gemini CLI's
// <session_context>) agent_context. Claude Code's texts (and those of an
// agent no header tells) are read with every known Claude Code version's
// profile (claude.go).
type AgentReader struct {
	catalog *profile.Catalog

	mu     sync.Mutex
	agents map[string]*agentProfiles // by agent, read once
}

type agentProfiles struct {
	rc   *profile.Recognizer
	bare []bareRendering
}

// bareRendering is a rendering that is the hook's words alone in a message
// of its own (Codex's developer messages, Copilot CLI's session start):
// nothing in the text tells it, so where it stands does.
type bareRendering struct {
	event  string
	role   string // the capture's role: a developer message is "system"
	anchor profile.Anchor
}

// NewAgentReader reads with the profiles of catalog (bundled, and those
// calibrated into its data folder).
func NewAgentReader(catalog *profile.Catalog) *AgentReader {
	return &AgentReader{catalog: catalog, agents: map[string]*agentProfiles{}}
}

// Read sets who sent c and reads its messages with that agent's profiles.
func (ar *AgentReader) Read(c *Call) {
	if ar == nil {
		return
	}
	system := ""
	for _, m := range c.Messages {
		if m.Origin == OriginSystem {
			system = m.Content
			break
		}
	}
	a := identifyCall(c.Headers, system)
	if a.Name == "" || a.Name == profile.ClaudeCode {
		// Claude Code, or an agent no header tells (an SDK script): Claude
		// Code's hook words are its own, read by every known version's
		c.Messages = ar.readClaude(c.Messages)
		if a.Name == "" {
			return
		}
	}
	c.Agent = &a
	if a.Name == profile.ClaudeCode {
		return
	}
	if ap := ar.profiles(a.Name); ap != nil {
		c.Messages = ap.read(c.Messages)
	}
}

// ClaudeMessage is one message of a request Claude Code sent (its role and
// content as the Messages API has them), as a capture records it:
// normalised (AnthropicMessage), then its hook texts read as Read reads
// Claude Code's. readClaude reads each message on its own (a system
// message's paragraphs are joined within their text block), so a request
// read a message at a time is the request read whole: the session
// importer reads each message of a transcript once, however many calls
// send it.
func (ar *AgentReader) ClaudeMessage(role string, content json.RawMessage) ([]Message, []string) {
	ms, warnings := AnthropicMessage(role, content)
	return ar.readClaude(ms), warnings
}

// readClaude reads ms with every known Claude Code version's profile.
func (ar *AgentReader) readClaude(ms []Message) []Message {
	if ar == nil {
		return ms
	}
	if ap := ar.profiles(profile.ClaudeCode); ap != nil {
		return readClaude(ap.rc, ms)
	}
	return ms
}

// identifyCall tells the agent from a call's recorded headers and its
// system prompt.
func identifyCall(headers map[string]string, system string) identify.Agent {
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	return identify.Request(h, system)
}

func (ar *AgentReader) profiles(agent string) *agentProfiles {
	ar.mu.Lock()
	defer ar.mu.Unlock()
	if ap, ok := ar.agents[agent]; ok {
		return ap
	}
	ps, err := ar.catalog.All(agent)
	if err != nil || len(ps) == 0 {
		ar.agents[agent] = nil // no profile (opencode, Cline): its texts stay as read
		return nil
	}
	ap := &agentProfiles{rc: profile.NewRecognizer(ps...)}
	for _, p := range ps {
		for id, o := range p.Outcomes {
			event, _ := profile.SplitID(id)
			for _, r := range o.Renderings {
				if r.Place == profile.PlaceMessage && r.Text == "{text}" && r.Wrapper == nil && r.Preamble == "" {
					role := string(r.Role)
					if role == "developer" {
						role = "system"
					}
					b := bareRendering{event: event, role: role, anchor: r.Anchor}
					if !slices.Contains(ap.bare, b) {
						ap.bare = append(ap.bare, b)
					}
				}
			}
		}
	}
	slices.SortFunc(ap.bare, func(x, y bareRendering) int { return strings.Compare(x.event, y.event) })
	ar.agents[agent] = ap
	return ap
}

// taggedRe is a text that is one element of the agent's own markup
// (<environment_context>…</environment_context>), after a heading line
// that names it at the most (Codex's quoted instruction files: "# <file>
// instructions for <folder>", then the file in its element).
var taggedRe = regexp.MustCompile(`(?s)^\s*(?:#[^\n]*\n\s*)?<([A-Za-z_][\w:-]*)[^>]*>.*</([A-Za-z_][\w:-]*)[^>]*>\s*$`)

func tagged(text string) bool {
	m := taggedRe.FindStringSubmatch(text)
	return m != nil && m[1] == m[2]
}

// read gives each message the origin its agent's profiles tell (readOne),
// then the bare hook texts theirs by where they stand.
func (ap *agentProfiles) read(in []Message) []Message {
	var out []Message
	for i, m := range in {
		out = append(out, ap.readOne(m, func() string { return lastCall(in, i) })...)
	}
	return ap.placeBare(out)
}

// readOne reads m: a text that is all a hook's rendering, a rendering
// joined to the agent's own text (split off into a message of its own),
// the agent's own tagged context. lastTool is the tool called last before
// m, which names a tool hook's words that do not.
func (ap *agentProfiles) readOne(m Message, lastTool func() string) []Message {
	if m.Origin == OriginAssistant || m.Kind != "" {
		return []Message{m}
	}
	if rm, ok := ap.rc.Match(m.Content, placesOf(m)...); ok {
		m.Origin, m.Hook = OriginHook, hookName(rm, lastTool)
		return []Message{m}
	}
	if sp, ok := ap.rc.Affix(m.Content, affixesOf(m)...); ok {
		hook, own := m, m
		hook.Content, hook.Origin, hook.Hook = sp.Hook, OriginHook, hookName(sp.Match, lastTool)
		own.Content = sp.Own
		if sp.Prefix {
			return []Message{hook, own}
		}
		return []Message{own, hook}
	}
	if m.Origin != OriginSystem && m.Role != "tool" && tagged(m.Content) {
		m.Origin = OriginContext
	}
	return []Message{m}
}

// Message reads one message of a request agent sent as Read reads it
// within the whole request, but for the bare hook texts, which only where
// they stand tells: the session importer reads a rollout's items one at a
// time and knows those from the rollout. lastTool is the tool called last
// before m ("" none).
func (ar *AgentReader) Message(agent string, m Message, lastTool func() string) []Message {
	if ar == nil {
		return []Message{m}
	}
	ap := ar.profiles(agent)
	if ap == nil {
		return []Message{m}
	}
	return ap.readOne(m, lastTool)
}

// placesOf are the places a whole message of m's role can be.
func placesOf(m Message) []profile.Place {
	if m.Role == "tool" {
		return []profile.Place{profile.PlaceToolResult}
	}
	return []profile.Place{profile.PlaceMessage, profile.PlaceBlock, profile.PlaceParagraph}
}

// affixesOf are the places a rendering joined to m's text can be.
func affixesOf(m Message) []profile.Place {
	switch {
	case m.Role == "tool":
		return []profile.Place{profile.PlaceResultSuffix}
	case m.Origin == OriginSystem:
		return []profile.Place{profile.PlaceSystemSuffix}
	case m.Role == "user":
		return []profile.Place{profile.PlacePromptPrefix, profile.PlacePromptSuffix}
	}
	return nil
}

// hookName is the hook a match speaks for; a tool event without the tool
// in its text takes the tool of the call it follows.
func hookName(m profile.Match, lastTool func() string) string {
	if strings.Contains(m.Hook, ":") || !toolEvent(m.Hook) {
		return m.Hook
	}
	if tool := lastTool(); tool != "" {
		return m.Hook + ":" + tool
	}
	return m.Hook
}

func toolEvent(event string) bool {
	e := strings.ToLower(event)
	return strings.Contains(e, "tool")
}

// lastCall is the name of the last tool call before ms[at] ("" none).
func lastCall(ms []Message, at int) string {
	for j := at - 1; j >= 0; j-- {
		if n := len(ms[j].ToolCalls); n > 0 {
			return ms[j].ToolCalls[n-1].Name
		}
	}
	return ""
}

// placeBare reads the hook texts nothing in their words tells (Codex's
// developer messages, Copilot CLI's session start) by where they stand:
// before the prompt (the last text the user typed before the first
// answer), after it, or between a tool call and its result.
func (ap *agentProfiles) placeBare(ms []Message) []Message {
	if len(ap.bare) == 0 {
		return ms
	}
	prompt, firstAnswer := -1, len(ms)
	for i, m := range ms {
		if m.Role == "assistant" {
			firstAnswer = i
			break
		}
		if m.Origin == OriginUser {
			prompt = i
		}
	}
	for i := range ms {
		m := &ms[i]
		if m.Origin == OriginHook || m.Origin == OriginAssistant || m.Origin == OriginSystem || m.Kind != "" || m.Role == "tool" || tagged(m.Content) {
			continue
		}
		var anchor profile.Anchor
		switch {
		case i < firstAnswer && prompt >= 0 && i < prompt:
			anchor = profile.AnchorBeforePrompt
		case i < firstAnswer && prompt >= 0 && i > prompt:
			anchor = profile.AnchorAfterPrompt
		case i > 0 && betweenCallAndResult(ms, i):
			anchor = profile.AnchorBeforeToolResult
		case i > 0 && ms[i-1].Role == "tool":
			anchor = profile.AnchorAfterToolResult
		default:
			continue
		}
		var events []string
		for _, b := range ap.bare {
			if b.role == m.Role && b.anchor == anchor && !slices.Contains(events, b.event) {
				events = append(events, b.event)
			}
		}
		if len(events) == 0 {
			continue
		}
		m.Origin, m.Hook = OriginHook, strings.Join(events, "/")
		if anchor == profile.AnchorBeforeToolResult || anchor == profile.AnchorAfterToolResult {
			if tool := lastCall(ms, i); tool != "" {
				m.Hook += ":" + tool
			}
		}
	}
	return ms
}

// betweenCallAndResult says whether ms[i] stands after a tool call whose
// result comes later.
func betweenCallAndResult(ms []Message, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch {
		case ms[j].Role == "tool":
			return false
		case len(ms[j].ToolCalls) > 0:
			for k := i + 1; k < len(ms); k++ {
				if ms[k].Role == "tool" {
					return true
				}
				if ms[k].Role == "assistant" {
					return false
				}
			}
			return false
		case ms[j].Role == "assistant":
			return false
		}
	}
	return false
}
