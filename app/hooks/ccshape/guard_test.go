package ccshape

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExit1Guard: a guard that refuses with exit 1 (which blocks nothing)
// is told in its own language — shell, Python, Node — whether the command
// runs it by path or through its interpreter, and a shell script that only
// launches another is judged by the one it launches. Error handling that
// exits 1 (a bad input, a program not installed) is no guard.
func TestExit1Guard(t *testing.T) {
	guardDialect := testDialect
	guardDialect.Guards = []string{"PreToolUse"}
	guardDialect.ProjectVars = []string{"CLAUDE_PROJECT_DIR"}
	cases := []struct {
		name    string
		files   map[string]string // under the project; .sh files are executable
		command string
		warn    bool
	}{
		{name: "shell guard", command: `"$CLAUDE_PROJECT_DIR"/g.sh`, warn: true,
			files: map[string]string{"g.sh": "#!/bin/sh\nin=$(cat)\ncase \"$in\" in\n  *rm*) echo 'rm is blocked' >&2; exit 1;;\nesac\n"}},
		{name: "shell guard that blocks with exit 2 too", command: `"$CLAUDE_PROJECT_DIR"/g.sh`,
			files: map[string]string{"g.sh": "#!/bin/sh\necho 'blocked' >&2\nexit 2\n[ -n \"$X\" ] || { echo x >&2; exit 1; }\n"}},
		{name: "inline guard", command: `echo 'no' >&2; exit 1`, warn: true},
		{name: "python guard run by python3", command: `python3 "$CLAUDE_PROJECT_DIR"/g.py`, warn: true,
			files: map[string]string{"g.py": "import json, sys\nd = json.load(sys.stdin)\nif 'rm -rf' in d['tool_input'].get('command', ''):\n    print('BLOCKED: rm -rf', file=sys.stderr)\n    sys.exit(1)\nsys.exit(0)\n"}},
		{name: "python guard by its shebang", command: `"$CLAUDE_PROJECT_DIR"/g`, warn: true,
			files: map[string]string{"g.sh": "", "g": "#!/usr/bin/env python3\nimport sys\nif True:\n    sys.stderr.write('no\\n')\n    sys.exit(1)\n"}},
		{name: "python guard run by uv", command: `uv run "$CLAUDE_PROJECT_DIR"/g.py`, warn: true,
			files: map[string]string{"g.py": "import sys\nif 1:\n    print('denied', file=sys.stderr); sys.exit(1)\n"}},
		{name: "python that exits 1 on bad JSON only", command: `python3 g.py`,
			files: map[string]string{"g.py": "import json, sys\ntry:\n    d = json.load(sys.stdin)\nexcept Exception as e:\n    print(f'bad input {e}', file=sys.stderr)\n    sys.exit(1)\nprint('ok')\n"}},
		{name: "python guard that blocks with exit 2", command: `python3 g.py`,
			files: map[string]string{"g.py": "import sys\nif 1:\n    print('no', file=sys.stderr)\n    sys.exit(2)\nif 0:\n    print('x', file=sys.stderr)\n    sys.exit(1)\n"}},
		{name: "node guard", command: `node "$CLAUDE_PROJECT_DIR"/g.js`, warn: true,
			files: map[string]string{"g.js": "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{\n  const d = JSON.parse(s);\n  if (/rm -rf/.test(d.tool_input.command)) {\n    console.error('Blocked: rm -rf');\n    process.exit(1);\n  }\n});\n"}},
		{name: "node that exits 1 in catch", command: `node g.js`,
			files: map[string]string{"g.js": "try {\n  JSON.parse(require('fs').readFileSync(0, 'utf8'));\n} catch (e) {\n  console.error('bad input');\n  process.exit(1);\n}\n"}},
		{name: "node answering with JSON", command: `node g.js`,
			files: map[string]string{"g.js": "if (x) {\n  console.log(JSON.stringify({hookSpecificOutput: {permissionDecision: 'deny'}}));\n  process.exit(0);\n}\nif (y) { console.error('oops'); process.exit(1); }\n"}},
		{name: "shell launcher of a python script that is no guard", command: `"$CLAUDE_PROJECT_DIR"/run.sh`,
			files: map[string]string{
				"run.sh": "#!/bin/bash\ncommand -v python3 >/dev/null || { echo 'python3 is required' >&2; exit 1; }\nif [ ! -f \"$HOME/x\" ]; then\n  echo 'cannot start' >&2\n  exit 1\nfi\nexec python3 \"$(dirname \"$0\")/log.py\"\n",
				"log.py": "import sys, json\njson.load(sys.stdin)\nprint('logged')\n"}},
		{name: "shell launcher of a python guard", command: `bash run.sh`, warn: true,
			files: map[string]string{
				"run.sh":   "#!/bin/bash\nexec python3 \"$CLAUDE_PROJECT_DIR/guard.py\"\n",
				"guard.py": "import sys\nif 'x':\n    print('refused', file=sys.stderr)\n    sys.exit(1)\n"}},
		{name: "interpreter on the command line, no guard", command: `python3 g.py || exit 1`,
			files: map[string]string{"g.py": "print('hi')\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, text := range tc.files {
				mode := os.FileMode(0o644)
				if filepath.Ext(rel) == ".sh" || filepath.Ext(rel) == "" {
					mode = 0o755
				}
				if err := os.WriteFile(filepath.Join(root, rel), []byte(text), mode); err != nil {
					t.Fatal(err)
				}
			}
			h := &Handler{Event: "PreToolUse", Type: "command", Command: tc.command, CmdLine: 1, CmdCol: 1}
			ds := CheckCommand(&guardDialect, "h.json", h, root, "")
			got := false
			for _, d := range ds {
				switch d.Code {
				case "test-" + Exit1Guard:
					got = true
				default:
					t.Errorf("unexpected %s: %s", d.Code, d.Message)
				}
			}
			if got != tc.warn {
				t.Errorf("exit-1 guard warning %v, want %v (%+v)", got, tc.warn, ds)
			}
		})
	}
}
