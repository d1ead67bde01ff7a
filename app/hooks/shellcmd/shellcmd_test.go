package shellcmd

import (
	"errors"
	"strings"
	"testing"
)

func TestPrograms(t *testing.T) {
	type prog struct {
		text, v string
		sure    bool
		builtin bool
	}
	cases := []struct {
		cmd  string
		want []prog
		subs []string
	}{
		{"(sleep 300 &) ; echo '{}'", []prog{{"sleep", "", true, false}, {"echo", "", true, true}}, []string{"sleep 300", "echo '{}'"}},
		{"git status && rm -rf build || true", []prog{{"git", "", true, false}, {"rm", "", true, false}, {"true", "", true, true}}, []string{"git status", "rm -rf build", "true"}},
		{"cat | jq .tool_name | grep -q Bash", []prog{{"cat", "", true, false}, {"jq", "", true, false}, {"grep", "", true, false}}, nil},
		{`FOO=1 BAR="a b" python3 "$JCLI_HOOK_DIR/guard.py" > /dev/null 2>&1`, []prog{{"python3", "", true, false}}, nil},
		{`"$JCLI_HOOK_DIR/check.sh" --strict`, []prog{{"check.sh", "JCLI_HOOK_DIR", true, false}}, nil},
		{`${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh`, []prog{{"scripts/fmt.sh", "CLAUDE_PLUGIN_ROOT", true, false}}, nil},
		{`$EDITOR file`, []prog{{"$EDITOR", "", false, false}}, nil},
		{`exec env -i PATH=/bin nice -n 5 timeout -s KILL 5 mytool x`, []prog{{"exec", "", true, true}, {"env", "", true, false}, {"nice", "", true, false}, {"timeout", "", true, false}, {"mytool", "", true, false}}, nil},
		{`f() { helper; }; f`, []prog{{"helper", "", true, false}, {"f", "", true, true}}, nil},
		{`X=1`, nil, nil},
		{`echo "$(whoami)"`, []prog{{"echo", "", true, true}, {"whoami", "", true, false}}, nil},
		{`if [ -f x ]; then ./run.sh; fi`, []prog{{"[", "", true, true}, {"./run.sh", "", true, false}}, nil},
		{`./bin/*.sh`, []prog{{"./bin/*.sh", "", false, false}}, nil},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) {
			got, err := Parse(c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			var ps []prog
			for _, p := range got.Programs {
				ps = append(ps, prog{p.Text, p.Var, p.Sure, p.Builtin})
			}
			if len(ps) != len(c.want) {
				t.Fatalf("programs %+v, want %+v", ps, c.want)
			}
			for i := range ps {
				if ps[i] != c.want[i] {
					t.Errorf("program %d: %+v, want %+v", i, ps[i], c.want[i])
				}
			}
			if c.subs != nil && strings.Join(got.Subcommands, "|") != strings.Join(c.subs, "|") {
				t.Errorf("subcommands %q, want %q", got.Subcommands, c.subs)
			}
		})
	}
}

func TestPositionsAndArgs(t *testing.T) {
	got, err := Parse("true &&\n  python3 guard.py --x")
	if err != nil {
		t.Fatal(err)
	}
	p := got.Programs[1]
	if p.Line != 2 || p.Col != 3 || len(p.Args) != 2 || p.Args[0].Text != "guard.py" || !p.Args[0].Sure {
		t.Errorf("%+v", p)
	}
}

func TestParseErrors(t *testing.T) {
	for _, cmd := range []string{"echo 'unterminated", "if true; then echo", "(sleep 1", "a |"} {
		_, err := Parse(cmd)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 || pe.Msg == "" {
			t.Errorf("%q: %v", cmd, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"(sleep 300 &) ; echo '{}'", "a|b", "x=$(y)", "\"$JCLI_HOOK_DIR/a\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Parse(s) // never panics
	})
}

func BenchmarkParse(b *testing.B) {
	for range b.N {
		if _, err := Parse(`FOO=1 python3 "$JCLI_HOOK_DIR/guard.py" | jq -r .reason && echo ok || exit 2`); err != nil {
			b.Fatal(err)
		}
	}
}
