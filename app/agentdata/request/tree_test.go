package request

import (
	"slices"
	"testing"
)

// TestSortLocale: names sort as Gemini CLI 0.61.0 listed them (its
// localeCompare): punctuation before digits before letters, a lower-case
// letter before its capital, "10" before "9".
func TestSortLocale(t *testing.T) {
	want := []string{".gitignore", "10.txt", "9.txt", "alpha.md", "GEMINI.md", "hsr_c.txt", "hsr-a.txt", "Hsr-A.txt", "hsr-A2.txt", "hsr-b.txt", "Zeta.md"}
	got := slices.Clone(want)
	slices.Reverse(got)
	Sort(OrderLocale, got)
	if !slices.Equal(got, want) {
		t.Errorf("locale order\n got %q\nwant %q", got, want)
	}
	dirs := []string{"vendor", "build", ".git", "__pycache__", ".venv", ".gemini", "dist", "node_modules"}
	Sort(OrderLocale, dirs)
	if w := []string{"__pycache__", ".gemini", ".git", ".venv", "build", "dist", "node_modules", "vendor"}; !slices.Equal(dirs, w) {
		t.Errorf("locale order\n got %q\nwant %q", dirs, w)
	}
}
