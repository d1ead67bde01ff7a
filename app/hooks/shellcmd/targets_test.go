package shellcmd

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestTargets(t *testing.T) {
	resolve := func(w Word) (string, bool) {
		switch {
		case !w.Sure:
			return "", false
		case w.Var == "GEMINI_PROJECT_DIR":
			return filepath.Join("/proj", w.Text), true
		case w.Var != "":
			return "", false
		}
		return w.Text, true
	}
	cases := []struct {
		line string
		want []string // path, "+script" for an interpreter's script
	}{
		{"./hooks/guard.sh", []string{"/proj/hooks/guard.sh"}},
		{`"$GEMINI_PROJECT_DIR"/.gemini/hooks/ctx.sh --fast`, []string{"/proj/.gemini/hooks/ctx.sh"}},
		{"bash hooks/ctx.sh && echo done", []string{"/proj/hooks/ctx.sh+script"}},
		{"python3 -u hooks/x.py", nil}, // an option first: the script is not sure
		{"jq -n '{}' | /usr/bin/tee out", []string{"/usr/bin/tee"}},
		{"$HOOK ./x.sh", nil},
		{"echo hi; true", nil},
	}
	for _, c := range cases {
		cmd, err := Parse(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		var got []string
		for _, tg := range Targets(cmd, "/proj", resolve) {
			s := tg.Path
			if tg.Script {
				s += "+script"
			}
			got = append(got, s)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.line, got, c.want)
		}
	}
}
