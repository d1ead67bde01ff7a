package hookout

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestPlainAndJSON(t *testing.T) {
	cases := []struct {
		name        string
		text        string
		plain, json bool
	}{
		{"echo words", `echo "Remember the tests"`, true, false},
		{"echo unquoted", `echo Remember`, true, false},
		{"echo -e", `echo -e 'Line one\nLine two'`, true, false},
		{"echo to stderr", `echo "blocked" >&2`, false, false},
		{"echo variable", `echo "$out"`, false, false},
		{"echo json", `echo '{"decision": "block", "reason": "no"}'`, false, true},
		{"echo escaped json", `echo "{\"additionalContext\": \"x\"}"`, false, true},
		{"printf format", `printf '%s\n' "$x"`, false, false},
		{"after then", "if true; then echo Done; fi", true, false},
		{"here-document of words", "cat <<EOF\nThe rules of this project\nEOF", true, false},
		{"here-document of json", "cat <<'EOF'\n{\"decision\": \"block\"}\nEOF", false, true},
		{"python print", `print("Remember the tests")`, true, false},
		{"python f-string", `print(f"Branch {b} is protected")`, true, false},
		{"python stderr", `print("blocked", file=sys.stderr)`, false, false},
		{"python json", `print(json.dumps({"decision": "block"}))`, false, true},
		{"python write", `sys.stdout.write("Context: tests first\n")`, true, false},
		{"node log", "console.log(`Remember ${x}`)", true, false},
		{"node json", `console.log(JSON.stringify({decision: "block"}))`, false, true},
		{"node error", `console.error("blocked")`, false, false},
		{"jq", `jq -n --arg r "$r" '{decision: "block", reason: $r}'`, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Plain(c.text); got != c.plain {
				t.Errorf("Plain(%q) = %v, want %v", c.text, got, c.plain)
			}
			if got := JSON(c.text); got != c.json {
				t.Errorf("JSON(%q) = %v, want %v", c.text, got, c.json)
			}
		})
	}
}

func TestFieldsAndValues(t *testing.T) {
	cases := []struct {
		text   string
		key    string
		field  bool
		values []string
	}{
		{`echo '{"decision": "approve", "systemMessage": "ok"}'`, "decision", true, []string{"approve"}},
		{`echo "{\"decision\":\"block\",\"reason\":\"x\"}"`, "decision", true, []string{"block"}},
		{`print(json.dumps({'decision': 'approve'}))`, "decision", true, []string{"approve"}},
		{`console.log(JSON.stringify({decision: 'block', reason}))`, "decision", true, []string{"block"}},
		{`jq -n '{decision: "block"}'`, "decision", true, []string{"block"}},
		{`echo '{"additionalContext": "x"}'`, "decision", false, nil},
		{`echo '{"hookSpecificOutput": {"additionalContext": "x"}}'`, "additionalContext", true, []string{"x"}},
	}
	for _, c := range cases {
		if got := Field(c.text, c.key); got != c.field {
			t.Errorf("Field(%q, %q) = %v, want %v", c.text, c.key, got, c.field)
		}
		if got := Values(c.text, c.key); !slices.Equal(got, c.values) {
			t.Errorf("Values(%q, %q) = %q, want %q", c.text, c.key, got, c.values)
		}
	}
}

// TestRead: the command and each script it runs, comments left out,
// files that cannot be read skipped.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.py")
	if err := os.WriteFile(script, []byte("# print(\"a comment\")\nprint('Remember')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Read("python3 guard.py", []string{script, filepath.Join(dir, "gone.py"), dir})
	if want := "python3 guard.py\nprint('Remember')\n"; got != want {
		t.Errorf("Read = %q, want %q", got, want)
	}
}
