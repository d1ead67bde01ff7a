package request

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Folder is the data folder's subfolder of calibrated request models:
// requests/<agent>/<version>.json.
const Folder = "requests"

// bundled are the shapes of the pinned CLIs' request models (no texts),
// written by `hookctl calibrate --bundle` against the CLIs in tools/agents.
//
//go:embed bundled
var bundled embed.FS

// Path is where a calibrated model of agent@version lives under dataDir.
func Path(dataDir, agent, version string) string {
	return filepath.Join(dataDir, Folder, agent, version+".json")
}

// BundledPath is where the shape of agent@version is kept in the
// repository (relative to this package).
func BundledPath(agent, version string) string {
	return path.Join("bundled", agent, version+".json")
}

// ErrInvalid is wrapped by every error of a model file that does not read.
var ErrInvalid = errors.New("invalid request model")

// Error is a model file that does not read: where, and what.
type Error struct {
	File         string
	Line, Column int
	Problems     []string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, strings.Join(e.Problems, "; "))
}

func (e *Error) Unwrap() error { return ErrInvalid }

// Hash is a text's SHA-256, hex.
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Encode writes m as its file holds it.
func Encode(m *Model) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(m)
	return buf.Bytes()
}

// Parse reads a model file; file names it in errors. Every problem is
// reported at once.
func Parse(file string, data []byte) (*Model, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Model
	if err := dec.Decode(&m); err != nil {
		off := int64(0)
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		default:
			off = dec.InputOffset()
		}
		line, col := lineCol(data, off)
		return nil, &Error{File: file, Line: line, Column: col, Problems: []string{err.Error()}}
	}
	var probs []string
	if m.Agent == "" || m.Version == "" {
		probs = append(probs, "agent and version are required")
	}
	if !slices.Contains(APIs, m.API) {
		probs = append(probs, fmt.Sprintf("api %q is none of %v", m.API, APIs))
	}
	prompts := 0
	for i, p := range m.Turn {
		n := 0
		if p.Piece != nil {
			n++
		}
		if p.Prompt {
			n++
			prompts++
		}
		if p.Hooks != "" {
			n++
		}
		if n != 1 {
			probs = append(probs, fmt.Sprintf("turn[%d] is one of piece, prompt or hooks", i))
		}
	}
	if prompts != 1 {
		probs = append(probs, fmt.Sprintf("the turn holds the prompt once (%d times)", prompts))
	}
	check := func(where string, p *Piece) {
		if p.Text == nil && !m.Shipped {
			probs = append(probs, where+" has no text and the model is not a shipped shape")
		}
		if p.Text != nil && m.Shipped {
			probs = append(probs, where+" has a text in a shipped shape: the CLI's words are not ours to ship")
		}
		if !p.When.Valid() {
			probs = append(probs, fmt.Sprintf("%s: when %q is none of git, no_git, file:NAME, no_file:NAME", where, p.When))
		}
	}
	for i := range m.System {
		check(fmt.Sprintf("system[%d]", i), &m.System[i])
	}
	for i := range m.Turn {
		if m.Turn[i].Piece != nil {
			check(fmt.Sprintf("turn[%d].piece", i), m.Turn[i].Piece)
		}
	}
	for i := range m.Loop.AfterTool {
		check(fmt.Sprintf("loop.after_tool[%d].piece", i), &m.Loop.AfterTool[i].Piece)
	}
	for i := range m.Loop.Reminders {
		check(fmt.Sprintf("loop.reminders[%d].piece", i), &m.Loop.Reminders[i].Piece)
	}
	if m.Shipped && m.HookNames != nil && m.HookNames.PluginNote != nil {
		probs = append(probs, "hook_names.plugin_note has a text in a shipped shape")
	}
	if m.Shipped && m.Framing.EmptyResult != nil {
		probs = append(probs, "framing.empty_result has a text in a shipped shape: the CLI's words are not ours to ship")
	}
	checkTools := func(where string, ts []Tool) {
		for i, t := range ts {
			if t.Name == "" {
				probs = append(probs, fmt.Sprintf("%s[%d] has no name", where, i))
			}
			if (t.Definition == nil) != m.Shipped {
				probs = append(probs, fmt.Sprintf("%s[%d] (%s): a definition in a calibrated model only", where, i, t.Name))
			}
		}
	}
	checkTools("tools", m.Tools)
	for i := range m.Loop.Sides {
		s := &m.Loop.Sides[i]
		if s.Name == "" || s.When != SideAfterTurn && s.When != SideTurnStart {
			probs = append(probs, fmt.Sprintf("loop.sides[%d] (%s): a side call has a name and happens at %s or %s, not %q", i, s.Name, SideTurnStart, SideAfterTurn, s.When))
		}
		for k := range s.System {
			check(fmt.Sprintf("loop.sides[%d].system[%d]", i, k), &s.System[k])
		}
		for k := range s.After {
			check(fmt.Sprintf("loop.sides[%d].after[%d]", i, k), &s.After[k])
		}
		checkTools(fmt.Sprintf("loop.sides[%d].tools", i), s.Tools)
		if m.Shipped && s.Answer != nil {
			probs = append(probs, fmt.Sprintf("loop.sides[%d] (%s) has an answer in a shipped shape", i, s.Name))
		}
	}
	for i, r := range m.Framing.Results {
		if m.Shipped && r.Text != nil {
			probs = append(probs, fmt.Sprintf("framing.results[%d] (%s) has a text in a shipped shape: the CLI's words are not ours to ship", i, r.Tool))
		}
	}
	if m.Shipped && (m.Framing.Prompt != nil || m.Framing.EmptyResult != nil) {
		probs = append(probs, "framing has a text in a shipped shape: the CLI's words are not ours to ship")
	}
	for k, l := range m.Lists {
		if m.Shipped && l.Item != nil {
			probs = append(probs, fmt.Sprintf("lists.%s has an item's text in a shipped shape: the CLI's words are not ours to ship", k))
		}
	}
	if len(probs) > 0 {
		return nil, &Error{File: file, Line: 1, Column: 1, Problems: probs}
	}
	m.File = file
	return &m, nil
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// Shape is m with every text of the CLI's left out: what the repository
// may bundle (slots, lengths, token counts, hashes).
func ShapeOf(m *Model) *Model {
	out := *m
	out.Shipped = true
	out.System = slices.Clone(m.System)
	for i := range out.System {
		out.System[i].Text = nil
	}
	out.Turn = slices.Clone(m.Turn)
	for i, p := range out.Turn {
		if p.Piece != nil {
			pc := *p.Piece
			pc.Text = nil
			out.Turn[i].Piece = &pc
		}
	}
	out.Tools = shapeTools(m.Tools)
	// the agent's words anywhere else: its lists' items, its wrapper of
	// the prompt, its words for an empty result, after a tool, as a
	// reminder, around a tool's output, of its side calls
	out.Lists = map[string]List{}
	for k, l := range m.Lists {
		l.Item = nil
		out.Lists[k] = l
	}
	if len(out.Lists) == 0 {
		out.Lists = nil
	}
	out.Framing.Prompt, out.Framing.EmptyResult = nil, nil
	out.Loop.AfterTool = slices.Clone(m.Loop.AfterTool)
	for i := range out.Loop.AfterTool {
		out.Loop.AfterTool[i].Piece.Text = nil
	}
	out.Loop.Reminders = slices.Clone(m.Loop.Reminders)
	for i := range out.Loop.Reminders {
		out.Loop.Reminders[i].Piece.Text = nil
	}
	if m.HookNames != nil {
		hn := *m.HookNames
		hn.PluginNote = nil
		out.HookNames = &hn
	}
	out.Framing.Results = slices.Clone(m.Framing.Results)
	for i := range out.Framing.Results {
		out.Framing.Results[i].Text = nil
	}
	out.Loop.Sides = slices.Clone(m.Loop.Sides)
	for i := range out.Loop.Sides {
		s := &out.Loop.Sides[i]
		s.System, s.After = shapePieces(s.System), shapePieces(s.After)
		s.Tools, s.Fields, s.Answer = shapeTools(s.Tools), nil, nil
	}
	// the body's other fields and headers may carry the CLI's words
	// (metadata, betas): their names stay, their values go
	out.Fields = nil
	out.Headers = nil
	out.Stdin = m.Stdin
	// how it runs a sub-agent: its request's shape, its result's size
	if m.Subagent != nil {
		sa := *m.Subagent
		if sa.Request != nil {
			sa.Request = ShapeOf(sa.Request)
		}
		sa.Result = nil
		out.Subagent = &sa
	}
	// its listing's summary
	if m.Tree != nil {
		tr := *m.Tree
		tr.Summary, tr.Truncated = "", ""
		out.Tree = &tr
	}
	return &out
}

