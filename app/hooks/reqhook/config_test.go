package reqhook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/format/diag"
	"hookstudio/schema"
)

func TestParse(t *testing.T) {
	src := `start:
  - command: ./check.sh --strict
    timeout: 2.5
  - name: audit
    command: cat > /dev/null
end:
  - command: ./log.sh
x-note: ignored
`
	start, end, ds := Parse("s/hooks/request-hooks.yaml", []byte(src), "s")
	if len(ds) != 0 {
		t.Fatalf("diagnostics %v", ds)
	}
	if len(start) != 2 || len(end) != 1 {
		t.Fatalf("start %+v end %+v", start, end)
	}
	if h := start[0]; h.Name != "check.sh" || h.Timeout != 2500*time.Millisecond || h.Event != EventStart || h.Skill != "s" || h.Source != "s/hooks/request-hooks.yaml:2" {
		t.Errorf("start[0] %+v", h)
	}
	if h := start[1]; h.Name != "audit" || h.Timeout != DefaultTimeout {
		t.Errorf("start[1] %+v", h)
	}
	if h := end[0]; h.Event != EventEnd || h.Name != "log.sh" {
		t.Errorf("end[0] %+v", h)
	}
}

func TestParseDiagnostics(t *testing.T) {
	src := `start:
  - command: ""
  - timeout: 3
  - command: ok
    timeout: 0
  - command: ok
    timeout: soon
  - command: 5
  - just a string
end: {command: x}
other: 1
`
	_, _, ds := Parse("f.yaml", []byte(src), "")
	want := []struct {
		line, col int
		code      string
		sev       diag.Severity
	}{
		{2, 14, CodeInvalidValue, diag.Error},
		{3, 5, CodeMissingField, diag.Error},
		{5, 14, CodeInvalidValue, diag.Error},
		{7, 14, CodeWrongType, diag.Error},
		{8, 14, CodeWrongType, diag.Error},
		{9, 5, CodeWrongType, diag.Error},
		{10, 6, CodeWrongType, diag.Error},
		{11, 1, CodeUnknownField, diag.Warning},
	}
	if len(ds) != len(want) {
		t.Errorf("got %d diagnostics, want %d: %v", len(ds), len(want), ds)
	}
	for _, w := range want {
		if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
			return d.Line == w.line && d.Column == w.col && d.Code == w.code && d.Severity == w.sev && d.File == "f.yaml" && d.Message != ""
		}) {
			t.Errorf("no %s %s at %d:%d in %v", w.sev, w.code, w.line, w.col, ds)
		}
	}
	_, _, ds = Parse("f.yaml", []byte("start: [\n"), "")
	if len(ds) != 1 || ds[0].Code != CodeSyntax || ds[0].Line == 0 {
		t.Errorf("syntax: %v", ds)
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ProjectFile, "start: [{command: project-start}]\nend: [{command: project-end}]\n")
	write("b/"+SkillFile, "start: [{command: b-start}]\n")
	write("a/"+SkillFile, "end: [{command: a-end}]\n")
	write("c/"+SkillFile, "start: [{command: 3}]\n") // broken: none of its hooks
	cfg, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	names := func(hs []Hook) (out []string) {
		for _, h := range hs {
			out = append(out, h.Name)
		}
		return out
	}
	if got := names(cfg.Start); !slices.Equal(got, []string{"project-start", "b-start"}) {
		t.Errorf("start %v", got)
	}
	if got := names(cfg.End); !slices.Equal(got, []string{"project-end", "a-end"}) {
		t.Errorf("end %v", got)
	}
	if len(cfg.Diagnostics) != 1 || cfg.Diagnostics[0].File != "c/"+SkillFile {
		t.Errorf("diagnostics %v", cfg.Diagnostics)
	}
	if cfg.End[1].Skill != "a" || cfg.End[1].Dir != filepath.Join(root, "a", "hooks") {
		t.Errorf("a-end %+v", cfg.End[1])
	}
}

// TestSchemaMatchesParser keeps schema/request-hooks.schema.json equal to
// the parser's fields at both levels.
func TestSchemaMatchesParser(t *testing.T) {
	type object struct {
		Description       string                     `json:"description"`
		Properties        map[string]map[string]any  `json:"properties"`
		Required          []string                   `json:"required"`
		PatternProperties map[string]json.RawMessage `json:"patternProperties"`
		Defs              map[string]json.RawMessage `json:"$defs"`
	}
	var root object
	if err := json.Unmarshal([]byte(schema.RequestHooks), &root); err != nil {
		t.Fatal(err)
	}
	for _, lv := range Levels() {
		obj := root
		if lv.Name != "file" {
			obj = object{}
			if err := json.Unmarshal(root.Defs[lv.Name], &obj); err != nil {
				t.Fatalf("$defs/%s: %v", lv.Name, err)
			}
		}
		var props []string
		for name, p := range obj.Properties {
			props = append(props, name)
			if d, _ := p["description"].(string); d == "" {
				t.Errorf("%s.%s has no description", lv.Name, name)
			}
		}
		slices.Sort(props)
		if want := slices.Sorted(slices.Values(lv.Fields)); !slices.Equal(props, want) {
			t.Errorf("%s properties %v, parser %v", lv.Name, props, want)
		}
		if req, want := slices.Sorted(slices.Values(obj.Required)), slices.Sorted(slices.Values(lv.Required)); !slices.Equal(req, want) {
			t.Errorf("%s required %v, parser %v", lv.Name, req, want)
		}
		if _, ok := obj.PatternProperties["^x-"]; !ok || strings.TrimSpace(obj.Description) == "" {
			t.Errorf("%s: no x- extension or description", lv.Name)
		}
	}
}

// TestCommandsReadAsTheShell: a command is read as sh -c will (app/hooks/shellcmd):
// one sh cannot read is an error at its position, and a hook without a name
// is named after the first program sh runs.
func TestCommandsReadAsTheShell(t *testing.T) {
	start, _, ds := Parse("f.yaml", []byte("start:\n  - command: \"(sleep 1 &) ; echo '{}'\"\n  - command: \"echo 'open\"\n"), "")
	if len(ds) != 1 || ds[0].Code != CodeShellSyntax || ds[0].Line != 3 || ds[0].Severity != diag.Error {
		t.Fatalf("diagnostics %+v", ds)
	}
	if len(start) == 0 || start[0].Name != "sleep" {
		t.Errorf("hooks %+v", start)
	}
}
