package claudehook

import "testing"

// TestFrontmatterAsClaudeCodeReadsIt: each description is what the real
// CLIs (2.1.197 and 2.1.332) listed to the model for a skill whose
// frontmatter has that line — strict YAML where it parses, else the line
// quoted as Claude Code retries it, else no frontmatter at all ("").
func TestFrontmatterAsClaudeCodeReadsIt(t *testing.T) {
	cases := []struct {
		line, want string
		quoted     bool
	}{
		{"description: Show the board: the files and what changed", "Show the board: the files and what changed", true},
		{"description: Use # to comment", "Use", false},
		{"description: [draft] a thing", "[draft] a thing", true},
		{"description: {x} thing", "{x} thing", true},
		{"description: *star thing", "*star thing", true},
		{"description: @at thing", "@at thing", true},
		{`description: "quoted: ok"`, "quoted: ok", false},
		{"description: it's a 'thing': yes", "it's a 'thing': yes", true},
		{"description: a: b # comment", "a: b # comment", true},
		{"description: first line\n  continued: here", "", false},
		{`description: text "with quotes": more`, `text "with quotes": more`, true},
		{"description: a:b no space", "a:b no space", false},
		{"description: trailing colon:", "", false},
		{"description: key: val: deeper: x", "key: val: deeper: x", true},
		{"description: `backtick: x`", "`backtick: x`", true},
		{"description: ok\nother: k: v", "ok", true},
		{"description: tab\tinside: x", "tab\tinside: x", true},
		{"description: |\n  literal: block\n  second: line", "literal: block\nsecond: line\n", false},
		{"description: - dash: x", "- dash: x", true},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			fm := readFrontmatter([]byte("---\nname: s\n" + tc.line + "\n---\nBody.\n"))
			got := ""
			if fm.doc != nil {
				var v struct {
					Description string `yaml:"description"`
				}
				if err := fm.doc.Decode(&v); err != nil {
					t.Fatal(err)
				}
				got = v.Description
			}
			if got != tc.want || (len(fm.quoted) > 0) != tc.quoted {
				t.Errorf("description %q (quoted %v), Claude Code reads %q (quoted %v)", got, fm.quoted, tc.want, tc.quoted)
			}
			if tc.want == "" && (fm.err == nil || fm.errLine < 2) {
				t.Errorf("a frontmatter Claude Code reads as empty: error %v at line %d", fm.err, fm.errLine)
			}
		})
	}
}

// TestSkillFrontmatterLenient: a SKILL.md whose frontmatter only Claude
// Code's quoting makes YAML loads its hooks, with a warning on the quoted
// line; one that stays unreadable has no hooks and an error where YAML
// fails (a warning when it declares none); neither stops a run.
func TestSkillFrontmatterLenient(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".claude/skills/board/SKILL.md", `---
name: board
description: Show the board: the files and what changed
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: "true"
---
Body.
`, 0o644)
	write(t, root, ".claude/skills/broken/SKILL.md", `---
name: broken
description: fine
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: echo broken: here
---
Body.
`, 0o644)
	write(t, root, ".claude/skills/plain/SKILL.md", "---\nname: plain\ndescription: ends with a colon:\n---\nBody.\n", 0o644)
	cfg, err := Load(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type at struct {
		code, sev string
		line      int
	}
	got := map[string]at{}
	for _, d := range cfg.Diagnostics {
		got[d.File] = at{d.Code, string(d.Severity), d.Line}
	}
	want := map[string]at{
		".claude/skills/board/SKILL.md":  {CodeLenientYAML, "warning", 3},
		".claude/skills/broken/SKILL.md": {CodeSyntax, "error", 9},
		".claude/skills/plain/SKILL.md":  {CodeSyntax, "warning", 3},
	}
	for f, w := range want {
		if got[f] != w {
			t.Errorf("%s: %+v, want %+v (all %+v)", f, got[f], w, cfg.Diagnostics)
		}
	}
	if len(cfg.Hooks) != 1 || cfg.Hooks[0].UsedSkill != "board" || cfg.Hooks[0].Line != 8 {
		t.Errorf("hooks %+v", cfg.Hooks)
	}
	if len(cfg.Skills) != 3 {
		t.Errorf("skills %v: Claude Code loads all three", cfg.Skills)
	}
}
