package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/skills"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// op is one editing operation under test.
type op struct {
	name   string
	target string // the hook the op changes ("" when none); others must keep their bytes
	// gone is a hook the op removes.
	gone string
	// code is an error the result must report (the op breaks the hook on
	// purpose); "" means the result has no errors.
	code string
	run  func(d *Document) (*Document, error)
}

func ops() []op {
	newHook := Hook{Name: "new-hook", File: "new.md", Timing: skills.AfterToolCall, Role: skills.User, ToolFilter: []string{"read_file"}}
	return []op{
		{"add", "new-hook", "", "", func(d *Document) (*Document, error) { return d.AddHook(newHook) }},
		{"insert-first", "new-hook", "", "", func(d *Document) (*Document, error) { return d.InsertHook(0, newHook) }},
		{"set-existing", "b", "", "", func(d *Document) (*Document, error) { return d.SetField(d.must(1), "timing", skills.AfterUserInput) }},
		{"set-new-field", "b", "", "", func(d *Document) (*Document, error) {
			return d.SetField(d.must(1), "tool_filter", []string{"x", "y"})
		}},
		{"update", "b", "", "", func(d *Document) (*Document, error) {
			return d.UpdateHook(d.must(1), map[string]any{"role": "user", "persistent": true, "x-added": "v", "tool_filter": nil})
		}},
		{"rename", "b", "", "", func(d *Document) (*Document, error) { return d.RenameHook(d.must(1), "renamed") }},
		{"duplicate", "", "", "", func(d *Document) (*Document, error) { return d.DuplicateHook(0, "") }},
		{"move-last-first", "", "", "", func(d *Document) (*Document, error) { return d.MoveHook(d.Len()-1, 0) }},
		{"move-first-last", "", "", "", func(d *Document) (*Document, error) { return d.MoveHook(0, d.Len()-1) }},
		{"delete-first", "", "a", "", func(d *Document) (*Document, error) { return d.DeleteHook(0) }},
		{"delete-last", "", "b", "", func(d *Document) (*Document, error) { return d.DeleteHook(d.Len() - 1) }},
		{"delete-field", "b", "", skills.CodeMissingField, func(d *Document) (*Document, error) { return d.DeleteField(d.must(1), "persistent") }},
		{"set-schema", "", "", "", func(d *Document) (*Document, error) { return d.SetTopField("$schema", SchemaRef) }},
		{"delete-all-then-add", "new-hook", "", "", func(d *Document) (*Document, error) {
			for d.Len() > 0 {
				var err error
				if d, err = d.DeleteHook(0); err != nil {
					return nil, err
				}
			}
			return d.AddHook(newHook)
		}},
	}
}

// must returns i when the document has that many hooks, else the last one,
// so the same table runs on every input.
func (d *Document) must(i int) int { return min(i, d.Len()-1) }

func inputs(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range []string{"hooks.json", "tabs-bom-crlf.json", "inline.json", "empty.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(name, ".json")] = data
	}
	return out
}

// unknownKeys lists "path.key" of every member the app does not know, with
// its compact value.
func unknownKeys(t *testing.T, data []byte) map[string]string {
	t.Helper()
	doc, err := jsondoc.Parse(data)
	if err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, data)
	}
	out := map[string]string{}
	for _, m := range doc.Root.Children {
		if m.Key != "hooks" {
			out["/"+m.Key] = compactOf(m)
		}
	}
	for _, el := range doc.Root.Get("hooks").Children {
		name := el.Get("name").Str
		for _, m := range el.Children {
			if !isKnown(m.Key) {
				out[name+"/"+m.Key] = compactOf(m)
			}
		}
	}
	return out
}

func isKnown(k string) bool {
	for _, f := range skills.KnownFields() {
		if f == k {
			return true
		}
	}
	return false
}

func rawByName(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	doc, err := jsondoc.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, el := range doc.Root.Get("hooks").Children {
		out[el.Get("name").Str] = el.Raw
	}
	return out
}

func TestOperationsRoundTrip(t *testing.T) {
	for inName, in := range inputs(t) {
		for _, o := range ops() {
			t.Run(inName+"/"+o.name, func(t *testing.T) {
				d, err := Parse("s/hooks/hooks.json", in)
				if err != nil {
					t.Fatal(err)
				}
				if inName == "empty" && o.target != "new-hook" && o.name != "set-schema" {
					t.Skip("needs hooks")
				}
				target, gone := o.target, o.gone
				// The tables name hooks a and b; the example file has others.
				names := rawByName(t, in)
				order := d.names()
				if target == "b" && len(order) > 1 {
					target = order[1]
				}
				switch {
				case gone == "a":
					gone = order[0]
				case gone == "b":
					gone = order[len(order)-1]
				}
				nd, err := o.run(d)
				if err != nil {
					t.Fatal(err)
				}
				out := nd.Bytes()
				golden(t, filepath.Join("testdata", "golden", inName, o.name+".json"), out)

				if jsondoc.HasBOM(in) != jsondoc.HasBOM(out) {
					t.Error("BOM not preserved")
				}
				if bytes.HasSuffix(in, []byte("\n")) != bytes.HasSuffix(out, []byte("\n")) {
					t.Error("trailing newline not preserved")
				}
				if bytes.Contains(in, []byte("\r\n")) && bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
					t.Error("CRLF line ends not preserved")
				}
				if o.code != "" {
					if !hasCode(nd.Diagnostics(), o.code) {
						t.Errorf("result does not report %s: %v", o.code, nd.Diagnostics())
					}
				} else if diag.HasErrors(nd.Diagnostics()) {
					t.Errorf("result has errors: %v", nd.Diagnostics())
				}
				// Every unknown field survives with its value, except those of
				// a deleted hook (and the renamed hook's move to a new name).
				before, after := unknownKeys(t, in), unknownKeys(t, out)
				for k, v := range before {
					owner, _, _ := strings.Cut(k, "/")
					if owner == gone || owner == target || o.name == "delete-all-then-add" {
						continue
					}
					if after[k] != v {
						t.Errorf("unknown field %s = %s lost (now %q)", k, v, after[k])
					}
				}
				// Hooks the operation does not target keep their exact bytes.
				outRaw := rawByName(t, out)
				for name, raw := range names {
					if name == target || name == gone || o.name == "delete-all-then-add" {
						continue
					}
					if !bytes.Equal(outRaw[name], raw) {
						t.Errorf("hook %s changed:\n%s\n---\n%s", name, raw, outRaw[name])
					}
				}
			})
		}
	}
}

