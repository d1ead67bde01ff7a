package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"hookstudio/app/format/diag"
)

// want is the part of a diagnostic tests may assert on: never the message.
type want struct {
	File     string
	Line     int
	Column   int
	Severity diag.Severity
	Code     string
}

func (w want) String() string {
	return fmt.Sprintf("%s:%d:%d %s %s", w.File, w.Line, w.Column, w.Severity, w.Code)
}

func strip(ds []diag.Diagnostic) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, want{d.File, d.Line, d.Column, d.Severity, d.Code}.String())
	}
	slices.Sort(out)
	return out
}

func wants(ws []want) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.String())
	}
	slices.Sort(out)
	return out
}

// checkDiags compares diagnostics as a set and checks every one has a
// message, so no rule is left silent.
func checkDiags(t *testing.T, got []diag.Diagnostic, ws ...want) {
	t.Helper()
	if g, w := strip(got), wants(ws); !slices.Equal(g, w) {
		t.Errorf("diagnostics:\n got  %q\n want %q", g, w)
		for _, d := range got {
			t.Logf("  %s:%d:%d %s %s: %s", d.File, d.Line, d.Column, d.Severity, d.Code, d.Message)
		}
	}
	for _, d := range got {
		if d.Message == "" {
			t.Errorf("%s has no message", d.Code)
		}
	}
}

// at finds the n-th (0-based) occurrence of needle in doc and returns its
// 1-based line and rune column, counted independently of jsondoc.
func at(t *testing.T, doc, needle string, n int) (int, int) {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(doc[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q not found %d times in %q", needle, n+1, doc)
		}
		off += 1 + j
	}
	before := strings.TrimPrefix(doc[:off], "\uFEFF")
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndex(before, "\n")+1:]) + 1
	return line, col
}

// writeTree creates files (path -> content) under root; a content starting
// with "->" makes a symlink to the rest, a path ending in "/" a folder.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p, 0o755)
		case strings.HasPrefix(content, "->"):
			err = os.Symlink(content[2:], p)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
