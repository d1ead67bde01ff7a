package cmdhook

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/format/diag"
)

type wantDiag struct {
	line, col int
	sev       diag.Severity
	code      string
}

func TestParseDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		hooks int
		want  []wantDiag
	}{
		{"valid", "pre_tool_execution:\n  - command: \"echo '{}'\"\n    timeout: 5\n    on_error: abort\n    filter: {tool_name: Bash, model_prefix: gpt}\n", 1, nil},
		{"empty file", "", 0, nil},
		{"comments only", "# nothing yet\n", 0, nil},
		{"event without hooks", "stop:\n", 0, nil},
		{"syntax", "stop:\n  - command: [\n", 0, []wantDiag{{2, 1, diag.Error, CodeYAMLSyntax}}},
		{"not a mapping", "- command: x\n", 0, []wantDiag{{1, 1, diag.Error, CodeWrongType}}},
		{"unknown event", "pre_tool_exec:\n  - command: \"true\"\n", 0, []wantDiag{{1, 1, diag.Error, CodeUnknownEvent}}},
		{"event not a list", "stop: {command: \"true\"}\n", 0, []wantDiag{{1, 7, diag.Error, CodeWrongType}}},
		{"hook not a mapping", "stop:\n  - echo hi\n", 0, []wantDiag{{2, 5, diag.Error, CodeWrongType}}},
		{"unknown field", "stop:\n  - command: \"true\"\n    comand: x\n", 1, []wantDiag{{3, 5, diag.Warning, CodeUnknownField}}},
		{"extension field", "x-defaults: &d {timeout: 3}\nstop:\n  - command: \"true\"\n    x-note: hi\n", 1, nil},
		{"merge key", "x-d: &d {timeout: 3, on_error: abort}\nstop:\n  - <<: *d\n    command: \"true\"\n", 1, nil},
		{"wrong type", "stop:\n  - command: 3\n", 0, []wantDiag{{2, 14, diag.Error, CodeWrongType}}},
		{"missing command", "stop:\n  - timeout: 3\n", 0, []wantDiag{{2, 5, diag.Error, CodeMissingCommand}}},
		{"empty command", "stop:\n  - command: \"\"\n", 0, []wantDiag{{2, 5, diag.Error, CodeMissingCommand}}},
		{"llm without prompt", "stop:\n  - type: llm\n", 0, []wantDiag{{2, 5, diag.Error, CodeMissingPrompt}}},
		{"llm with command", "stop:\n  - {type: llm, prompt: p, command: x}\n", 1, []wantDiag{{2, 28, diag.Warning, CodeFieldIgnored}}},
		{"bash with prompt", "stop:\n  - {command: \"true\", prompt: p}\n", 1, []wantDiag{{2, 23, diag.Warning, CodeFieldIgnored}}},
		{"unknown type", "stop:\n  - {type: python, command: x}\n", 0, []wantDiag{{2, 12, diag.Error, CodeUnknownType}}},
		{"on_error", "stop:\n  - {command: \"true\", on_error: ignore}\n", 0, []wantDiag{{2, 33, diag.Error, CodeInvalidOnError}}},
		{"timeout zero", "stop:\n  - {command: \"true\", timeout: 0}\n", 0, []wantDiag{{2, 32, diag.Error, CodeInvalidTimeout}}},
		{"timeout text", "stop:\n  - {command: \"true\", timeout: 5s}\n", 0, []wantDiag{{2, 32, diag.Error, CodeWrongType}}},
		{"tool filter on a tool-less event", "pre_llm_request:\n  - command: \"true\"\n    filter: {tool_name: Bash}\n", 1, []wantDiag{{3, 14, diag.Warning, CodeFilterNoTool}}},
		{"model filter anywhere", "pre_llm_request:\n  - command: \"true\"\n    filter: {model_prefix: gpt}\n", 1, nil},
		{"empty matcher alternative", "pre_tool_execution:\n  - command: \"true\"\n    filter: {tool_matcher: \"Bash||Edit\"}\n", 1, []wantDiag{{3, 28, diag.Warning, CodeEmptyMatcher}}},
		{"unknown filter field", "pre_tool_execution:\n  - command: \"true\"\n    filter: {tool: Bash}\n", 1, []wantDiag{{3, 14, diag.Warning, CodeUnknownField}}},
		{"duplicate key", "stop:\n  - command: \"true\"\n    command: \"false\"\n", 0, []wantDiag{{3, 5, diag.Error, CodeDuplicateKey}}},
		{"duplicate names", "stop:\n  - {name: a, command: \"true\"}\n  - {name: a, command: \"true\"}\n", 2, []wantDiag{{3, 5, diag.Warning, CodeDuplicateName}}},
		{"empty name", "stop:\n  - {name: \"\", command: \"true\"}\n", 0, []wantDiag{{2, 12, diag.Error, CodeEmptyName}}},
		{"all problems at once", "pre_tool_exec:\n  - command: \"true\"\nstop:\n  - type: llm\n  - {command: \"true\", on_error: never}\n", 0,
			[]wantDiag{{1, 1, diag.Error, CodeUnknownEvent}, {4, 5, diag.Error, CodeMissingPrompt}, {5, 33, diag.Error, CodeInvalidOnError}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooks, ds := Parse("s/hooks/hooks.yaml", []byte(tt.yaml))
			var got []wantDiag
			for _, d := range ds {
				got = append(got, wantDiag{d.Line, d.Column, d.Severity, d.Code})
				if d.File != "s/hooks/hooks.yaml" || d.Message == "" {
					t.Errorf("diagnostic %+v", d)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("diagnostics %+v, want %+v\n%v", got, tt.want, ds)
			}
			if len(hooks) != tt.hooks {
				t.Errorf("%d hooks, want %d", len(hooks), tt.hooks)
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	hooks, ds := Parse("h.yaml", []byte(`
pre_tool_execution:
  - command: "echo hi"
  - name: reviewer
    type: llm
    prompt: "check {{tool_name}}"
    model: gpt-4.1
    timeout: 2.5
    on_error: abort
    filter: {tool_matcher: "Bash|Shell", model_prefix: gpt}
`))
	if len(ds) != 0 || len(hooks) != 2 {
		t.Fatalf("%d hooks, %v", len(hooks), ds)
	}
	a, b := hooks[0], hooks[1]
	if a.Name != "pre_tool_execution[0]" || a.Type != TypeBash || a.OnError != OnErrorSkip || a.timeout() != DefaultBashTimeout || a.Line != 3 || a.Source() != "h.yaml:3" {
		t.Errorf("first %+v", a)
	}
	if b.Name != "reviewer" || b.Type != TypeLLM || b.Model != "gpt-4.1" || b.Timeout != 2500*time.Millisecond || b.OnError != OnErrorAbort || b.Filter.ToolMatcher != "Bash|Shell" {
		t.Errorf("second %+v", b)
	}
	if !b.matches("Shell", "gpt-4o") || b.matches("Edit", "gpt-4o") || b.matches("Bash", "claude") {
		t.Error("filter")
	}
}

func TestSuggestEvent(t *testing.T) {
	_, ds := Parse("h.yaml", []byte("pre_tool_exection:\n  - command: \"true\"\n"))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, `"pre_tool_execution"`) {
		t.Errorf("%v", ds)
	}
}

func TestCommandChecks(t *testing.T) {
	root := writeTree(t, map[string]string{
		"guard/hooks/check.sh":  "echo '{}'\n",
		"guard/hooks/plain.txt": "",
		"tools/run.sh":          "echo '{}'\n",
	})
	writeFile(t, root+"/guard/hooks/noexec", "echo\n")
	tests := []struct {
		command string
		code    string
	}{
		{`echo '{}'`, ""},
		{`true`, ""},
		{`printf '%s' x`, ""},
		{`cat`, ""},
		{`sh "$JCLI_HOOK_DIR/check.sh"`, ""},
		{`sh ${JCLI_HOOK_DIR}/check.sh --flag`, ""},
		{`sh guard/hooks/check.sh`, ""},
		{`check.sh`, ""},         // the hook's folder is first on PATH
		{`./tools/run.sh`, ""},   // relative to the working directory, the root
		{`FOO=1 check.sh`, ""},   // assignments first
		{`sh -c 'anything'`, ""}, // a flag, not a script
		{`echo $(date)`, ""},     // only the shell can tell
		{`no-such-program-xyz --x`, CodeCommandMissing},
		{`./tools/missing.sh`, CodeCommandMissing},
		{`noexec`, CodeNotExecutable},
		{`./guard/hooks/plain.txt`, CodeNotExecutable},
		{`sh check.sh`, CodeScriptMissing}, // sh looks in the working directory, not the hook's folder
		{`python3 missing.py`, CodeScriptMissing},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			h := Hook{Name: "x", Type: TypeBash, Command: tt.command, File: "guard/hooks/hooks.yaml", Dir: root + "/guard/hooks"}
			hooks, _ := Parse("guard/hooks/hooks.yaml", []byte("stop:\n  - command: x\n"))
			h.cmdAt = hooks[0].cmdAt
			got := checkCommand(&h, root)
			code := ""
			if len(got) > 0 {
				code = got[0].Code
				if got[0].Line != 2 || got[0].Column != 14 {
					t.Errorf("position %d:%d", got[0].Line, got[0].Column)
				}
			}
			if code != tt.code {
				t.Errorf("code %q, want %q (%v)", code, tt.code, got)
			}
		})
	}
}
