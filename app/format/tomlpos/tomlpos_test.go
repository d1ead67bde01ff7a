package tomlpos

import (
	"errors"
	"testing"

	"hookstudio/app/format/jsondoc"
)

// TestJSONKeepsPositions: a table written as JSON, each of its keys and
// values found again at its TOML line and column, whichever way the TOML
// wrote it (headers, arrays of tables, dotted keys, inline tables).
func TestJSONKeepsPositions(t *testing.T) {
	data := []byte(`model = "x"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "sh guard.sh"
timeout = 30

[hooks]
Stop = [{ hooks = [{ type = "command", command = 'echo "done"' }] }]
state."/p/config.toml:stop:0:0".trusted_hash = "sha256:ab"
`)
	d, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	js, pos, ok := d.JSON("hooks")
	if !ok {
		t.Fatal("no hooks table")
	}
	doc, err := jsondoc.Parse(js)
	if err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	h := doc.Root.Get("hooks")
	pre := h.Get("PreToolUse").Children[0]
	for _, tc := range []struct {
		n         *jsondoc.Node
		key       bool
		line, col int
	}{
		{pre.Get("matcher"), true, 4, 1},
		{pre.Get("matcher"), false, 4, 11},
		{pre.Get("hooks").Children[0].Get("command"), false, 7, 11},
		{pre.Get("hooks").Children[0].Get("timeout"), false, 8, 11},
		{h.Get("Stop").Children[0].Get("hooks").Children[0].Get("command"), false, 11, 50},
		{h.Get("state").Children[0].Get("trusted_hash"), true, 12, 33},
	} {
		off := tc.n.Offset
		if tc.key {
			off = tc.n.KeyOffset
		}
		if l, c := pos(off); l != tc.line || c != tc.col {
			t.Errorf("%s at %d:%d, want %d:%d", tc.n.Key, l, c, tc.line, tc.col)
		}
	}
	if got := h.Get("Stop").Children[0].Get("hooks").Children[0].Get("command").Str; got != `echo "done"` {
		t.Errorf("literal string %q", got)
	}
	if _, _, ok := d.JSON("nothing"); ok || !d.Has("model") {
		t.Error("Has/JSON of a missing table")
	}
}

func TestSyntaxErrorHasAPosition(t *testing.T) {
	_, err := Parse([]byte("a = 1\n[hooks\nb = 2\n"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 {
		t.Fatalf("error %v, want one on line 2", err)
	}
	_, err = Parse([]byte("a = 1\n[a]\n"))
	if !errors.As(err, &se) || se.Line != 2 {
		t.Fatalf("a key that is a value and a table: %v", err)
	}
}
