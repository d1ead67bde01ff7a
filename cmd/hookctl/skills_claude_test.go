package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes rel → text under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		writeFileT(t, filepath.Join(root, filepath.FromSlash(rel)), text)
	}
}

// Issue 25: enabled_skills names a Claude Code skill (.claude/skills/guard)
// at the scenario and the request level. validate and test accept it; the
// skill's frontmatter hook runs once the model used the skill, while the
// skill is enabled (not in the request that enables none).
func TestEnabledClaudeCodeSkill(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".claude/skills/guard/SKILL.md": `---
name: guard
description: Guard shell commands.
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "printf '%s\\n' '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"additionalContext\": \"GUARD-CONTEXT\"}}'"
---
Guard the shell.
`,
		".hookstudio/scenarios/guard.yaml": `name: guard
enabled_skills: [guard]
tools:
  - {name: Bash, description: Run a command., parameters: {type: object, properties: {command: {type: string}}}}
  - {name: Skill, description: Use a skill., parameters: {type: object, properties: {skill: {type: string}}}}
requests:
  - user: one
    enabled_skills: [guard]
    rounds:
      - tool_calls: [{name: Skill, arguments: {skill: guard}, result: "Launching skill: guard"}]
      - tool_calls: [{name: Bash, arguments: {command: ls}, result: "a b"}]
      - content: done
  - user: two
    enabled_skills: []
    rounds:
      - tool_calls: [{name: Bash, arguments: {command: ls}, result: "a b"}]
      - content: done
expect:
  - {event: {name: before_tool, system: claude-code, count: 1}}
`,
		"src/main.go": "package main\n",
	})
	if stdout, stderr, code := runCLI(t, "validate", root); code != exitOK {
		t.Fatalf("validate: exit %d\n%s%s", code, stdout, stderr)
	}
	if stdout, stderr, code := runCLI(t, "test", "--trust", root); code != exitOK {
		t.Fatalf("test: exit %d\n%s%s", code, stdout, stderr)
	}

	// A name the root has something of, which is not a skill, is an error
	// at its position (the reason is in the message).
	writeFiles(t, root, map[string]string{".hookstudio/scenarios/bad.yaml": "name: bad\nenabled_skills: [guard, src]\nrequests:\n  - user: hi\n    reply: hello\n"})
	stdout, stderr, code := runCLI(t, "validate", root, "--json")
	if code != exitProblems {
		t.Fatalf("validate: exit %d, want %d\n%s%s", code, exitProblems, stdout, stderr)
	}
	var doc struct{ Diagnostics []jsonDiag }
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(doc.Diagnostics, func(d jsonDiag) bool { return d.Severity == "error" })
	if i < 0 || doc.Diagnostics[i].Code != "unknown-skill" || doc.Diagnostics[i].File != ".hookstudio/scenarios/bad.yaml" ||
		doc.Diagnostics[i].Line != 2 || doc.Diagnostics[i].Column != 25 {
		t.Errorf("diagnostics %+v: want unknown-skill at bad.yaml:2:25", doc.Diagnostics)
	}
}

// TestSimulateAgentTools: a scenario played under Claude Code that calls
// a tool the CLI does not have is not simulated; the diagnostic is at the
// call's name and lists the CLI's tools.
func TestSimulateAgentTools(t *testing.T) {
	proj := copyProject(t, filepath.Join("testdata", "claude-conformance", "stop"))
	sc := filepath.Join(proj, ".hookstudio", "scenarios", "case.yaml")
	data, err := os.ReadFile(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sc, []byte(strings.Replace(string(data), "{name: Bash, arguments: {command: \"echo a\"", "{name: Shell, arguments: {command: \"echo a\"", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "simulate", "--skills", proj, "--trust", "--no-history", "--json", "--agent", "claude-code@2.1.332", sc)
	if code != exitProblems {
		t.Fatalf("exit %d: %s", code, out)
	}
	var doc struct{ Diagnostics []jsonDiag }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range doc.Diagnostics {
		if d.Code == "agent-tool" && d.Severity == "error" && strings.Contains(d.Message, "Bash, Edit") && d.Line > 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no agent-tool error naming the CLI's tools: %+v", doc.Diagnostics)
	}
}