func shapePieces(ps []Piece) []Piece {
	out := slices.Clone(ps)
	for i := range out {
		out[i].Text = nil
	}
	return out
}

func shapeTools(ts []Tool) []Tool {
	out := slices.Clone(ts)
	for i := range out {
		out[i].Definition = nil
	}
	return out
}

// Catalog finds request models: the bundled shapes and those calibrated
// into a data folder (which win: they hold the CLI's texts).
type Catalog struct {
	dataDir string
	bundled fs.FS
}

// NewCatalog reads the bundled shapes and, when dataDir is not empty,
// the models calibrated there.
func NewCatalog(dataDir string) *Catalog { return &Catalog{dataDir: dataDir, bundled: bundled} }

// ErrNone is wrapped when no model exists for agent@version.
var ErrNone = errors.New("no request model for this version")

// Find is agent@version's model: the calibrated one, else the bundled
// shape, else an error wrapping ErrNone.
func (c *Catalog) Find(agent, version string) (*Model, error) {
	if c.dataDir != "" {
		file := Path(c.dataDir, agent, version)
		data, err := os.ReadFile(file)
		if err == nil {
			m, err := Parse(file, data)
			if err != nil {
				return nil, err
			}
			m.Origin = Calibrated
			return m, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("request model: %w", err)
		}
	}
	data, err := fs.ReadFile(c.bundled, BundledPath(agent, version))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w (calibrate it: hookctl calibrate %s)", agent, version, ErrNone, agent)
	}
	m, err := Parse("bundled/"+agent+"/"+version+".json", data)
	if err != nil {
		return nil, err
	}
	m.Origin = Bundled
	return m, nil
}

