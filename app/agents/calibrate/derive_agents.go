package calibrate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/agentdata/profile"
)

// deriveAgentOutcome finds a probe's words in the first main request of
// its run that holds them (or, for words the model never reads, in what
// the CLI printed) and reads the outcome: the place (a message or part of
// its own, the tool's result, or joined to the prompt, the system prompt
// or the tool's output), role, anchor, wrapper, template, escape, join.
func deriveAgentOutcome(spec agentSpec, pr agentProbe, nonce string, ran *agentRan) (*profile.Outcome, error) {
	event, _ := profile.SplitID(pr.id)
	words, second := pr.words(nonce, "a"), ""
	if pr.two {
		second = pr.words(nonce, "b")
	}
	vals := profile.Values{Event: event, Prompt: ran.prompt}
	if pr.call != "" {
		vals.Input, vals.Tool = "echo "+pr.call, spec.shell("").Name
	}
	role := probeRole(pr, "a")
	hookRan := func() string {
		if slices.Contains(ran.ran, role) {
			return "the hook ran"
		}
		return fmt.Sprintf("the hook never ran (%s): does this version fire %s?", role, event)
	}
	var us []unit
	var hits []int
	esc := profile.Escape("")
	for _, c := range ran.calls {
		if c.Side != "" || c.Body == nil {
			continue // the agent's own side requests (Gemini CLI's router) hold the same turn
		}
		u, err := unitsOf(c.API, c.Body)
		if err != nil {
			return nil, err
		}
		if pr.bare {
			hits = resultOf(u, pr.call)
		}
		for i := range u {
			if pr.bare || u[i].kind == "answer" {
				continue
			}
			for _, e := range []profile.Escape{"", profile.EscapeAngles, profile.EscapeHTML} {
				if strings.Contains(u[i].text, e.Apply(words)) {
					hits, esc = append(hits, i), e
					break
				}
			}
		}
		if len(hits) > 0 {
			us = u
			break
		}
	}
	if len(hits) == 0 {
		if pr.bare || !strings.Contains(ran.printed, words) {
			what := fmt.Sprintf("%q", words)
			if pr.bare {
				what = "the result of the tool call " + pr.call
			}
			return nil, fmt.Errorf("%w: none of the %d requests of run %s holds %s; %s", ErrTextNotFound, len(ran.calls), pr.run, what, hookRan())
		}
		// what the CLI printed for the user: the line that holds the words
		// most often (a notice the agent gives each time the hook runs),
		// else with the most of the agent's own words around them
		seen := map[string]int{}
		line := ""
		for _, l := range strings.Split(ran.printed, "\n") {
			// another probe's words on the line: a message of the agent's own that quotes several
			if l = strings.TrimSpace(l); strings.Contains(l, words) && strings.Count(l, "HSP"+nonce) == 1 {
				seen[l]++
				if seen[l] > seen[line] || seen[l] == seen[line] && len(l) > len(line) {
					line = l
				}
			}
		}
		vals.Text = words
		r, err := readRendering(line, words, vals, false)
		if err != nil {
			return nil, err
		}
		r.Place = profile.PlaceNotice
		return &profile.Outcome{Renderings: []profile.Rendering{r}}, nil
	}
	o := &profile.Outcome{}
	for n, i := range hits {
		u := us[i]
		found := esc.Apply(words)
		if pr.bare { // no hook words: the agent's own text is the rendering
			found = u.text
		}
		// the hook's words: one hook's, or two hooks' joined into one text
		value := words
		if n == 0 && second != "" {
			if b := strings.Index(u.text, esc.Apply(second)); b >= 0 {
				a := strings.Index(u.text, found)
				first, sec := found, esc.Apply(second)
				if b < a {
					a, b, first, sec = b, a, sec, first
				}
				o.Join = &profile.Join{As: profile.JoinText, Separator: u.text[a+len(first) : b]}
				found = u.text[a : b+len(sec)]
				value = esc.Undo(found)
			}
		}
		r, text := placeOf(us, i, found, ran.prompt, event)
		if spec.hookID != nil {
			vals.HookID = spec.hookID(text)
		}
		vals.Text = found // read unescaped, then checked with the escape
		if pr.bare {
			vals.Text, found = "", ""
		}
		got, err := readRendering(text, found, vals, false)
		if err != nil {
			return nil, err
		}
		splitWrapper(&got)
		got.Text = toolWord(got.Text, vals.Tool)
		got.Place, got.Role, got.Anchor, got.Separator, got.IsError = r.Place, r.Role, r.Anchor, r.Separator, u.isError
		if esc != "" {
			got.Escape = esc
			vals.Text = value
			if back := got.Render(vals).Content; back != text {
				return nil, fmt.Errorf("%w: escaped %s it would give %q, the CLI sent %q", ErrUnreadable, esc, clip(back), clip(text))
			}
		}
		o.Renderings = append(o.Renderings, got)
	}
	if second != "" && o.Join == nil {
		for j := range us {
			if j != hits[0] && strings.Contains(us[j].text, esc.Apply(second)) {
				o.Join = &profile.Join{As: profile.JoinSeparate}
			}
		}
		if o.Join == nil {
			return nil, fmt.Errorf("%w: the second hook's words %q are not in the request that holds the first's", ErrTextNotFound, second)
		}
	}
	return o, nil
}

