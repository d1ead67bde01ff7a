package request

import "strings"

// ItemKind is what one item of a laid-out request is.
type ItemKind string

const (
	ItemPiece  ItemKind = "piece"  // the agent's own text
	ItemPrompt ItemKind = "prompt" // the user's prompt
	ItemHooks  ItemKind = "hooks"  // where one hook event's words stand
)

// Item is one message of the system prompt or the first turn, in order.
type Item struct {
	Kind ItemKind
	Role string
	// Text is the pieces' text with the run's values (several pieces of
	// one message are one text, as the agent joins them), or, for a
	// shipped model, a placeholder that says how to calibrate.
	Text string
	// Pieces are the ids of the pieces it holds.
	Pieces []string
	// Placeholder says Text stands for the CLI's words; Tokens are then
	// the words' token count as calibrated.
	Placeholder bool
	Tokens      int
	// Cache marks a prompt-cache marker (a system block's).
	Cache bool
	// Event is the hook event of an ItemHooks; Join joins its words to
	// the next item's text (Part.Join).
	Event string
	Join  string
}

// SystemItems is the system prompt with v: one item per piece sent.
func (m *Model) SystemItems(v Values) []Item {
	var out []Item
	for i := range m.System {
		p := &m.System[i]
		if !p.Present(v) {
			continue
		}
		out = append(out, m.item(p, v))
	}
	return out
}

// PieceItem is piece p with v: its text, or for a shipped model the
// placeholder of its size.
func (m *Model) PieceItem(p *Piece, v Values) Item { return m.item(p, v) }

func (m *Model) item(p *Piece, v Values) Item {
	it := Item{Kind: ItemPiece, Role: p.Role, Pieces: []string{p.ID}, Cache: p.Cache}
	if p.Text == nil {
		it.Text, it.Placeholder, it.Tokens = Placeholder(m, p), true, p.Shape.Tokens
	} else {
		it.Text = p.Text.Fill(v)
	}
	return it
}

// TurnItems lays out the first turn with v: the agent's pieces sent, the
// prompt, and a place for each hook event that spoke (spoke says which
// did). Pieces the agent joins into one message's text (Framing's
// paragraphs) with no hook's words between them are one item, as a reader
// of the request sees them.
func (m *Model) TurnItems(v Values, spoke func(event string) bool) []Item {
	var out []Item
	for _, part := range m.Turn {
		switch {
		case part.Prompt:
			out = append(out, Item{Kind: ItemPrompt, Role: "user"})
		case part.Hooks != "":
			if spoke != nil && spoke(part.Hooks) {
				out = append(out, Item{Kind: ItemHooks, Event: part.Hooks, Join: part.Join})
			}
		case part.Piece != nil && part.Piece.Present(v):
			it := m.item(part.Piece, v)
			if n := len(out); n > 0 && m.joins(out[n-1], it) {
				prev := &out[n-1]
				prev.Text += m.Framing.Separator + it.Text
				prev.Pieces = append(prev.Pieces, it.Pieces...)
				prev.Tokens += it.Tokens
				prev.Placeholder = prev.Placeholder || it.Placeholder
				continue
			}
			out = append(out, it)
		}
	}
	return out
}

// joins says whether piece b is a paragraph of the same text as a.
func (m *Model) joins(a, b Item) bool {
	return a.Kind == ItemPiece && b.Kind == ItemPiece && a.Role == b.Role &&
		m.Framing.Paragraphs != "" && string(m.Framing.Paragraphs) == a.Role
}

// JoinOf is what joins the words of event's hooks to the text after
// them ("" none: Part.Join).
func (m *Model) JoinOf(event string) string {
	for _, p := range m.Turn {
		if p.Hooks == event {
			return p.Join
		}
	}
	return ""
}

// Side is the side call named name, or nil.
func (m *Model) Side(name string) *Side {
	for i := range m.Loop.Sides {
		if m.Loop.Sides[i].Name == name {
			return &m.Loop.Sides[i]
		}
	}
	return nil
}

// SideItems is side call s's system prompt with v.
func (m *Model) SideItems(s *Side, v Values) []Item {
	var out []Item
	for i := range s.System {
		if p := &s.System[i]; p.Present(v) {
			out = append(out, m.item(p, v))
		}
	}
	return out
}

// HookEvents are the events the first turn has a place for.
func (m *Model) HookEvents() []string {
	var out []string
	for _, p := range m.Turn {
		if p.Hooks != "" {
			out = append(out, p.Hooks)
		}
	}
	return out
}

// ToolNames are the names of the tools the agent offers.
func (m *Model) ToolNames() []string {
	out := make([]string, len(m.Tools))
	for i, t := range m.Tools {
		out[i] = t.Name
	}
	return out
}

// Tool is the tool named name, or nil.
func (m *Model) Tool(name string) *Tool {
	for i := range m.Tools {
		if m.Tools[i].Name == name {
			return &m.Tools[i]
		}
	}
	return nil
}

// HasTool says whether the agent offers name.
func (m *Model) HasTool(name string) bool { return m.Tool(name) != nil }

// ToolTokens is what the tools' definitions cost, as calibrated.
func (m *Model) ToolTokens(offered []string) int {
	n := 0
	for _, t := range m.Tools {
		if offered == nil || contains(offered, t.Name) {
			n += t.Shape.Tokens
		}
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Describe is one line naming the model for a trace or a log.
func (m *Model) Describe() string {
	kind := "calibrated"
	if m.Shipped {
		kind = "bundled shape; calibrate to see its texts"
	}
	parts := []string{m.Ref(), string(m.API), kind}
	return strings.Join(parts, ", ")
}
