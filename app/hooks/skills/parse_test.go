package skills

import (
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

const hf = "s/hooks/hooks.json"

// mark locates an expected diagnostic by the n-th occurrence of a needle.
type mark struct {
	code   string
	sev    diag.Severity
	needle string
	n      int
}

func E(code, needle string, n int) mark { return mark{code, diag.Error, needle, n} }
func W(code, needle string, n int) mark { return mark{code, diag.Warning, needle, n} }

// doc wraps entries in a hooks.json, one entry per line.
func doc(entries ...string) string {
	return "{\"hooks\": [\n  " + strings.Join(entries, ",\n  ") + "\n]}\n"
}

// entry builds an entry from a valid default, with fields replaced
// (key: raw JSON) or removed (raw "").
func entry(over ...string) string {
	fields := [][2]string{
		{"name", `"a"`}, {"file", `"a.md"`}, {"timing", `"after_tool_call"`},
		{"role", `"system"`}, {"persistent", "false"},
	}
	for i := 0; i+1 < len(over); i += 2 {
		found := false
		for j := range fields {
			if fields[j][0] == over[i] {
				fields[j][1], found = over[i+1], true
			}
		}
		if !found {
			fields = append(fields, [2]string{over[i], over[i+1]})
		}
	}
	var parts []string
	for _, f := range fields {
		if f[1] != "" {
			parts = append(parts, `"`+f[0]+`": `+f[1])
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func TestParseHooksRules(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		marks []mark
	}{
		{"valid", doc(entry()), nil},
		{"valid non-ASCII", doc(entry("name", `"提示"`, "file", `"提示.md"`)), nil},
		{"valid with $schema", "{\"$schema\": \"../../../schema/hooks.schema.json\", \"hooks\": []}", nil},
		{"BOM accepted", "\uFEFF" + doc(entry()), nil},
		{"empty file", "", []mark{E(CodeEmptyFile, "", 0)}},
		{"BOM only", "\uFEFF", []mark{E(CodeEmptyFile, "", 0)}},
		{"whitespace only", " \n\t\n", []mark{E(CodeEmptyFile, "", 0)}},
		{"null document", "null", []mark{E(CodeNull, "null", 0)}},
		{"array document", "\n [1]", []mark{E(CodeType, "[", 0)}},
		{"string document", `"hooks"`, []mark{E(CodeType, `"`, 0)}},
		{"no hooks field", "{\n}", []mark{E(CodeMissingField, "{", 0)}},
		{"hooks null", `{"hooks": null}`, []mark{E(CodeNull, "null", 0)}},
		{"hooks object", `{"hooks": {}}`, []mark{E(CodeType, "{}", 0)}},
		{"empty hooks", `{"hooks": []}`, nil},
		{"top-level typo", `{"hook": [], "hooks": []}`, []mark{W(CodeUnknownField, `"hook"`, 0)}},
		{"syntax trailing comma", doc(entry() + ","), []mark{E(CodeSyntax, ",\n]", 0)}},
		{"syntax missing comma", "{\"hooks\": [\n  {\"name\": \"a\"\n   \"file\": \"a.md\"}]}", []mark{E(CodeSyntax, `"file"`, 0)}},
		{"syntax unterminated", "{\"hooks\": [{\"name\": \"a", []mark{E(CodeSyntax, `"a`, 0)}},
		{"syntax after non-ASCII", "{\"名前\": x}", []mark{E(CodeSyntax, "x", 0)}},
		{"too deep", `{"hooks": ` + strings.Repeat("[", 100), []mark{E(CodeTooDeep, "[", 63)}},
		{"entry not object", doc("1", entry()), []mark{E(CodeType, "1", 0)}},
		{"entry null", doc("null"), []mark{E(CodeNull, "null", 0)}},
		{"missing fields", doc(`{"name": "a"}`), []mark{
			E(CodeMissingField, `{"name"`, 0), E(CodeMissingField, `{"name"`, 0),
			E(CodeMissingField, `{"name"`, 0), E(CodeMissingField, `{"name"`, 0)}},
		{"name wrong type", doc(entry("name", "3")), []mark{E(CodeType, "3", 0)}},
		{"name null", doc(entry("name", "null")), []mark{E(CodeNull, "null", 0)}},
		{"name empty", doc(entry("name", `" "`)), []mark{E(CodeEmptyName, `" "`, 0)}},
		{"duplicate name", doc(entry(), entry("file", `"b.md"`)), []mark{E(CodeDuplicateName, `"a"`, 1)}},
		{"duplicate name non-ASCII", doc(entry("name", `"提示"`), entry("name", `"提示"`)), []mark{E(CodeDuplicateName, `"提示"`, 1)}},
		{"broken entry still claims its name", doc(entry("role", `"x"`), entry()), []mark{
			E(CodeUnknownRole, `"x"`, 0), E(CodeDuplicateName, `"a"`, 1)}},
		{"file empty", doc(entry("file", `""`)), []mark{E(CodeEmptyPath, `""`, 0)}},
		{"file absolute", doc(entry("file", `"/etc/passwd"`)), []mark{E(CodeAbsolutePath, `"/etc`, 0)}},
		{"file windows absolute", doc(entry("file", `"C:\\x.md"`)), []mark{E(CodeAbsolutePath, `"C:`, 0)}},
		{"file dotdot", doc(entry("file", `"../secret.md"`)), []mark{E(CodeEscapingPath, `"../`, 0)}},
		{"file inner dotdot escapes", doc(entry("file", `"a/../../x.md"`)), []mark{E(CodeEscapingPath, `"a/`, 0)}},
		{"file inner dotdot stays inside", doc(entry("file", `"a/../x.md"`)), nil},
		{"file is hooks dir", doc(entry("file", `"./"`)), []mark{E(CodeFileIsDir, `"./"`, 0)}},
		{"file wrong type", doc(entry("file", `["a.md"]`)), []mark{E(CodeType, `["a.md"]`, 0)}},
		{"timing typo", doc(entry("timing", `"before_plan"`)), []mark{E(CodeUnknownTiming, `"before_plan"`, 0)}},
		{"timing case", doc(entry("timing", `"After_Tool_Call"`)), []mark{E(CodeUnknownTiming, `"After`, 0)}},
		{"timing wrong type", doc(entry("timing", "5")), []mark{E(CodeType, "5", 0)}},
		{"role unknown", doc(entry("role", `"assistant"`)), []mark{E(CodeUnknownRole, `"assistant"`, 0)}},
		{"role case", doc(entry("role", `"System"`)), []mark{E(CodeUnknownRole, `"System"`, 0)}},
		{"persistent string", doc(entry("persistent", `"true"`)), []mark{E(CodeType, `"true"`, 0)}},
		{"persistent number", doc(entry("persistent", "1")), []mark{E(CodeType, "1}", 0)}},
		{"persistent null", doc(entry("persistent", "null")), []mark{E(CodeNull, "null", 0)}},
		{"persistent pile-up each agent", doc(entry("timing", `"before_each_agent"`, "persistent", "true")), []mark{W(CodePersistentPileUp, "true", 0)}},
		{"persistent pile-up tool call", doc(entry("persistent", "true")), []mark{W(CodePersistentPileUp, "true", 0)}},
		{"persistent once per request", doc(entry("timing", `"after_user_input"`, "persistent", "true")), nil},
		{"tool_filter ok", doc(entry("tool_filter", `["read_file", "搜索"]`)), nil},
		{"tool_filter string", doc(entry("tool_filter", `"read_file"`)), []mark{E(CodeType, `"read_file"`, 0)}},
		{"tool_filter item number", doc(entry("tool_filter", `["a", 2]`)), []mark{E(CodeType, "2]", 0)}},
		{"tool_filter empty", doc(entry("tool_filter", `[]`)), []mark{W(CodeEmptyToolFilter, "[]", 0)}},
		{"tool_filter empty name", doc(entry("tool_filter", `["x", ""]`)), []mark{W(CodeEmptyToolName, `""`, 0)}},
		{"tool_filter null", doc(entry("tool_filter", "null")), []mark{W(CodeNullToolFilter, "null", 0)}},
		{"tool_filter ignored", doc(entry("timing", `"before_planning"`, "tool_filter", `["x"]`)), []mark{W(CodeToolFilterIgnored, `["x"]`, 0)}},
		{"unknown field typo", doc(entry("persistent", "", "persitent", "false")), []mark{
			W(CodeUnknownField, `"persitent"`, 0), E(CodeMissingField, "{", 1)}},
		{"unknown field", doc(entry("comment", `"x"`)), []mark{W(CodeUnknownField, `"comment"`, 0)}},
		{"duplicate key", doc(`{"name": "a", "name": "b", "file": "a.md", "timing": "after_user_input", "role": "user", "persistent": false}`),
			[]mark{W(CodeDuplicateKey, `"name"`, 1)}},
		{"columns count code points", doc(`{"name": "名前", "file": "提示.md", "timing": "之前", "role": "user", "persistent": false}`),
			[]mark{E(CodeUnknownTiming, `"之前"`, 0)}},
		{"every problem at once", doc(
			entry("timing", `"before_plan"`, "role", `"bot"`),
			entry("name", `"b"`, "persistent", `"false"`, "file", `"/x.md"`),
			`{"name": "c"}`,
		), []mark{
			E(CodeUnknownTiming, `"before_plan"`, 0), E(CodeUnknownRole, `"bot"`, 0),
			E(CodeType, `"false"`, 0), E(CodeAbsolutePath, `"/x.md"`, 0),
			E(CodeMissingField, `{"name": "c"`, 0), E(CodeMissingField, `{"name": "c"`, 0),
			E(CodeMissingField, `{"name": "c"`, 0), E(CodeMissingField, `{"name": "c"`, 0),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := ParseHooks(hf, []byte(tt.doc))
			var ws []want
			for _, m := range tt.marks {
				line, col := at(t, tt.doc, m.needle, m.n)
				ws = append(ws, want{hf, line, col, m.sev, m.code})
			}
			checkDiags(t, ds, ws...)
		})
	}
}

func TestParseHooksEntries(t *testing.T) {
	src := "\uFEFF" + doc(
		entry("name", `"提示"`, "file", `"提示.md"`, "tool_filter", `["read_file"]`),
		entry("name", `"b"`, "role", `"bot"`),
		"7",
	)
	entries, _ := ParseHooks(hf, []byte(src))
	if len(entries) != 3 {
		t.Fatalf("got %d entries, want 3", len(entries))
	}
	e := entries[0]
	if !e.OK || e.Name != "提示" || e.File != "提示.md" || e.Timing != AfterToolCall || e.Role != System || e.Persistent ||
		len(e.ToolFilter) != 1 || e.ToolFilter[0] != "read_file" {
		t.Errorf("entry 0 = %+v", e)
	}
	if l, c := at(t, src, "{", 1); e.Pos.Line != l || e.Pos.Column != c {
		t.Errorf("entry 0 at %d:%d, want %d:%d", e.Pos.Line, e.Pos.Column, l, c)
	}
	if l, c := at(t, src, `"提示.md"`, 0); e.Fields["file"].Line != l || e.Fields["file"].Column != c {
		t.Errorf("file value at %+v, want %d:%d", e.Fields["file"], l, c)
	}
	if entries[1].OK || entries[1].Name != "b" || entries[1].Index != 1 {
		t.Errorf("entry 1 = %+v", entries[1])
	}
	if entries[2].OK || entries[2].Pos.Line != 4 {
		t.Errorf("entry 2 = %+v", entries[2])
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct{ in, want string }{
		{"before_plan", "before_planning"},
		{"After_Tool_Call", "after_tool_call"},
		{"beforeEachAgent", "before_each_agent"},
		{"before_first", "before_first_agent"},
		{"xyz", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := diag.Suggest(tt.in, Timings); got != tt.want {
			t.Errorf("diag.Suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for in, want := range map[string]string{"persitent": "persistent", "toolFilter": "tool_filter", "Name": "name", "colour": ""} {
		if got := diag.Suggest(in, KnownFields()); got != want {
			t.Errorf("diag.Suggest(%q) = %q, want %q", in, got, want)
		}
	}
	if got := diag.Suggest("sytem", Roles()); got != "system" {
		t.Errorf("diag.Suggest(sytem) = %q", got)
	}
}