// placeOf is where the rendering holding found (in us[i]) stands, and its
// text: all of a unit, or the part of one joined to the agent's own text —
// the prompt (before or after it), the system prompt, the tool's output —
// cut at the blank line before the rendering.
func placeOf(us []unit, i int, found, prompt, event string) (profile.Rendering, string) {
	u := us[i]
	var r profile.Rendering
	start := strings.Index(u.text, found)
	if e := wordAt(u.text, event); e >= 0 && e < start {
		start = e
	}
	cut := strings.LastIndex(u.text[:start], "\n\n") // the agent's own text ends there
	switch {
	case u.kind == "tool_result" && cut > 0:
		r.Place = profile.PlaceResultSuffix
	case u.kind == "tool_result":
		r.Place = profile.PlaceToolResult
		return r, u.text
	case u.role == "system" && cut > 0 && firstSystem(us) == i:
		r.Place = profile.PlaceSystemSuffix
	case u.role == "user" && strings.Contains(u.text, prompt) && strings.Index(u.text, prompt) < start:
		r.Place = profile.PlacePromptSuffix
		cut = strings.Index(u.text, prompt) + len(prompt)
	case u.role == "user" && strings.Contains(u.text, prompt):
		p := strings.Index(u.text, prompt)
		own := strings.TrimRight(u.text[:p], "\n")
		r.Place, r.Separator = profile.PlacePromptPrefix, u.text[len(own):p]
		return r, own
	default:
		r.Place, r.Role = profile.PlaceMessage, profile.Role(u.role)
		if u.siblings > 1 {
			r.Place = profile.PlaceBlock
		}
		r.Anchor = anchorAt(us, i, prompt)
		if r.Anchor == profile.AnchorAfterAnswer && r.Role == "user" && framedLikePrompt(us, u.text, prompt) {
			// a stop's reason is the next prompt, framed as the agent frames
			// every prompt (Copilot CLI's date before it, its prompt hook's
			// reminder after it): that framing is not the stop's rendering
			return r, found
		}
		return r, u.text
	}
	rest := u.text[cut:]
	text := strings.TrimLeft(rest, "\n")
	r.Separator = rest[:len(rest)-len(text)]
	return r, text
}

func firstSystem(us []unit) int {
	for i, u := range us {
		if u.role == "system" {
			return i
		}
	}
	return -1
}

// anchorAt is the message a rendering at us[i] follows: between a tool
// call and its result (Codex), else as anchorOf reads it.
func anchorAt(us []unit, i int, prompt string) profile.Anchor {
	for j := i - 1; j >= 0; j-- {
		if us[j].kind == "tool_result" || us[j].kind == "answer" && len(us[j].calls) == 0 {
			break
		}
		if us[j].kind == "answer" {
			for k := i + 1; k < len(us); k++ {
				if us[k].kind == "tool_result" {
					if _, ok := us[j].calls[us[k].callID]; ok {
						return profile.AnchorBeforeToolResult
					}
				}
			}
			break
		}
	}
	return anchorOf(us, i, prompt, func(int) bool { return false })
}

// wrapperRe is a template that is one element of the agent's markup
// around the rest: <hook_context>…</hook_context>, <qwen:…-context
// hidden="true">\n…\n</qwen:…-context>.
var wrapperRe = regexp.MustCompile(`(?s)^(<([A-Za-z_][\w:-]*)[^>{}]*>\n?)(.*\{text\}.*?)(\n?</([A-Za-z_][\w:-]*)>)$`)

// splitWrapper moves such an element out of the template into the
// rendering's wrapper: the agent's words, not the hook's.
func splitWrapper(r *profile.Rendering) {
	if r.Wrapper != nil || r.Preamble != "" {
		return
	}
	if m := wrapperRe.FindStringSubmatch(r.Text); m != nil && m[2] == m[5] && !strings.Contains(m[1]+m[4], "{") {
		r.Wrapper, r.Text = &profile.Wrapper{Open: m[1], Close: m[4]}, m[3]
	}
}

// toolWord writes the tool's name standing alone in a template as {tool}
// (Copilot CLI's `Tool "bash" succeeded`).
func toolWord(t, tool string) string {
	if tool == "" {
		return t
	}
	for at := wordAt(t, tool); at >= 0; at = wordAt(t, tool) {
		t = t[:at] + "{tool}" + t[at+len(tool):]
	}
	return t
}

var leadingTagRe = regexp.MustCompile(`^<([A-Za-z_][\w-]*)>`)

// framedLikePrompt says whether text starts with the markup the agent put
// before the user's prompt in the first turn (Copilot CLI's
// <current_datetime>).
func framedLikePrompt(us []unit, text, prompt string) bool {
	for _, u := range us {
		if u.kind == "text" && u.role == "user" && strings.Contains(u.text, prompt) {
			m := leadingTagRe.FindString(u.text)
			return m != "" && !strings.HasPrefix(u.text, prompt) && strings.HasPrefix(text, m)
		}
	}
	return false
}
