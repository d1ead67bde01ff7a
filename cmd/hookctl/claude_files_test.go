package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/capture"
)

// claudeFiles is a project with the hook files public collections write
// that Hook Studio read wrong: SKILL.md frontmatter only Claude Code's
// quoting makes YAML (and one that stays unreadable), handlers with
// asyncRewake and its messages, a Python guard that blocks with
// sys.exit(1), a shell launcher that exits 1 only when python3 is missing.
var claudeFiles = map[string]string{
	".claude/skills/board/SKILL.md": `---
name: board
description: Show the board: the files and what changed
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: touch "$CLAUDE_PROJECT_DIR/board-hook-ran"
---
Show the board.
`,
	".claude/skills/broken/SKILL.md": `---
name: broken
description: A skill whose hooks never load.
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: touch "$CLAUDE_PROJECT_DIR/broken-hook-ran" && echo note: ran
---
Broken.
`,
	".claude/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py"},
  {"type": "command", "asyncRewake": true, "rewakeMessage": "woken by", "rewakeSummary": "rewake", "command": "touch \"$CLAUDE_PROJECT_DIR/rewake-ran\""},
  {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/run.sh"}
]}]}}
`,
	".claude/hooks/guard.py": `import json
import sys

call = json.load(sys.stdin)
if "rm -rf" in call["tool_input"].get("command", ""):
    print("BLOCKED: rm -rf is not allowed here", file=sys.stderr)
    sys.exit(1)
`,
	".claude/hooks/run.sh": `#!/bin/sh
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 1; }
exec python3 "$(dirname "$0")/log.py"
`,
	".claude/hooks/log.py": `import os
open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "launcher-ran"), "w").close()
`,
	"build/out.txt": "built\n",
}

// TestRealAgentClaudeCodeFiles: each pinned CLI runs claudeFiles as
// validate tells: the skill whose description needs Claude Code's quoting
// loads with its hooks, the one whose frontmatter stays unreadable without
// them; the asyncRewake handler runs (its fields are Claude Code's); the
// Python guard's sys.exit(1) blocks nothing (rm -rf ran) — and validate
// warns of that guard only, not of the launcher, and of no unknown field.
func TestRealAgentClaudeCodeFiles(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, claudeFiles)
	if err := os.Chmod(filepath.Join(src, ".claude", "hooks", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("validate", func(t *testing.T) {
		stdout, stderr, code := runCLI(t, "validate", "--json", src)
		if code != exitProblems {
			t.Fatalf("validate: exit %d, want %d (the unreadable frontmatter loses hooks)\n%s%s", code, exitProblems, stdout, stderr)
		}
		var doc struct{ Diagnostics []jsonDiag }
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range doc.Diagnostics {
			got = append(got, d.Code+"@"+d.File+":"+itoa(d.Line)+" "+d.Severity)
		}
		want := []string{
			"claude-exit1-guard@.claude/settings.json:2 warning",
			"claude-lenient-yaml@.claude/skills/board/SKILL.md:3 warning",
			"claude-syntax@.claude/skills/broken/SKILL.md:9 error",
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("diagnostics\n got %q\nwant %q", got, want)
		}
	})
	for _, cli := range pinnedClaude {
		t.Run(cli.version, func(t *testing.T) {
			claude := agentTool(t, cli.rel)
			t.Parallel()
			proj := copyProject(t, src)
			answers := []capture.Answer{
				{ToolCalls: []capture.ToolCall{{Name: "Skill", Arguments: json.RawMessage(`{"skill":"board"}`)}}},
				{ToolCalls: []capture.ToolCall{{Name: "Skill", Arguments: json.RawMessage(`{"skill":"broken"}`)}}},
				{ToolCalls: []capture.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command":"rm -rf build","description":"clean"}`)}}},
				{Content: "Cleaned."},
			}
			srv, err := capture.Listen(capture.Options{Answerer: scripted(answers)})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			home := filepath.Join(t.TempDir(), "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			runClaude(t, claude, proj, home, srv.URL(), "sk-ant-test", "-p", "clean the build", "--allowedTools", "Skill Bash")
			_ = srv.Close()
			if n := len(srv.Calls()); n != len(answers) {
				t.Fatalf("%d model calls, %d scripted", n, len(answers))
			}
			for file, ran := range map[string]bool{"board-hook-ran": true, "broken-hook-ran": false, "rewake-ran": true, "launcher-ran": true} {
				if _, err := os.Stat(filepath.Join(proj, file)); (err == nil) != ran {
					t.Errorf("%s: %v, want it written %v", file, err, ran)
				}
			}
			if _, err := os.Stat(filepath.Join(proj, "build")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("build/ is still there (%v): the guard's sys.exit(1) blocked rm -rf", err)
			}
		})
	}
}
