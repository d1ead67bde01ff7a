package profile

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Recognizer tells hook text from the rest of what an agent sent, by every
// rendering of the profiles it was made from (capture reads a request
// without knowing the agent's version).
type Recognizer struct {
	forms   []form
	affixes []affix
	own     map[string]bool // the agents' own paragraphs' fingerprints
}

type form struct {
	agent, version, outcome string
	r                       *Rendering
	whole                   *regexp.Regexp // the rendering is all of a text
	tail                    *regexp.Regexp // an unwrapped rendering ends a text, from a line start
	literal                 int            // how much fixed text it has: the more, the surer a match
	needle                  string         // its longest fixed piece: text without it cannot match
}

// Match is a text found to be a hook's rendering.
type Match struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	Outcome string `json:"outcome"`
	Place   Place  `json:"place"`
	// Hook is the event the text speaks for, with the tool on tool events
	// ("PreToolUse:Bash").
	Hook string `json:"hook"`
	// Text is the hook's own words ({text}).
	Text string `json:"text"`
	// IsError: the rendering is a tool result sent as an error.
	IsError bool `json:"is_error,omitempty"`
	// Before and After are the agent's words around the hook's part
	// (wrapper and preamble).
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// NewRecognizer compiles every rendering of ps. A rendering that is only
// the hook's words (Claude Code 2.1.197's deny reason as the tool result)
// cannot be told from other text and is left out.
func NewRecognizer(ps ...*Profile) *Recognizer {
	rc := &Recognizer{own: map[string]bool{}}
	for _, p := range ps {
		for _, f := range p.AgentParagraphs {
			rc.own[f] = true
		}
		ids := make([]string, 0, len(p.Outcomes))
		for id := range p.Outcomes {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			for i := range p.Outcomes[id].Renderings {
				r := &p.Outcomes[id].Renderings[i]
				if r.Place.Affix() {
					if a, ok := compileAffix(p, id, r); ok {
						rc.affixes = append(rc.affixes, a)
					}
					continue
				}
				if r.Place == PlaceNotice {
					continue // not in a request
				}
				if f, ok := compile(p, id, r); ok {
					rc.forms = append(rc.forms, f)
				}
			}
		}
	}
	// the most specific first: exit 2's "[{command}]: {text}" before a bare "{text}"
	slices.SortStableFunc(rc.forms, func(a, b form) int { return cmp.Compare(b.literal, a.literal) })
	return rc
}

func compile(p *Profile, id string, r *Rendering) (form, bool) {
	t, before, after, needle, lit, ok := fixedParts(r)
	if !ok {
		return form{}, false
	}
	body := t.pattern()
	end := `\z`
	if after != "" {
		end = `\n*\z` // a block the agent ends with a newline when another follows (Claude Code 2.1.197)
	}
	f := form{agent: p.Agent, version: p.Version, outcome: id, r: r, literal: lit, needle: needle,
		whole: regexp.MustCompile(`^` + regexp.QuoteMeta(before) + body + regexp.QuoteMeta(after) + end)}
	if before == "" && after == "" && len(t) > 0 && t[0].ph != "text" {
		f.tail = regexp.MustCompile(`(?m)^` + body + `\z`)
	}
	return f, true
}

// Own says whether paragraph begins as one the agent writes itself
// (Profile.AgentParagraphs): where a hook's words that run on over
// several paragraphs end.
func (rc *Recognizer) Own(paragraph string) bool { return rc.own[Fingerprint(paragraph)] }

// Match says whether text is, all of it, a hook's rendering at one of
// places (any place when none is given).
func (rc *Recognizer) Match(text string, places ...Place) (Match, bool) {
	for i := range rc.forms {
		f := &rc.forms[i]
		if len(places) > 0 && !slices.Contains(places, f.r.Place) || !strings.Contains(text, f.needle) {
			continue
		}
		if m := f.whole.FindStringSubmatch(text); m != nil {
			return f.match(f.whole.SubexpNames(), m), true
		}
	}
	return Match{}, false
}

// Tail finds a hook's unwrapped rendering that ends text from the start of
// a line (an agent appending hook output to a text block of its own): it
// returns where it starts, or -1.
func (rc *Recognizer) Tail(text string, places ...Place) (int, Match) {
	at, best := -1, Match{}
	for i := range rc.forms {
		f := &rc.forms[i]
		if f.tail == nil || len(places) > 0 && !slices.Contains(places, f.r.Place) || !strings.Contains(text, f.needle) {
			continue
		}
		if loc := f.tail.FindStringSubmatchIndex(text); loc != nil && (at < 0 || loc[0] < at) {
			m := make([]string, len(loc)/2)
			for k := range m {
				if loc[2*k] >= 0 {
					m[k] = text[loc[2*k]:loc[2*k+1]]
				}
			}
			at, best = loc[0], f.match(f.tail.SubexpNames(), m)
		}
	}
	return at, best
}

// match reads the groups m of a form's expression, whose names are names.
func (f *form) match(names, m []string) Match {
	event, _ := SplitID(f.outcome)
	out := Match{Agent: f.agent, Version: f.version, Outcome: f.outcome, Place: f.r.Place, Hook: event, IsError: f.r.IsError}
	tool := ""
	for i, name := range names {
		switch name {
		case "event":
			out.Hook = m[i]
		case "tool":
			tool = m[i]
		case "text":
			out.Text = f.r.Escape.Undo(m[i])
		}
	}
	if tool != "" {
		out.Hook += ":" + tool
	}
	before := f.r.Preamble
	if f.r.Wrapper != nil {
		before, out.After = f.r.Wrapper.Open+before, f.r.Wrapper.Close
	}
	out.Before = before
	return out
}

// fixedParts are a rendering's template and the agent's fixed words around
// and within it: the wrapper and preamble (before, after), its longest
// fixed piece (a text without it cannot match) and how much fixed text
// there is (the more, the surer a match). ok is false for a rendering that
// has none: only the hook's words, which cannot be told from other text.
func fixedParts(r *Rendering) (t template, before, after, needle string, lit int, ok bool) {
	t, _, err := parseTemplate(r.Text)
	if err != nil {
		return nil, "", "", "", 0, false
	}
	before = r.Preamble
	if r.Wrapper != nil {
		before, after = r.Wrapper.Open+before, r.Wrapper.Close
	}
	lit, needle = len(before)+len(after), before
	if len(after) > len(needle) {
		needle = after
	}
	for _, pc := range t {
		lit += len(pc.lit)
		if len(pc.lit) > len(needle) {
			needle = pc.lit
		}
	}
	return t, before, after, needle, lit, lit > 0
}
