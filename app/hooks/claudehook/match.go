package claudehook

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/shellcmd"
)

var plainMatcher = regexp.MustCompile(`^[A-Za-z0-9_\- ,|]+$`)

// matcher says which names a group's matcher lets through.
type matcher func(name string) bool

// compileMatcher reads a matcher as Claude Code does: "", "*": all; only
// letters, digits, "_ - space , |": exact names; anything else an
// unanchored regular expression ("Edit.*" also matches NotebookEdit).
func compileMatcher(m string) (matcher, error) {
	switch {
	case m == "" || m == "*":
		return func(string) bool { return true }, nil
	case plainMatcher.MatchString(m):
		var names []string
		for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if p := strings.TrimSpace(part); p != "" {
				names = append(names, p)
			}
		}
		return func(n string) bool { return contains(names, n) }, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

// rule is a permission rule of an `if`: Tool or Tool(pattern).
type rule struct {
	tool, pattern string
}

var ruleRe = regexp.MustCompile(`^([A-Za-z0-9_*.\-]+)(?:\((.*)\))?$`)

func parseRule(s string) (rule, error) {
	m := ruleRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return rule{}, errors.New("a rule is a tool name with an optional pattern, such as Bash(git *) or Edit(*.ts)")
	}
	return rule{tool: m[1], pattern: m[2]}, nil
}

// ruleMatches evaluates a handler's `if` on a tool call. For Bash every
// simple command of the line is checked (leading VAR= left out, $() and
// backticks looked into); a line the parser cannot read runs the hook.
func ruleMatches(r rule, tool string, input map[string]any) bool {
	if r.tool != tool && !(strings.Contains(r.tool, "*") && globMatch(r.tool, tool)) {
		return false
	}
	if r.pattern == "" || r.pattern == "*" {
		return true
	}
	str := func(k string) string { s, _ := input[k].(string); return s }
	switch tool {
	case "Bash":
		cmd, err := shellcmd.Parse(str("command"))
		if err != nil {
			return true
		}
		for _, sub := range cmd.Subcommands {
			if bashRule(r.pattern, stripAssignments(sub)) {
				return true
			}
		}
		return false
	case "WebFetch":
		if d, ok := strings.CutPrefix(r.pattern, "domain:"); ok {
			u, err := url.Parse(str("url"))
			return err == nil && (u.Hostname() == d || strings.HasSuffix(u.Hostname(), "."+d))
		}
	}
	for _, k := range []string{"file_path", "path", "notebook_path", "pattern", "url", "query"} {
		if v := str(k); v != "" {
			return pathRule(r.pattern, v)
		}
	}
	return false
}

// bashRule matches a subcommand against "git *" (a glob over the whole
// line) or the older prefix form "git:*".
func bashRule(pattern, cmd string) bool {
	if p, ok := strings.CutSuffix(pattern, ":*"); ok {
		return cmd == p || strings.HasPrefix(cmd, p+" ")
	}
	if p, ok := strings.CutSuffix(pattern, " *"); ok && cmd == p {
		return true // "git *" also matches a bare "git"
	}
	return globMatch(pattern, cmd)
}

// globMatch is a glob where * matches any run of characters, / included.
func globMatch(pattern, s string) bool {
	var b strings.Builder
	b.WriteString("^")
	for _, part := range strings.Split(pattern, "*") {
		b.WriteString(regexp.QuoteMeta(part))
		b.WriteString(".*")
	}
	re, err := regexp.Compile(strings.TrimSuffix(b.String(), ".*") + "$")
	return err == nil && re.MatchString(s)
}

// pathRule matches a file rule: "*.ts" on the base name, "src/**" or
// "/abs/path" on the path.
func pathRule(pattern, p string) bool {
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(filepath.ToSlash(p)))
		return ok || globMatch(pattern, p)
	}
	pattern = strings.TrimPrefix(pattern, "./")
	return globMatch(strings.ReplaceAll(pattern, "**", "*"), strings.TrimPrefix(filepath.ToSlash(p), "./")) ||
		strings.HasSuffix(filepath.ToSlash(p), "/"+strings.TrimPrefix(pattern, "/")) && !strings.Contains(pattern, "*")
}

