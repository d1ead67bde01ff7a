package claudehook

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/request"
)

// ErrProfile is wrapped when a rendering profile places an outcome where
// the simulated agent cannot put it.
var ErrProfile = errors.New("the rendering profile cannot be followed")

// places are where the simulator can put each kind of outcome: messages
// beside the conversation's, a tool's result, a notice to the user.
func places(id string) []profile.Place {
	event, kind := profile.SplitID(id)
	switch {
	case event == string(PreToolUse) && kind != profile.KindContext:
		return []profile.Place{profile.PlaceToolResult}
	case event == string(UserPromptSubmit) && (kind == profile.KindExit2 || kind == profile.KindBlock):
		return []profile.Place{profile.PlaceNotice}
	}
	return []profile.Place{profile.PlaceMessage, profile.PlaceParagraph, profile.PlaceBlock}
}

// checkProfile says whether the simulator can follow every rendering of p.
func checkProfile(p *profile.Profile) error {
	var errs []error
	for _, s := range profile.Outcomes(profile.ClaudeCode) {
		o := p.Outcome(s.ID)
		if o == nil {
			errs = append(errs, fmt.Errorf("%w: %s has no %s (recalibrate)", ErrProfile, p.Ref(), s.ID))
			continue
		}
		ok := places(s.ID)
		for _, r := range o.Renderings {
			if !slices.Contains(ok, r.Place) || (r.Place == profile.PlaceToolResult || r.Place == profile.PlaceNotice) && len(o.Renderings) > 1 {
				errs = append(errs, fmt.Errorf("%w: %s puts %s at %s, where the simulated agent cannot put it", ErrProfile, p.Ref(), s.ID, r.Place))
			}
		}
	}
	return errors.Join(errs...)
}

// outcome is the profile's outcome of kind at event; an event whose own
// was not measured borrows its closest kin's (PermissionRequest:
// PreToolUse's, PostToolUseFailure's blocks: PostToolUse's, any other
// event's context: UserPromptSubmit's), worded with its own name.
func (h *Handler) outcome(event Event, kind string) *profile.Outcome {
	if o := h.prof.Outcome(profile.ID(string(event), kind)); o != nil {
		return o
	}
	kin := UserPromptSubmit
	switch event {
	case PermissionRequest:
		kin = PreToolUse
	case PostToolUseFailure:
		kin = PostToolUse
	}
	return h.prof.Outcome(profile.ID(string(kin), kind))
}

// values are what a rendering of hd's output at event is filled with.
func (h *Handler) values(hd *Hook, event Event, ev *engine.Event, text string) profile.Values {
	v := profile.Values{Event: string(event), Command: hookName(hd, event, ev.RequestModel()), Text: text, Prompt: ev.UserInput}
	if event.isTool() && ev.Tool != nil {
		v.Tool = ev.Tool.Name
	}
	return v
}

// messages are an outcome's renderings as messages of the conversation.
func (h *Handler) messages(hd *Hook, event Event, ev *engine.Event, kind, text string) []engine.NewMessage {
	o := h.outcome(event, kind)
	if o == nil {
		return nil
	}
	v := h.values(hd, event, ev, text)
	out := make([]engine.NewMessage, 0, len(o.Renderings))
	for i := range o.Renderings {
		r := &o.Renderings[i]
		out = append(out, engine.NewMessage{Role: string(r.Role), Content: r.Render(v).Content})
	}
	if o.Join != nil && o.Join.As == profile.JoinText && len(out) == 1 {
		h.firing.parts = append(h.firing.parts, joinPart{i: h.firing.i, o: o, v: v})
	}
	return out
}

// text is an outcome's one rendering as text: a tool's result, a notice.
func (h *Handler) text(hd *Hook, event Event, ev *engine.Event, kind, text string) string {
	o := h.outcome(event, kind)
	if o == nil || len(o.Renderings) == 0 {
		return text
	}
	return o.Renderings[0].Render(h.values(hd, event, ev, text)).Content
}

// firing is one event's handlers being read, for outputs that join.
type firing struct {
	i     int // the handler being read
	parts []joinPart
}

// joinPart is a handler's context whose outcome joins several hooks'
// words into one text (Claude Code's PreToolUse context: one label, a
// line per hook).
type joinPart struct {
	i int
	o *profile.Outcome
	v profile.Values
}

// join puts the words of an outcome's parts into one message, on the
// first handler that gave one: the model reads one text.
func (h *Handler) join(effs []engine.Effect) {
	for len(h.firing.parts) > 0 {
		o := h.firing.parts[0].o
		var mine []joinPart
		rest := h.firing.parts[:0:0]
		for _, p := range h.firing.parts {
			if p.o == o {
				mine = append(mine, p)
			} else {
				rest = append(rest, p)
			}
		}
		h.firing.parts = rest
		if len(mine) < 2 {
			continue
		}
		words := make([]string, len(mine))
		for k, p := range mine {
			words[k] = p.v.Text
		}
		v := mine[0].v
		v.Text = strings.Join(words, o.Join.Separator)
		joined := o.Renderings[0].Render(v).Content
		for k, p := range mine {
			one := o.Renderings[0].Render(p.v).Content
			ctx := effs[p.i].Context
			for j := range ctx {
				if ctx[j].Content == one {
					if k == 0 {
						ctx[j].Content = joined
					} else {
						effs[p.i].Context = slices.Delete(ctx, j, j+1)
					}
					break
				}
			}
		}
	}
}

// hookName is how the agent names hd in its words about it: its command
// as written, or, as the run's agent version does (request.HookNames), its
// statusMessage, or its command with the plugin's folder written in.
func hookName(hd *Hook, event Event, m *request.Model) string {
	line := hd.CommandLine()
	if m == nil || m.HookNames == nil {
		return line
	}
	if hd.StatusMessage != "" && slices.Contains(m.HookNames.StatusMessage, string(event)) {
		return hd.StatusMessage
	}
	if m.HookNames.PluginRoot && hd.Plugin != "" {
		line = strings.NewReplacer("${CLAUDE_PLUGIN_ROOT}", hd.Plugin, "$CLAUDE_PLUGIN_ROOT", hd.Plugin).Replace(line)
	}
	return line
}

// pluginNote is what the run's agent version adds after a plugin hook's
// blocking words at event (request.HookNames.PluginNote), "" nothing.
func pluginNote(hd *Hook, event Event, m *request.Model) string {
	if m == nil || m.HookNames == nil || m.HookNames.PluginNote == nil || hd.Plugin == "" || !slices.Contains(m.HookNames.PluginNoteAt, string(event)) {
		return ""
	}
	return m.HookNames.PluginNote.Fill(request.Values{"plugin": pluginName(hd.Plugin)})
}
