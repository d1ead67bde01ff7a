package capture

import "testing"

// TestTagged: the agent's own context is one element of its markup,
// after one heading line at the most; a prompt that holds markup is not.
func TestTagged(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"<ctx>\n  <cwd>/p</cwd>\n</ctx>", true},
		{"# notes for /p\n\n<NOTES>\nbe brief\n\n</NOTES>", true},
		{"# notes\nplain words", false},
		{"# one\n# two\n<a>x</a>", false},
		{"fix <b>this</b> please", false},
		{"<a>x</b>", false},
	} {
		if got := tagged(c.text); got != c.want {
			t.Errorf("tagged(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