// Bundled lists the versions of agent whose shape is bundled.
func (c *Catalog) Bundled(agent string) []string {
	ents, _ := fs.ReadDir(c.bundled, path.Join("bundled", agent))
	var out []string
	for _, e := range ents {
		if v, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			out = append(out, v)
		}
	}
	return out
}

// Placeholder is what a run shows in place of a piece's text when the
// model is a shipped shape: which of the CLI's texts stands there, its
// size, and how to see it.
func Placeholder(m *Model, p *Piece) string {
	what := "its own context"
	switch kind, n, _ := strings.Cut(p.ID, "."); kind {
	case "system":
		what = "its system prompt, part " + n
	case "after":
		what = "its words after the " + n + " tool"
	case "reminder":
		what = "its reminder"
	}
	return fmt.Sprintf("[%s %s: %s — %s characters, %s tokens. Hook Studio does not ship the CLI's words: "+
		"run `hookctl calibrate %s` (or Settings ▸ Agents ▸ Calibrate) to see them here.]",
		m.Agent, m.Version, what, strconv.Itoa(p.Shape.Chars), strconv.Itoa(p.Shape.Tokens), m.Agent)
}

// OriginNone is a run under an agent with no request model for its
// version: the agent's loop, without its own words.
const OriginNone = "none"

// Bare is the request model of an agent version nothing is known of: no
// planning call, the prompt alone, no tools of its own (the scenario's).
func Bare(agent, version string) *Model {
	return &Model{Agent: agent, Version: version, API: Anthropic, Turn: []Part{{Prompt: true}}, Shipped: true,
		Loop: Loop{KeepsBlockedAnswer: true}}
}
