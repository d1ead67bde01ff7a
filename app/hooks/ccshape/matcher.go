package ccshape

import (
	"regexp"
	"slices"
	"strings"
)

// Match says whether a group's matcher lets a subject through (a tool's
// name, a session's source), given the subject's other names (Qwen Code's
// Bash for run_shell_command).
type Match func(subject string, aliases ...string) bool

func all(string, ...string) bool { return true }

var (
	claudePlain = regexp.MustCompile(`^[A-Za-z0-9_\- ,|]+$`)
	codexPlain  = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)
)

// ClaudeMatcher reads a matcher as Claude Code does: "", "*": all; only
// letters, digits, "_ - space , |": exact names split on | or ,; anything
// else an unanchored regular expression ("Edit.*" also matches NotebookEdit).
func ClaudeMatcher(m string) (Match, error) {
	switch {
	case m == "" || m == "*":
		return all, nil
	case claudePlain.MatchString(m):
		var names []string
		for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if p := strings.TrimSpace(part); p != "" {
				names = append(names, p)
			}
		}
		return func(s string, _ ...string) bool { return slices.Contains(names, s) }, nil
	}
	return regexpMatch(m)
}

// CodexMatcher reads a matcher as Codex does (codex-rs/hooks
// events/common.rs): "", "*": all; only letters, digits, "_" and "|":
// exact names split on |; anything else an unanchored regular expression.
// The tool's name and its aliases are each tried.
func CodexMatcher(m string) (Match, error) {
	switch {
	case m == "" || m == "*":
		return all, nil
	case codexPlain.MatchString(m):
		names := strings.Split(m, "|")
		return func(s string, aliases ...string) bool {
			return slices.Contains(names, s) || slices.ContainsFunc(aliases, func(a string) bool { return slices.Contains(names, a) })
		}, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, err
	}
	return func(s string, aliases ...string) bool {
		return re.MatchString(s) || slices.ContainsFunc(aliases, re.MatchString)
	}, nil
}

// QwenMatcher reads a matcher as Qwen Code 0.24.4 does (hooks/hook-matcher.ts):
// trimmed; "", "*", ".*": all; the subject or one of its aliases exactly;
// a list split on | (unless it starts with ^ or a group) whose entries are
// tried exactly, then as one regular expression over the subject.
func QwenMatcher(m string) (Match, error) {
	p := strings.TrimSpace(m)
	if p == "" || p == "*" || p == ".*" {
		return all, nil
	}
	expr, entries := p, []string{p}
	if strings.Contains(p, "|") && !strings.HasPrefix(p, "^") && !strings.HasPrefix(p, "(") {
		entries = nil
		for _, e := range splitList(p) {
			if e = strings.TrimSpace(e); e != "" {
				entries = append(entries, e)
			}
		}
		if slices.Contains(entries, "*") || slices.Contains(entries, ".*") {
			return all, nil
		}
		expr = strings.Join(entries, "|")
	}
	re, err := regexp.Compile(expr)
	exact := func(s string, aliases []string) bool {
		return slices.ContainsFunc(entries, func(e string) bool { return e == s || slices.Contains(aliases, e) })
	}
	if err != nil {
		// Qwen Code logs the bad expression and matches nothing but exact names.
		return func(s string, aliases ...string) bool { return exact(s, aliases) }, err
	}
	return func(s string, aliases ...string) bool { return exact(s, aliases) || re.MatchString(s) }, nil
}

// splitList splits a matcher on the | that stand outside brackets and
// groups, as Qwen Code's splitListEntries.
func splitList(p string) []string {
	var out []string
	var cur strings.Builder
	escaped, class, depth := false, false, 0
	for _, c := range p {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth = max(0, depth-1)
		case c == '|' && depth == 0:
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(c)
	}
	return append(out, cur.String())
}

func regexpMatch(m string) (Match, error) {
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, err
	}
	return func(s string, _ ...string) bool { return re.MatchString(s) }, nil
}

// None matches nothing: a matcher the agent cannot read.
func None(string, ...string) bool { return false }
