package claudehook

import (
	"errors"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"hookstudio/app/hooks/shellcmd"
)

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
