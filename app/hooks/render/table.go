package render

import (
	"fmt"
	"strings"

	"hookstudio/app/agentdata/profile"
)

// Table is the docs' table of what the model reads from each outcome of
// specs, rendered as r renders it (the profile's, or the system's own
// seen renderings, marked), with the hook's words X, C or R and tool as
// the tool's name.
func Table(specs []profile.Spec, r Renderer, tool string) string {
	var b strings.Builder
	src := "its profile"
	if r.prof != nil {
		src = r.prof.Ref()
	}
	fmt.Fprintf(&b, "| hook's answer | what the model reads (%s) |\n|---|---|\n", src)
	for _, s := range specs {
		o := r.Outcome(s.ID)
		text := "—"
		if o != nil {
			var parts []string
			v := profile.Example(s.ID)
			v.Tool = tool
			for i := range o.Renderings {
				rd := &o.Renderings[i]
				parts = append(parts, rd.Where()+": "+code(rd.Render(v).Content))
			}
			text = strings.Join(parts, "; then ")
			if j := o.Join.Words(); j != "" {
				text += " (several hooks: " + cell(j) + ")"
			}
			if r.prof == nil || r.prof.Outcome(s.ID) == nil {
				text += " — seen, not yet in the profile"
			}
		}
		fmt.Fprintf(&b, "| %s | %s |\n", cell(s.Hook), text)
	}
	return b.String()
}

// code writes text as inline code in a table cell, newlines as \n.
func code(text string) string {
	text = strings.ReplaceAll(text, "\n", `\n`)
	return "`" + strings.ReplaceAll(text, "|", `\|`) + "`"
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// ShapeTable is Table of the answers of Claude Code's settings shape that
// p words — the docs' table of an agent that took that shape (Codex, Qwen
// Code).
func ShapeTable(p *profile.Profile, tool string) string {
	var specs []profile.Spec
	for _, s := range profile.Outcomes(profile.ClaudeCode) {
		if p.Outcome(s.ID) != nil {
			specs = append(specs, s)
		}
	}
	return Table(specs, New(p, nil), tool)
}
