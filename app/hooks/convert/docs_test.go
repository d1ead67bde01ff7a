package convert

import (
	"fmt"
	"maps"
	"os"
	"slices"
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
	// the first column is the neutral name, which is Claude Code's: no
	// column of its own
	tl.WriteString("|")
	for _, a := range agents {
		tl.WriteString(" " + Title(a) + " |")
	}
	tl.WriteString("\n|" + strings.Repeat("---|", len(agents)) + "\n")
	for _, r := range toolTable {
		tl.WriteString("|")
		for _, n := range r {
			tl.WriteString(" " + cell(n) + " |")
		}
		tl.WriteString("\n")
	}
	tl.WriteString("\nWhere each column was read:\n\n")
	for _, a := range agents {
		fmt.Fprintf(&tl, "- %s: %s\n", Title(a), toolSources[a])
	}
	return map[string]string{"events": ev.String(), "tools": tl.String(), "adapter": adapterTable()}
}

// adapterTable is what each target's adapter maps (adapters), a column each.
func adapterTable() string {
	targets := slices.Sorted(maps.Keys(adapters))
	slices.SortFunc(targets, func(a, b string) int { return column(a) - column(b) })
	names := func(es []Event) string {
		var out []string
		for _, e := range es {
			out = append(out, "`"+eventName(ClaudeCode, e)+"`")
		}
		return strings.Join(out, ", ")
	}
	pairs := func(m map[string]string, prefix string) []string {
		var out []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, fmt.Sprintf("%s`%s` → `%s`", prefix, k, m[k]))
		}
		return out
	}
	place := map[string]string{"nested": "in `hookSpecificOutput`, as written", "top": "at the top level",
		"decision": "`decision`, `reason` at the top level"}
	rows := []struct {
		what string
		cell func(a *adapterSpec, to string) string
	}{
		{"events written under Claude Code's own names", func(a *adapterSpec, _ string) string { return names(a.SourceNames) }},
		{"tool names given back", func(a *adapterSpec, to string) string {
			var out []string
			f, c := column(ClaudeCode), column(to)
			for _, r := range toolTable {
				if r[c] != "" && r[c] != r[f] && toolsOf(to, r[c])[0] == r[f] {
					out = append(out, fmt.Sprintf("`%s` → `%s`", r[c], r[f]))
				}
			}
			return strings.Join(out, ", ")
		}},
		{"tool input keys given back (and back again in `updatedInput`)", func(a *adapterSpec, _ string) string {
			var out []string
			for _, tool := range slices.Sorted(maps.Keys(a.ToolKeys)) {
				out = append(out, pairs(a.ToolKeys[tool], tool+": ")...)
			}
			return strings.Join(out, ", ")
		}},
		{"other input keys and values given back", func(a *adapterSpec, _ string) string {
			out := pairs(a.Keys, "")
			for _, k := range slices.Sorted(maps.Keys(a.Values)) {
				out = append(out, pairs(a.Values[k], k+": ")...)
			}
			if a.Camel {
				out = append(out, "other camelCase keys in snake_case")
			}
			return strings.Join(out, ", ")
		}},
		{"`additionalContext`", func(a *adapterSpec, _ string) string { return place[a.Context] }},
		{"`permissionDecision`, its reason", func(a *adapterSpec, _ string) string { return place[a.Permission] }},
		{"`updatedInput`", func(a *adapterSpec, _ string) string { return "`hookSpecificOutput." + a.Updated + "`" }},
		{"plain stdout, given as `additionalContext`", func(a *adapterSpec, _ string) string { return names(a.Plain) }},
		{"a PostToolUse block's reason", func(a *adapterSpec, _ string) string {
			if a.PostBlock {
				return "given as `additionalContext` (the tool's output stays)"
			}
			return "as written"
		}},
		{"exit 2 (its stderr)", func(a *adapterSpec, _ string) string {
			what := map[string]string{"deny": "a denial, the stderr its reason", "block": "`decision: block`, the stderr its reason",
				"context": "`additionalContext`", "warn": fmt.Sprintf("exit %d, the stderr passed on", a.Fail)}
			var out []string
			for _, r := range eventTable {
				if w, ok := a.Exit2[r.Event]; ok {
					out = append(out, fmt.Sprintf("`%s`: %s", eventName(ClaudeCode, r.Event), what[w]))
				}
			}
			return strings.Join(out, "; ")
		}},
		{"another code but 0 (a non-blocking error)", func(a *adapterSpec, _ string) string {
			return fmt.Sprintf("exit %d, its stderr passed on, its stdout dropped", a.Fail)
		}},
		{"never sent, even mapped", func(a *adapterSpec, _ string) string {
			var out []string
			for _, k := range slices.Sorted(maps.Keys(a.Lacks)) {
				if at := a.Lacks[k]; len(at) > 0 {
					out = append(out, fmt.Sprintf("`%s` (but at %s)", k, names(at)))
				} else {
					out = append(out, "`"+k+"`")
				}
			}
			return strings.Join(out, ", ")
		}},
		{"additionalContext the model never reads", func(a *adapterSpec, _ string) string { return names(a.NoContext) }},
	}
	var b strings.Builder
	b.WriteString("| |")
	for _, to := range targets {
		b.WriteString(" " + Title(to) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(targets)) + "\n")
	for _, r := range rows {
		b.WriteString("| " + r.what + " |")
		for _, to := range targets {
			c := r.cell(adapters[to], to)
			if c == "" {
				c = "—"
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\nWhere each column was read or seen:\n\n")
	for _, to := range targets {
		fmt.Fprintf(&b, "- %s: %s\n", Title(to), adapters[to].Source)
	}
	return b.String()
}

// tableCells is the number of cells of a Markdown table row: its | not
// escaped (\|), less the outer ones.
func tableCells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\':
			i++
		case row[i] == '|':
			n++
		}
	}
	return n - 1
}

// TestDocTables: every table of docs/convert.md — those written by hand and
// those TestDocs writes from the code — has as many cells in each row as in
// its header.
func TestDocTables(t *testing.T) {
	data, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	check := func(where, doc string) {
		lines := strings.Split(doc, "\n")
		tables := 0
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "|") {
				continue
			}
			tables++
			head := tableCells(lines[i])
			for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
				if n := tableCells(lines[i]); n != head {
					t.Errorf("%s:%d: %d cells, the table's header has %d: %s", where, i+1, n, head, lines[i])
				}
			}
		}
		if tables == 0 {
			t.Errorf("%s: no table", where)
		}
	}
	check(docFile, string(data))
	for name, table := range docTables() { // as -update writes them
		check("the "+name+" table", table)
	}
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
