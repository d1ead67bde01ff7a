package scenario

import (
	"testing"

	"hookstudio/app/format/diag"
)

func TestToolResultsParse(t *testing.T) {
	sc, ds := Parse("s.yaml", []byte(`name: s
tools:
  - name: read_file
    result: any file
    results:
      - {arguments: {path: a.go}, result: "package a"}
      - {arguments: {path: b.go}}
requests:
  - user: hi
`))
	if len(sc.Tools) != 1 || sc.Tools[0].Result == nil || *sc.Tools[0].Result != "any file" || len(sc.Tools[0].Results) != 2 ||
		sc.Tools[0].Results[0].Arguments["path"] != "a.go" || sc.Tools[0].Results[0].Result != "package a" {
		t.Fatalf("tools = %+v", sc.Tools)
	}
	var missing *diag.Diagnostic
	for i := range ds {
		if ds[i].Code == CodeMissingField {
			missing = &ds[i]
		}
	}
	if missing == nil || missing.Line != 7 || missing.Severity != diag.Error {
		t.Errorf("a result entry without result: %+v", ds)
	}
}
