package sessions

import (
	"strings"

	"hookstudio/app/agentdata/profile"
)

// Hook output a transcript records, as the profiles name its kinds.
const (
	OutputSuccess           = profile.KindStdout  // plain stdout of SessionStart / UserPromptSubmit
	OutputAdditionalContext = profile.KindContext // hookSpecificOutput.additionalContext
	OutputBlockingError     = profile.KindBlock   // exit 2 or decision: block
)

// Rendered is one message a hook's output becomes.
type Rendered struct {
	Role    string
	Content string
}

// Renderings word a hook's output as one version of an agent put it before
// the model, where a transcript does not hold the request itself and it is
// rebuilt from the records: the agent version's rendering profile
// (app/agentdata/profile).
type Renderings interface {
	// Hook is what hook output of kind becomes (none: the model does not
	// read it, or the agent's own record holds it). label is the agent's
	// name of the hook ("PostToolUse:Bash"), command the handler's command.
	Hook(kind, label, text, command string) []Rendered
	// Feedback is the agent's own record of hook feedback (a Stop hook's
	// reason) as the model reads it; lead is the preamble the record names.
	Feedback(label, text, lead string) string
	// Joined is what ends each but the last of several hooks' messages of
	// role that the agent sends as blocks of one message.
	Joined(label, role string) string
}

// profileRenderings render through a profile.
type profileRenderings struct{ p *profile.Profile }

// Renderings of the profile chosen for an agent version: its own, else the
// nearest known one (the second result names it, "" when it is exact).
func renderingsFor(catalog *profile.Catalog, agent Agent, version string) (Renderings, *profile.Profile, bool) {
	if p, err := catalog.Get(string(agent), version); err == nil {
		return profileRenderings{p}, p, true
	}
	ps, err := catalog.All(string(agent))
	if err != nil || len(ps) == 0 {
		return profileRenderings{}, nil, false
	}
	p := profile.Nearest(ps, version)
	return profileRenderings{p}, p, false
}

func (r profileRenderings) outcome(label, kind string) *profile.Outcome {
	event, _, _ := strings.Cut(label, ":")
	return r.p.Outcome(profile.ID(event, kind))
}

func values(label, text, command string) profile.Values {
	event, tool, _ := strings.Cut(label, ":")
	if event == "SessionStart" {
		tool = "" // the profile writes its source ("startup") itself
	}
	return profile.Values{Event: event, Tool: tool, Command: command, Text: text}
}

func (r profileRenderings) Hook(kind, label, text, command string) []Rendered {
	if kind == OutputBlockingError {
		// a block's reason as the agent words exit 2's: "[command]: stderr"
		if rest, ok := strings.CutPrefix(text, "["+command+"]: "); ok && command != "" && r.outcome(label, profile.KindExit2) != nil {
			kind, text = profile.KindExit2, rest
		}
	}
	o := r.outcome(label, kind)
	if o == nil {
		return nil
	}
	var out []Rendered
	for i := range o.Renderings {
		rd := &o.Renderings[i]
		switch {
		case rd.Place == profile.PlaceNotice, rd.Place.Affix(), rd.Place == profile.PlaceToolResult:
			continue // shown to the user, or part of a text the agent records itself
		case rd.Role == "user" && rd.Anchor == profile.AnchorAfterAnswer:
			continue // the agent records a Stop hook's feedback as a message of its own
		}
		out = append(out, Rendered{Role: string(rd.Role), Content: rd.Render(values(label, text, command)).Content})
	}
	return out
}

func (r profileRenderings) Feedback(label, text, lead string) string {
	before, after := "", ""
	if o := r.outcome(label, profile.KindBlock); o != nil {
		for _, rd := range o.Renderings {
			if rd.Role == "user" && rd.Wrapper != nil {
				before, after = rd.Wrapper.Open, rd.Wrapper.Close
			}
		}
	}
	if lead == "" {
		return before + text + after
	}
	return before + strings.TrimSuffix(lead, "\n") + "\n" + text + after
}

// Joined: several tool hooks' reminders after one tool result are text
// blocks of one user message, each but the last ending in a newline (seen
// on 2.1.197; the profiles say only that they are separate blocks).
func (r profileRenderings) Joined(label, role string) string {
	o := r.outcome(label, profile.KindContext)
	if o == nil || role != "user" {
		return ""
	}
	for _, rd := range o.Renderings {
		if rd.Place == profile.PlaceBlock {
			return "\n"
		}
	}
	return ""
}
