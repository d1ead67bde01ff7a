package profile

import (
	"fmt"
	"strings"
)

// Markdown is the table of what each outcome of agent becomes in front of
// the model, one column per profile (docs/claude-code-hooks.md is made
// from the bundled ones): where it goes, with the words for an example,
// and how several hooks' outputs join. Preambles are long: each is written
// once under the table and named in the cells.
func Markdown(agent string, ps []*Profile) string {
	var b strings.Builder
	b.WriteString("| hook's answer |")
	for _, p := range ps {
		fmt.Fprintf(&b, " %s %s |", agent, p.Version)
	}
	b.WriteString("\n|---|")
	for range ps {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	var preambles []string
	name := func(pre string) string {
		for i, p := range preambles {
			if p == pre {
				return fmt.Sprintf("⟨preamble %d⟩", i+1)
			}
		}
		preambles = append(preambles, pre)
		return fmt.Sprintf("⟨preamble %d⟩", len(preambles))
	}
	for _, s := range Outcomes(agent) {
		fmt.Fprintf(&b, "| %s |", cell(s.Hook))
		for _, p := range ps {
			o := p.Outcome(s.ID)
			if o == nil {
				b.WriteString(" — |")
				continue
			}
			var parts []string
			for _, r := range o.Renderings {
				text := r.Render(Example(s.ID)).Content
				if r.Preamble != "" {
					text = strings.Replace(text, r.Preamble, name(r.Preamble), 1)
				}
				parts = append(parts, r.Where()+": "+code(text))
			}
			text := strings.Join(parts, "; then ")
			if j := o.Join.Words(); j != "" {
				text += " (several hooks: " + cell(j) + ")"
			}
			fmt.Fprintf(&b, " %s |", text)
		}
		b.WriteString("\n")
	}
	for i, p := range preambles {
		fmt.Fprintf(&b, "\n⟨preamble %d⟩ is %s\n", i+1, code(p))
	}
	return b.String()
}

// code writes text as inline code in a table cell, newlines as \n.
func code(text string) string {
	text = strings.ReplaceAll(text, "\n", `\n`)
	return "`" + strings.ReplaceAll(text, "|", `\|`) + "`"
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
