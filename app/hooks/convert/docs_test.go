package convert

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const docFile = "../../../docs/convert.md"

// docTables are the event and tool tables as docs/convert.md shows them,
// between its <!-- convert:events --> and <!-- convert:tools --> markers.
func docTables() map[string]string {
	head := func(b *strings.Builder, first string) {
		b.WriteString("| " + first)
		for _, a := range agents {
			b.WriteString(" | " + Title(a))
		}
		b.WriteString(" |\n|---")
		for range agents {
			b.WriteString("|---")
		}
		b.WriteString("|\n")
	}
	cell := func(s string) string {
		if s == "" {
			return "—"
		}
		return "`" + s + "`"
	}
	var ev strings.Builder
	head(&ev, "moment")
	for _, r := range eventTable {
		fmt.Fprintf(&ev, "| %s", strings.ReplaceAll(string(r.Event), "_", " "))
		for _, n := range r.Names {
			ev.WriteString(" | " + cell(n))
		}
		ev.WriteString(" |\n")
	}
	ev.WriteString("\nWhere each column was read:\n\n")
	for _, a := range agents {
		fmt.Fprintf(&ev, "- %s: %s\n", Title(a), eventSources[a])
	}
	ev.WriteString("\nWritten, but firing at other times:\n\n")
	for _, n := range eventNotes {
		fmt.Fprintf(&ev, "- %s, %s: %s (%s)\n", Title(n.Agent), eventName(n.Agent, n.Event), n.Text, n.Source)
	}
	var tl strings.Builder
	head(&tl, "tool")
	for _, r := range toolTable {
		tl.WriteString("|")
		for i, n := range r {
			if i > 0 {
				tl.WriteString(" |")
			}
			tl.WriteString(" " + cell(n))
		}
		tl.WriteString(" |\n")
	}
	tl.WriteString("\nWhere each column was read:\n\n")
	for _, a := range agents {
		fmt.Fprintf(&tl, "- %s: %s\n", Title(a), toolSources[a])
	}
	return map[string]string{"events": ev.String(), "tools": tl.String()}
}

// TestDocs: docs/convert.md shows the tables the conversion uses
// (-update rewrites them there).
func TestDocs(t *testing.T) {
	data, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for name, table := range docTables() {
		open, end := "<!-- convert:"+name+" -->\n", "<!-- /convert:"+name+" -->"
		i, j := strings.Index(doc, open), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s has no %s … %s", docFile, strings.TrimSpace(open), end)
		}
		if got := doc[i+len(open) : j]; got != table {
			if !*update {
				t.Errorf("the %s table of %s is not the code's (go test ./app/hooks/convert -run TestDocs -update rewrites it)", name, docFile)
				continue
			}
			doc = doc[:i+len(open)] + table + doc[j:]
		}
	}
	if *update {
		if err := os.WriteFile(docFile, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