func (d *Document) names() []string {
	var out []string
	for _, el := range d.elements() {
		out = append(out, el.Get("name").Str)
	}
	return out
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update after checking):\n%s", path, got)
	}
}

func TestMoveKeepsOrderOfOthers(t *testing.T) {
	d := parse(t, "testdata/hooks.json")
	nd, err := d.MoveHook(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(nd.names(), ","), "tool-etiquette,write-safety,truncated-content-hint"; got != want {
		t.Errorf("order = %s, want %s", got, want)
	}
	if !bytes.Equal(d.Bytes(), mustRead(t, "testdata/hooks.json")) {
		t.Error("the original document changed")
	}
}

func TestNameRules(t *testing.T) {
	d := parse(t, "testdata/hooks.json")
	tests := []struct {
		name string
		run  func() (*Document, error)
		code string
	}{
		{"rename empty", func() (*Document, error) { return d.RenameHook(0, "  ") }, skills.CodeEmptyName},
		{"rename duplicate", func() (*Document, error) { return d.RenameHook(0, "write-safety") }, skills.CodeDuplicateName},
		{"add duplicate", func() (*Document, error) { return d.AddHook(Hook{Name: "write-safety"}) }, skills.CodeDuplicateName},
		{"duplicate to taken name", func() (*Document, error) { return d.DuplicateHook(0, "write-safety") }, skills.CodeDuplicateName},
		{"update name duplicate", func() (*Document, error) {
			return d.UpdateHook(0, map[string]any{"name": "write-safety", "role": "user"})
		}, skills.CodeDuplicateName},
		{"name not a string", func() (*Document, error) { return d.SetField(0, "name", 3) }, skills.CodeType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.run()
			var ne *NameError
			if !errors.As(err, &ne) || ne.Code != tt.code {
				t.Fatalf("err = %v, want a NameError %s", err, tt.code)
			}
		})
	}
	if _, err := d.RenameHook(0, "tool-etiquette"); err != nil {
		t.Errorf("renaming a hook to its own name: %v", err)
	}
	if _, err := d.DeleteHook(7); !errors.Is(err, ErrIndex) {
		t.Errorf("DeleteHook(7) = %v, want ErrIndex", err)
	}
}

func TestDiagnosticsFollowEdits(t *testing.T) {
	d := parse(t, "testdata/hooks.json")
	nd, err := d.SetField(0, "timing", "before_plan")
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(nd.Diagnostics(), skills.CodeUnknownTiming) {
		t.Errorf("no unknown-timing diagnostic: %v", nd.Diagnostics())
	}
	if hasCode(d.Diagnostics(), skills.CodeUnknownTiming) {
		t.Error("the old document's diagnostics changed")
	}
}

func TestParseRefusesNonDocuments(t *testing.T) {
	for _, in := range []string{`{`, `[]`, `{"hooks": {}}`, `null`} {
		if _, err := Parse("h.json", []byte(in)); !errors.Is(err, ErrNotEditable) {
			t.Errorf("Parse(%s) = %v, want ErrNotEditable", in, err)
		}
	}
	d, err := Parse("h.json", []byte(`{"x-a": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	nd, err := d.AddHook(Hook{Name: "n", File: "n.md", Timing: skills.AfterUserInput, Role: skills.System})
	if err != nil {
		t.Fatal(err)
	}
	if nd.Len() != 1 || diag.HasErrors(nd.Diagnostics()) {
		t.Errorf("adding to a document without hooks: %s %v", nd.Bytes(), nd.Diagnostics())
	}
}

func TestHooksJSONCanonical(t *testing.T) {
	got, err := HooksJSON(mustRead(t, "testdata/tabs-bom-crlf.json"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/golden/canonical.json", got)
	var v struct {
		Schema string            `json:"$schema"`
		Hooks  []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(got, &v); err != nil || v.Schema != SchemaRef || len(v.Hooks) != 2 {
		t.Errorf("canonical = %s (%v)", got, err)
	}
	if _, err := HooksJSON([]byte(`{"hooks": [{}]}`)); !isInvalid(err) {
		t.Errorf("HooksJSON of a broken file = %v, want InvalidError", err)
	}
}

func isInvalid(err error) bool {
	var ie *InvalidError
	return errors.As(err, &ie)
}

func hasCode(ds []diag.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

func parse(t *testing.T, path string) *Document {
	t.Helper()
	d, err := Parse("s/hooks/hooks.json", mustRead(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
