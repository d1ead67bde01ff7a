package prochook

import (
	"fmt"
	"strings"
)

// suggest returns the candidate the user most likely meant by s, or "":
// a match ignoring case and separators, else the nearest by edit distance
// when it is close enough to be a typo.
func suggest(s string, candidates []string) string {
	norm := normalize(s)
	for _, c := range candidates {
		if normalize(c) == norm {
			return c
		}
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		if d := distance(norm, normalize(c)); bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(1, min(4, (len([]rune(norm))+2)/3))
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
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

// didYouMean is " did you mean "x"?" or "" when nothing is close.
func didYouMean(s string, candidates []string) string {
	if c := suggest(s, candidates); c != "" {
		return fmt.Sprintf(" did you mean %q?", c)
	}
	return ""
}
