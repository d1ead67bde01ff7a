package diag

import (
	"fmt"
	"strings"
)

// Suggest returns the candidate the user most likely meant by s, or "". A
// case-insensitive or separator-insensitive match wins outright (the common
// "Before_Planning" or "toolFilter"); otherwise the nearest candidate by
// edit distance, if it is close enough to be a typo rather than a different
// word.
func Suggest[T ~string](s string, candidates []T) string {
	norm := normalize(s)
	for _, c := range candidates {
		if normalize(string(c)) == norm {
			return string(c)
		}
	}
	// A truncated word ("before_first") names the one candidate it starts.
	if prefixed := withPrefix(norm, candidates); prefixed != "" {
		return prefixed
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		d := distance(norm, normalize(string(c)))
		if bestDist < 0 || d < bestDist {
			best, bestDist = string(c), d
		}
	}
	// A third of the word, at least 1 and at most 4 edits: "before_plan"
	// still finds before_planning, "xyz" suggests nothing.
	limit := max(1, min(4, (len([]rune(norm))+2)/3))
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

func withPrefix[T ~string](norm string, candidates []T) string {
	if len(norm) < 4 {
		return ""
	}
	found := ""
	for _, c := range candidates {
		if strings.HasPrefix(normalize(string(c)), norm) {
			if found != "" {
				return "" // ambiguous: let edit distance decide
			}
			found = string(c)
		}
	}
	return found
}

func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' || r == '.' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// distance is the Levenshtein distance in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// DidYouMean is " did you mean "x"?" or "" when nothing is close.
func DidYouMean[T ~string](s string, candidates []T) string {
	if c := Suggest(s, candidates); c != "" {
		return fmt.Sprintf(" did you mean %q?", c)
	}
	return ""
}
