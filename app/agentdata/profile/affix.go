package profile

import (
	"regexp"
	"slices"
	"strings"
)

// affix is a rendering joined to a text of the agent's own: at its start
// (a prompt prefix) or its end (a prompt, system prompt or tool result
// suffix), Separator between them.
type affix struct {
	form
	prefix bool
}

func compileAffix(p *Profile, id string, r *Rendering) (affix, bool) {
	t, before, after, needle, lit, ok := fixedParts(r)
	if !ok {
		return affix{}, false // the hook's words alone, joined to the agent's: nothing tells where they start
	}
	body := regexp.QuoteMeta(before) + t.pattern() + regexp.QuoteMeta(after)
	sep := regexp.QuoteMeta(r.Separator)
	a := affix{form: form{agent: p.Agent, version: p.Version, outcome: id, r: r, literal: lit, needle: needle}, prefix: r.Place == PlacePromptPrefix}
	if a.prefix {
		a.whole = regexp.MustCompile(`^(?s:` + body + `)` + sep)
	} else {
		// the earliest start whose rest is all the rendering: a lazy prefix
		a.whole = regexp.MustCompile(`^(?s:.*?)` + sep + `(` + body + `)\z`)
	}
	return a, true
}

// Split is a text cut where a hook's rendering joins the agent's own.
type Split struct {
	Match
	// Hook is the rendering (wrapper and all), Own the agent's text; the
	// separator between them is in neither.
	Hook, Own string
	// Prefix: Hook comes first.
	Prefix bool
}

// Affix finds a hook's rendering joined to text (the prompt, the system
// prompt, a tool's result) at one of places (any affix place when none is
// given).
func (rc *Recognizer) Affix(text string, places ...Place) (Split, bool) {
	var best Split
	found := false
	for i := range rc.affixes {
		a := &rc.affixes[i]
		if len(places) > 0 && !slices.Contains(places, a.r.Place) || !strings.Contains(text, a.needle) {
			continue
		}
		loc := a.whole.FindStringSubmatchIndex(text)
		if loc == nil {
			continue
		}
		sp := Split{Prefix: a.prefix}
		if a.prefix {
			end := loc[1] - len(a.r.Separator)
			sp.Hook, sp.Own = text[:end], text[loc[1]:]
		} else {
			sp.Hook, sp.Own = text[loc[2]:loc[3]], text[:loc[2]-len(a.r.Separator)]
		}
		// the longest hook part wins (a suffix's earliest start)
		if found && len(sp.Hook) <= len(best.Hook) {
			continue
		}
		sub := make([]string, len(loc)/2)
		for k := range sub {
			if loc[2*k] >= 0 {
				sub[k] = text[loc[2*k]:loc[2*k+1]]
			}
		}
		sp.Match = a.match(a.whole.SubexpNames(), sub)
		best, found = sp, true
	}
	return best, found
}
