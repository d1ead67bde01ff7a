package capture

import (
	"strings"

	"hookstudio/app/agentdata/profile"
)

// textPlaces are where a whole text of a request can be a hook's rendering.
var textPlaces = []profile.Place{profile.PlaceMessage, profile.PlaceParagraph, profile.PlaceBlock}

// readClaude gives Claude Code's hook texts their origin, by every known
// version's renderings (rc): a text that is all a rendering (its wrapper
// and preamble the agent's words), a rendering that ends a user text block
// (split off), a tool result in a hook's words. A hook's words that run on
// over several paragraphs of a system-role message stay the hook's, whole,
// up to a paragraph the agent writes itself (rc.Own) or another hook's;
// the agent's own paragraphs of one message are one message again.
func readClaude(rc *profile.Recognizer, in []Message) []Message {
	out := make([]Message, 0, len(in))
	for _, m := range in {
		if n := len(out) - 1; n >= 0 && m.block != 0 && out[n].block == m.block && out[n].Origin == OriginHook &&
			m.Origin == OriginContext && !rc.Own(m.Content) {
			if _, hook := rc.Match(m.Content, textPlaces...); !hook {
				out[n].Content += m.lead + m.Content // more of the hook's words
				continue
			}
		}
		switch {
		case m.Origin == OriginAssistant || m.Origin == OriginSystem || m.Kind != "":
		case m.Role == "tool":
			// a result the CLI sends as an error is one only when it came as one
			if rm, ok := rc.Match(m.Content, profile.PlaceToolResult); ok && (m.IsError || !rm.IsError) {
				m.Origin, m.Hook = OriginHook, rm.Hook
			}
		default:
			if rm, ok := rc.Match(m.Content, textPlaces...); ok {
				m.Origin, m.Hook, m.AgentBefore, m.AgentAfter = OriginHook, rm.Hook, rm.Before, rm.After
				break
			}
			if m.Role != "user" {
				break
			}
			if at, rm := rc.Tail(m.Content, textPlaces...); at > 0 {
				// hook output the agent appended to a text block of its own
				own := plainUser(strings.TrimRight(m.Content[:at], "\n"))
				m.Content, m.Origin, m.Hook = m.Content[at:], OriginHook, rm.Hook
				if strings.TrimSpace(own.Content) != "" {
					out = append(out, own)
				}
			}
		}
		if n := len(out) - 1; n >= 0 && m.block != 0 && m.Origin == OriginContext && out[n].block == m.block && out[n].Origin == OriginContext {
			out[n].Content += m.lead + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}