var assignRe = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+`)

func stripAssignments(cmd string) string {
	return assignRe.ReplaceAllString(strings.TrimSpace(cmd), "")
}

// checkHandler reports what makes a handler misbehave silently: a script
// that is not there (Claude Code reads exit 127 as a non-blocking error,
// so the policy is simply off), a guard that blocks with exit 1 (which
// does not block), a line sh cannot read.
func checkHandler(h *Hook, root string) []diag.Diagnostic {
	if h.Type != TypeCommand {
		return nil
	}
	var out []diag.Diagnostic
	d := func(sev diag.Severity, code, format string, args ...any) {
		out = append(out, diag.Diagnostic{File: h.File, Line: h.cmdLine, Column: h.cmdCol, Severity: sev, Code: code,
			Message: fmt.Sprintf(format, args...)})
	}
	resolve := func(w shellcmd.Word) (string, bool) {
		switch {
		case !w.Sure:
			return "", false
		case w.Var == "CLAUDE_PROJECT_DIR":
			return filepath.Join(root, w.Text), true
		case w.Var == "CLAUDE_PLUGIN_ROOT":
			if h.Plugin == "" {
				return "", false
			}
			return filepath.Join(h.Plugin, w.Text), true
		case w.Var != "":
			return "", false
		case strings.HasPrefix(w.Text, "~/"):
			home, err := os.UserHomeDir()
			return filepath.Join(home, w.Text[2:]), err == nil
		}
		return w.Text, true
	}
	var progs []shellcmd.Program
	if len(h.Args) > 0 {
		progs = []shellcmd.Program{{Word: shellcmd.Word{Text: h.Command, Sure: true}}}
	} else {
		cmd, err := shellcmd.Parse(h.Command)
		var pe *shellcmd.ParseError
		if errors.As(err, &pe) {
			d(diag.Error, CodeShellSyntax, "sh -c cannot read this command (at %d:%d of it: %s): Claude Code would report a non-blocking error and go on without the hook", pe.Line, pe.Col, pe.Msg)
			return out
		}
		progs = cmd.Programs
	}
	missing := func(p string) {
		d(diag.Error, CodeMissingScript, "%q does not exist: Claude Code runs the line, sh exits 127, and Claude Code treats that as a non-blocking error, so this %s hook silently does nothing; fix the path (relative paths start at the project folder; use \"$CLAUDE_PROJECT_DIR\"/… or ${CLAUDE_PLUGIN_ROOT}/…)", p, h.Event)
	}
	for _, p := range progs {
		prog, ok := resolve(p.Word)
		if !ok || p.Builtin {
			continue
		}
		if strings.Contains(prog, "/") {
			file := prog
			if !filepath.IsAbs(file) {
				file = filepath.Join(root, file)
			}
			fi, err := os.Stat(file)
			if err != nil {
				missing(prog)
				continue
			}
			if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
				d(diag.Error, CodeNotExecutable, "%q is not executable: sh exits 126, a non-blocking error, so this %s hook silently does nothing; chmod +x it or run it as sh %s", prog, h.Event, prog)
				continue
			}
			checkGuard(h, file, d)
			continue
		}
		if interp := filepath.Base(prog); (interp == "sh" || interp == "bash" || interp == "python3" || interp == "python" || interp == "node") &&
			len(p.Args) > 0 && !strings.HasPrefix(p.Args[0].Text, "-") {
			if script, ok := resolve(p.Args[0]); ok {
				file := script
				if !filepath.IsAbs(file) {
					file = filepath.Join(root, file)
				}
				if _, err := os.Stat(file); err != nil {
					missing(script)
				} else {
					checkGuard(h, file, d)
				}
			}
		}
	}
	if len(h.Args) == 0 && (h.Event == PreToolUse || h.Event == UserPromptSubmit || h.Event == Stop) && exit1Guard.MatchString(h.Command) {
		d(diag.Warning, CodeExit1Guard, "this %s hook reads as a guard but ends with exit 1, which does not block in Claude Code (only exit 2 does, or JSON such as permissionDecision: deny): the action goes on", h.Event)
	}
	return out
}

// exit1Guard: a line or script that prints a refusal and exits 1.
var exit1Guard = regexp.MustCompile(`(?s)(>&2|echo|printf).*\bexit\s+1\b`)

// checkGuard warns when a hook's script reads as a guard but blocks with
// exit 1 and never exit 2.
func checkGuard(h *Hook, file string, d func(diag.Severity, string, string, ...any)) {
	if h.Event != PreToolUse && h.Event != UserPromptSubmit && h.Event != Stop {
		return
	}
	data, err := os.ReadFile(file)
	if err != nil || len(data) > 256<<10 {
		return
	}
	text := string(data)
	if exit1Guard.MatchString(text) && !regexp.MustCompile(`\bexit\s+2\b|permissionDecision|"decision"`).MatchString(text) {
		d(diag.Warning, CodeExit1Guard, "%s reads as a guard but blocks with exit 1, which does not block in Claude Code (only exit 2 does, or JSON such as permissionDecision: deny): the action goes on", filepath.Base(file))
	}
}
