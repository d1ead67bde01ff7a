package skills

import (
	"testing"
	"unicode/utf8"

	"hookstudio/app/format/diag"
)

func FuzzParseHooks(f *testing.F) {
	for _, s := range []string{
		doc(entry()), doc(entry("tool_filter", `["read_file"]`), entry("name", `"提示"`, "file", `"提示.md"`)),
		"\uFEFF" + doc(entry("timing", `"before_plan"`, "persitent", "true")), "", " ", "null", "[]", `{"hooks": null}`,
		`{"hooks": [1, null, {}]}`, doc(entry(), entry()), `{"hooks": [{"name": "a", "name": "b"}]}`,
		`{"hooks": [{"file": "../x", "persistent": "true", "tool_filter": []}]}`, `{"hooks": [[[[[[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, ds := ParseHooks(hf, data)
		for _, d := range ds {
			if d.File != hf || d.Line < 1 || d.Column < 1 || d.Code == "" || d.Message == "" ||
				(d.Severity != diag.Error && d.Severity != diag.Warning) || !utf8.ValidString(d.Message) {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		clean := !diag.HasErrors(ds)
		for _, e := range entries {
			if clean && !e.OK {
				t.Fatalf("entry %d not OK without any error", e.Index)
			}
			if !e.OK {
				continue
			}
			if e.Name == "" || !e.Timing.Valid() || !e.Role.Valid() || e.Pos.Line < 1 {
				t.Fatalf("OK entry with invalid fields: %+v", e)
			}
			if _, code := checkPath(e.File); code != "" {
				t.Fatalf("OK entry with a bad path %q", e.File)
			}
		}
	})
}
