package request

import (
	"regexp"
	"slices"
	"strings"
)

// An agent may list what it finds in an order it does not fix: Gemini CLI
// lists the skills of a folder in the order its glob finds their SKILL.md
// files, which two runs of the same CLI on the same folder need not share
// (seen on busy cores). What such a list says is its entries, not their
// order, so a request is compared with another in a canonical order of
// them: CanonicalOrder for a text, CanonicalToolOrder for a tool's
// definition. Only comparisons use them; a simulated request keeps the
// order calibration saw.

var (
	skillsBlockRe = regexp.MustCompile(`(?s)<available_skills>\n(.*?)\n</available_skills>`)
	skillEntryRe  = regexp.MustCompile(`(?s)[ \t]*<skill>.*?</skill>`)
	availableRe   = regexp.MustCompile(`\(Available: ('[^']*'(?:, '[^']*')*)\)`)
)

// CanonicalOrder is s with the entries of each list it holds whose order
// the agent does not fix (the <skill> entries of an <available_skills>
// block; the names of an "(Available: 'a', 'b')") in name order.
func CanonicalOrder(s string) string {
	s = skillsBlockRe.ReplaceAllStringFunc(s, func(block string) string {
		inner := skillsBlockRe.FindStringSubmatch(block)[1]
		entries := skillEntryRe.FindAllString(inner, -1)
		// only a block that is entries and the newlines between them
		if strings.TrimSpace(skillEntryRe.ReplaceAllString(inner, "")) != "" {
			return block
		}
		slices.Sort(entries)
		return "<available_skills>\n" + strings.Join(entries, "\n") + "\n</available_skills>"
	})
	return availableRe.ReplaceAllStringFunc(s, func(m string) string {
		names := strings.Split(availableRe.FindStringSubmatch(m)[1], ", ")
		slices.Sort(names)
		return "(Available: " + strings.Join(names, ", ") + ")"
	})
}

// CanonicalToolOrder is a tool's definition (decoded JSON) with its texts
// in CanonicalOrder and each enum of strings sorted.
func CanonicalToolOrder(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if arr, ok := e.([]any); ok && k == "enum" && allStrings(arr) {
				sorted := slices.Clone(arr)
				slices.SortFunc(sorted, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
				out[k] = sorted
				continue
			}
			out[k] = CanonicalToolOrder(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = CanonicalToolOrder(e)
		}
		return out
	case string:
		return CanonicalOrder(x)
	}
	return v
}

func allStrings(arr []any) bool {
	for _, e := range arr {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}
