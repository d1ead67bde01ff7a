package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"slices"
	"sort"
	"strings"

	"hookstudio/app/agentdata/profile"
)

// unit is one piece of a request the model reads: a text block, a tool
// result, an assistant turn.
type unit struct {
	msg         int
	role        string // the message's role
	kind        string // text, tool_result, answer
	text        string
	isError     bool
	siblings    int               // units of its message
	toolResults int               // tool results of its message
	callID      string            // a tool result's call
	calls       map[string]string // an answer's tool calls: id → input
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	ToolUseID string          `json:"tool_use_id"`
}

// units reads an Anthropic Messages request's messages.
func units(body json.RawMessage) ([]unit, error) {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("a request is not a Messages API request: %w", err)
	}
	var out []unit
	for i, m := range req.Messages {
		bs, err := blocksOf(m.Content)
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		var us []unit
		results := 0
		for _, b := range bs {
			switch {
			case m.Role == "assistant":
				if len(us) == 0 {
					us = append(us, unit{kind: "answer", calls: map[string]string{}})
				}
				if b.Type == "text" {
					us[0].text += b.Text
				} else if b.Type == "tool_use" {
					us[0].calls[b.ID] = string(b.Input)
				}
			case b.Type == "text":
				us = append(us, unit{kind: "text", text: b.Text})
			case b.Type == "tool_result":
				inner, err := blocksOf(b.Content)
				if err != nil {
					return nil, fmt.Errorf("messages[%d]: tool_result: %w", i, err)
				}
				var texts []string
				for _, x := range inner {
					texts = append(texts, x.Text)
				}
				us = append(us, unit{kind: "tool_result", text: strings.Join(texts, "\n"), isError: b.IsError, callID: b.ToolUseID})
				results++
			}
		}
		for k := range us {
			us[k].msg, us[k].role, us[k].siblings, us[k].toolResults = i, m.Role, len(us), results
		}
		out = append(out, us...)
	}
	return out, nil
}

func blocksOf(raw json.RawMessage) ([]block, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []block{{Type: "text", Text: s}}, nil
	}
	var bs []block
	if err := json.Unmarshal(raw, &bs); err != nil {
		return nil, errors.New("content is neither a string nor a list of blocks")
	}
	return bs, nil
}

