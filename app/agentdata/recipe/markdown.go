package recipe

import (
	"fmt"
	"strings"
)

// apiNames are the APIs as the docs and the app name them.
var apiNames = map[string]string{
	Anthropic: "Anthropic Messages",
	OpenAI:    "OpenAI Chat Completions",
	Responses: "OpenAI Responses",
	Gemini:    "Gemini",
}

// APIName is an API as the docs and the app name it.
func APIName(api string) string {
	if n, ok := apiNames[api]; ok {
		return n
	}
	return api
}

// Markdown is every recipe for url, as docs/capture.md shows them.
func Markdown(url string) string {
	var b strings.Builder
	for i, r := range All() {
		if i > 0 {
			b.WriteString("\n")
		}
		r = r.For(url, "")
		fmt.Fprintf(&b, "### %s\n\n", r.Name)
		licence := ""
		if r.Proprietary {
			licence = ", proprietary"
		}
		fmt.Fprintf(&b, "`%s` %s%s; speaks the %s API to capture.\n\n", r.Package, r.Version, licence, APIName(r.API))
		for _, f := range r.Files {
			verb := "Write"
			if f.Merge {
				verb = "Add to"
			}
			fmt.Fprintf(&b, "%s `%s`:\n\n```%s\n%s```\n\n", verb, f.Path, f.Format, f.Content)
		}
		fmt.Fprintf(&b, "```sh\n%s\n```\n\n", strings.Join(r.Lines, "\n"))
		fmt.Fprintf(&b, "- Hooks: %s.\n", r.Hooks)
		fmt.Fprintf(&b, "- **Hook did not run?** %s\n", r.Trap)
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}
