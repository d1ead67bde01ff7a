package yamlpos

import (
	"bytes"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name           string
		in             string
		root, second   bool
		err, secondErr bool
	}{
		{"mapping", "a: 1\n", true, false, false, false},
		{"bom", "\ufeffa: 1\n", true, false, false, false},
		{"only comments", "# nothing\n", false, false, false, false},
		{"null document", "~\n", false, false, false, false},
		{"second document", "a: 1\n---\nb: 2\n", true, true, false, false},
		{"broken second document", "a: 1\n---\nb: [\n", true, false, false, true},
		{"syntax error", "a: [\n", false, false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Decode([]byte(tt.in))
			if (err != nil) != tt.err || (d.Root() != nil) != tt.root || (d.Second != nil) != tt.second || (d.SecondErr != nil) != tt.secondErr {
				t.Errorf("root %v second %v secondErr %v err %v", d.Root(), d.Second, d.SecondErr, err)
			}
		})
	}
}

func TestPairs(t *testing.T) {
	d, err := Decode([]byte("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n  y: 4\n  [k]: 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := Deref(Pairs(d.Root(), func(Problem) {})[1].Val)
	var problems []Problem
	ps := Pairs(m, func(p Problem) { problems = append(problems, p) })
	var names []string
	for _, p := range ps {
		names = append(names, p.Name+"="+Deref(p.Val).Value)
	}
	if got := names; len(got) != 2 || got[0] != "y=3" || got[1] != "x=1" {
		t.Errorf("pairs %v", got)
	}
	if len(problems) != 2 || !problems[0].Duplicate || problems[0].At.Line != 5 || problems[1].Duplicate {
		t.Errorf("problems %+v", problems)
	}
}

func TestLocate(t *testing.T) {
	_, err := Decode([]byte("a: 1\nb: [1, 2\nc: 3\n"))
	if err == nil {
		t.Fatal("no error")
	}
	if line, _ := Line(err); line == 0 {
		t.Errorf("no line in %v", err)
	}
	if line, col, problem := Locate(err, []byte("a: 1\nb: [1, 2\nc: 3\n")); line < 2 || col != 1 || problem == "" {
		t.Errorf("located at %d:%d %q", line, col, problem)
	}
	data := []byte("a: 1\nb: *nowhere\n")
	_, err = Decode(data)
	if line, col, _ := Locate(err, data); line != 2 || col != 4 {
		t.Errorf("unknown anchor at %d:%d", line, col)
	}
}

func TestToJSON(t *testing.T) {
	d, err := Decode([]byte("hooks:\n  Stop:\n    - command: ./x.sh\n      timeout: 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	pm := &PosMap{}
	if err := ToJSON(&b, d.Root(), pm); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != `{"hooks":{"Stop":[{"command":"./x.sh","timeout":5}]}}` {
		t.Errorf("json %s", got)
	}
	if line, col := pm.At(bytes.Index(b.Bytes(), []byte(`5`))); line != 4 || col != 16 {
		t.Errorf("timeout's value at %d:%d", line, col)
	}
}