// deriveOutcome finds a probe's words in its run and reads the outcome.
func deriveOutcome(pr probe, rr *ranRun, runs []cliRun) (*profile.Outcome, error) {
	var run cliRun
	for _, r := range runs {
		if r.name == pr.run {
			run = r
		}
	}
	ran := func() string {
		role := strings.TrimPrefix(pr.command, scriptPath+" ")
		if slices.Contains(rr.ran, role) {
			return fmt.Sprintf("the hook ran (%s)", role)
		}
		return fmt.Sprintf("the hook never ran (%s): does this version fire %s in claude -p?", role, pr.event)
	}
	prompt := run.prompt
	if strings.HasPrefix(pr.event, "Subagent") && run.subPrompt != "" {
		prompt = run.subPrompt // its words stand in the sub-agent's request
	}
	vals := profile.Values{Event: pr.event, Tool: pr.tool, Command: pr.command, Prompt: prompt}
	if run.notice {
		printed := strings.TrimSuffix(rr.printed, "\n")
		if !strings.Contains(printed, pr.words) {
			return nil, fmt.Errorf("%w: run %s printed %q; %s", ErrTextNotFound, pr.run, clip(printed), ran())
		}
		vals.Text = pr.words
		r, err := readRendering(printed, pr.words, vals, false)
		if err != nil {
			return nil, err
		}
		r.Place = profile.PlaceNotice
		return &profile.Outcome{Renderings: []profile.Rendering{r}}, nil
	}
	var us []unit
	escaped := false
	found := func(text string) (string, bool) {
		switch {
		case strings.Contains(text, pr.words):
			return pr.words, true
		case strings.Contains(text, html.EscapeString(pr.words)):
			return html.EscapeString(pr.words), true
		}
		return "", false
	}
	var hits []int
	for _, body := range rr.bodies {
		u, err := units(body)
		if err != nil {
			return nil, err
		}
		if pr.words == "" { // the CLI's own words: the result of the probe's tool call
			hits = resultOf(u, pr.call)
		}
		for i := range u {
			if w, ok := found(u[i].text); ok && pr.words != "" && u[i].kind != "answer" {
				hits = append(hits, i)
				escaped = w != pr.words
			}
		}
		if len(hits) > 0 {
			us = u
			break
		}
	}
	if len(hits) == 0 {
		what := fmt.Sprintf("%q", pr.words)
		if pr.words == "" {
			what = "the result of the tool call " + pr.call
		}
		return nil, fmt.Errorf("%w: none of the %d requests of run %s holds %s; %s", ErrTextNotFound, len(rr.bodies), pr.run, what, ran())
	}
	esc := func(s string) string {
		if escaped {
			return html.EscapeString(s)
		}
		return s
	}
	o := &profile.Outcome{}
	for n, i := range hits {
		u := us[i]
		text := u.text
		var r profile.Rendering
		switch {
		case u.kind == "tool_result":
			r.Place, r.IsError = profile.PlaceToolResult, u.isError
		case u.role == "system":
			paras := strings.Split(u.text, "\n\n")
			for _, p := range paras {
				if strings.Contains(p, esc(pr.words)) {
					text = p
				}
			}
			r.Place, r.Role = profile.PlaceMessage, profile.Role(u.role)
			if len(paras) > 1 || u.siblings > 1 {
				r.Place = profile.PlaceParagraph
			}
		default:
			r.Place, r.Role = profile.PlaceMessage, profile.Role(u.role)
			if u.siblings > 1 {
				r.Place = profile.PlaceBlock
			}
		}
		// the hook's words: one hook's, or two hooks' joined into one text
		words, value := esc(pr.words), pr.words
		if n == 0 && pr.second != "" {
			a, b := strings.Index(text, esc(pr.words)), strings.Index(text, esc(pr.second))
			if b >= 0 {
				first, second := esc(pr.words), esc(pr.second)
				if b < a {
					a, b, first, second = b, a, second, first
				}
				sep := text[a+len(first) : b]
				o.Join = &profile.Join{As: profile.JoinText, Separator: sep}
				words = text[a : b+len(second)]
				value = html.UnescapeString(words)
				if !escaped {
					value = words
				}
			}
		}
		vals.Text = value
		got, err := readRendering(text, words, vals, escaped)
		if err != nil {
			return nil, err
		}
		got.Place, got.Role, got.IsError = r.Place, r.Role, r.IsError
		if got.Place != profile.PlaceToolResult {
			got.Anchor = anchorOf(us, i, prompt, func(j int) bool { return slices.Contains(hits, j) })
		}
		o.Renderings = append(o.Renderings, got)
	}
	if pr.second != "" && o.Join == nil {
		o.Join = joinOf(us, hits[0], esc(pr.second))
		if o.Join == nil {
			return nil, fmt.Errorf("%w: the second hook's words %q are not in the request that holds the first's", ErrTextNotFound, pr.second)
		}
	}
	return o, nil
}

// resultOf is the tool result of the call whose input holds marker.
func resultOf(us []unit, marker string) []int {
	ids := map[string]bool{}
	for _, u := range us {
		for id, in := range u.calls {
			if strings.Contains(in, marker) {
				ids[id] = true
			}
		}
	}
	for i, u := range us {
		if u.kind == "tool_result" && ids[u.callID] {
			return []int{i}
		}
	}
	return nil
}

// joinOf says how a second hook's output of the event arrived beside the
// first's (at unit i): a paragraph of the same message, or apart.
func joinOf(us []unit, i int, second string) *profile.Join {
	if strings.Contains(us[i].text, second) {
		return &profile.Join{As: profile.JoinParagraphs, Separator: "\n\n"}
	}
	for j := range us {
		if strings.Contains(us[j].text, second) {
			return &profile.Join{As: profile.JoinSeparate}
		}
	}
	return nil
}

// anchorOf is the message a rendering at unit i follows: the nearest tool
// result, answer or prompt before it (skipping the outcome's own other
// renderings and other hooks' text), else the prompt after it.
func anchorOf(us []unit, i int, prompt string, own func(int) bool) profile.Anchor {
	isPrompt := func(u unit) bool { return u.kind == "text" && u.role == "user" && strings.Contains(u.text, prompt) }
	for j := i - 1; j >= 0; j-- {
		switch u := us[j]; {
		case own(j):
		case u.kind == "tool_result" && u.toolResults > 1:
			return profile.AnchorAfterToolResults
		case u.kind == "tool_result":
			return profile.AnchorAfterToolResult
		case u.kind == "answer":
			return profile.AnchorAfterAnswer
		case isPrompt(u):
			return profile.AnchorAfterPrompt
		}
	}
	for j := i + 1; j < len(us); j++ {
		if isPrompt(us[j]) {
			return profile.AnchorBeforePrompt
		}
	}
	return ""
}

