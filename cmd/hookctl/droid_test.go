package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
)

// TestValidateDroid: a Claude-style {"hooks": …} wrapper in Factory Droid's
// hooks.json fails validate at the wrapper's key (Droid would run none of
// it); the same events at the top level pass, said not to be simulated.
func TestValidateDroid(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		exit       int
		want       []jsonDiag
	}{
		{"wrapped", "{\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n", exitProblems,
			[]jsonDiag{{File: ".factory/hooks.json", Line: 1, Column: 1, Code: "droid-not-simulated"},
				{File: ".factory/hooks.json", Line: 2, Column: 3, Code: "droid-hooks-wrapper"}}},
		{"top level", "{\n  \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]\n}\n", exitOK,
			[]jsonDiag{{File: ".factory/hooks.json", Line: 1, Column: 1, Code: "droid-not-simulated"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFileT(t, filepath.Join(root, ".factory", "hooks.json"), tc.text)
			out, _, code := runCLI(t, "validate", "--json", root)
			if code != tc.exit {
				t.Errorf("exit %d, want %d\n%s", code, tc.exit, out)
			}
			var doc struct {
				Diagnostics []jsonDiag `json:"diagnostics"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var got []jsonDiag
			for _, d := range doc.Diagnostics {
				got = append(got, jsonDiag{File: d.File, Line: d.Line, Column: d.Column, Code: d.Code})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics %+v, want %+v", got, tc.want)
			}
		})
	}
}