var openTagRe = regexp.MustCompile(`^<([A-Za-z_][\w-]*)>\n?`)

// readRendering reads text, which holds words, as wrapper, preamble and a
// template, and checks that the template filled with vals gives text back.
func readRendering(text, words string, vals profile.Values, escaped bool) (profile.Rendering, error) {
	var r profile.Rendering
	inner := text
	if m := openTagRe.FindStringSubmatch(text); m != nil {
		rest := strings.TrimRight(text, "\n") // a block followed by another ends with a newline (2.1.197)
		closeTag := "</" + m[1] + ">"
		if strings.HasSuffix(rest, closeTag) && strings.Index(rest, words) > len(m[0]) {
			end := len(rest) - len(closeTag)
			if strings.HasSuffix(rest[:end], "\n") && strings.HasSuffix(m[0], "\n") {
				end--
			}
			r.Wrapper = &profile.Wrapper{Open: m[0], Close: rest[end:]}
			inner, text = rest[len(m[0]):end], rest
		}
	}
	// the hook's part starts on the line where the event, the command or
	// the words first appear; the lines before it are the agent's preamble
	start := len(inner)
	for _, s := range []string{words, vals.Command} {
		if i := strings.Index(inner, s); i >= 0 && i < start {
			start = i
		}
	}
	if loc := wordAt(inner, vals.Event); loc >= 0 && loc < start {
		start = loc
	}
	start = strings.LastIndex(inner[:start], "\n") + 1
	r.Preamble = inner[:start]
	r.Text = templateOf(inner[start:], words, vals)
	if escaped {
		r.Escape = profile.EscapeHTML
	}
	if got := r.Render(vals).Content; got != text {
		return r, fmt.Errorf("%w: read as %+v it would give %q, the CLI sent %q", ErrUnreadable, r, clip(got), clip(text))
	}
	return r, nil
}

// wordAt is where word first stands alone in s (not inside another word), or -1.
func wordAt(s, word string) int {
	if word == "" {
		return -1
	}
	for off := 0; ; {
		i := strings.Index(s[off:], word)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(word)
		if (i == 0 || !isLetter(s[i-1])) && (end == len(s) || !isLetter(s[end])) {
			return i
		}
		off = i + 1
	}
}

func isLetter(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// templateOf writes body as a template: the hook's words, the command,
// the prompt, the event and the tool become placeholders.
func templateOf(body, words string, vals profile.Values) string {
	type span struct {
		at, end int
		ph      string
	}
	var spans []span
	taken := func(a, b int) bool {
		return slices.ContainsFunc(spans, func(s span) bool { return a < s.end && s.at < b })
	}
	all := func(s, ph string, alone bool) {
		if s == "" {
			return
		}
		for off := 0; off < len(body); {
			i := strings.Index(body[off:], s)
			if alone {
				i = wordAt(body[off:], s)
			}
			if i < 0 {
				return
			}
			i += off
			if !taken(i, i+len(s)) {
				spans = append(spans, span{i, i + len(s), ph})
			}
			off = i + len(s)
		}
	}
	all(words, "text", false)
	all(vals.Command, "command", false)
	all(vals.Prompt, "prompt", false)
	all(vals.Input, "input", false)
	all(vals.HookID, "hook_id", false)
	if et := vals.Event + ":" + vals.Tool; vals.Tool != "" {
		for off := 0; ; { // the tool after its event's colon ("PreToolUse:Bash")
			i := strings.Index(body[off:], et)
			if i < 0 {
				break
			}
			at := off + i + len(vals.Event) + 1
			if !taken(at, at+len(vals.Tool)) {
				spans = append(spans, span{at, at + len(vals.Tool), "tool"})
			}
			off = at
		}
	}
	all(vals.Event, "event", true)
	out := spans
	sort.Slice(out, func(i, j int) bool { return out[i].at < out[j].at })
	var b strings.Builder
	pos := 0
	for _, s := range out {
		if s.at < pos {
			continue
		}
		b.WriteString(profile.EscapeText(body[pos:s.at]))
		b.WriteString("{" + s.ph + "}")
		pos = s.end
	}
	b.WriteString(profile.EscapeText(body[pos:]))
	return b.String()
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:150] + "…" + s[len(s)-150:]
	}
	return s
}
