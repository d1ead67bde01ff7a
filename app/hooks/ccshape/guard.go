package ccshape

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/hooks/hookout"
	"hookstudio/app/hooks/shellcmd"
)

// A guard refuses an action: it prints why and exits. These agents block
// only on exit 2 (or an answer in JSON); exit 1 is a non-blocking error,
// after which the action goes on. A guard is read in its own language —
// a shell script, Python, JavaScript — and a script that only launches
// another (a shell line that runs python3 on a .py) is judged by the
// script it launches: its own exit 1 is about the launch (python3 is not
// installed), not a refusal.

// lang is a script's language.
type lang int

const (
	langUnknown lang = iota
	langShell
	langPython
	langJS
)

// interpreters maps a program's name to the language it runs.
var interpreters = map[string]lang{
	"sh": langShell, "bash": langShell, "zsh": langShell, "dash": langShell,
	"python": langPython, "python3": langPython, "uv": langPython,
	"node": langJS, "bun": langJS, "deno": langJS, "tsx": langJS, "ts-node": langJS,
}

// interpreterOf is the language p's program runs the file its argument i
// names in (shellcmd.ScriptArg), and i: -1 when it runs no file.
func interpreterOf(p shellcmd.Program) (lang, int) {
	i, _ := shellcmd.ScriptArg(p)
	if i < 0 {
		return langUnknown, -1
	}
	return interpreters[filepath.Base(p.Text)], i
}

var shebangRe = regexp.MustCompile(`\A#!\s*(\S+)(?:\s+(?:-S\s+)?(\S+))?`)

// langOf is a script's language: the interpreter that runs it (given),
// else its shebang's, else its file name's.
func langOf(file, text string, given lang) lang {
	if given != langUnknown {
		return given
	}
	if m := shebangRe.FindStringSubmatch(text); m != nil {
		prog := filepath.Base(m[1])
		if prog == "env" && m[2] != "" {
			prog = filepath.Base(m[2])
		}
		if l, ok := interpreters[prog]; ok {
			return l
		}
	}
	switch strings.ToLower(filepath.Ext(file)) {
	case ".sh", ".bash":
		return langShell
	case ".py":
		return langPython
	case ".js", ".mjs", ".cjs", ".ts", ".mts":
		return langJS
	}
	return langUnknown
}

// Per language: how a script blocks in a way that blocks, how it exits 1,
// how it prints a refusal, and a block that handles an error.
var (
	shellBlocks  = regexp.MustCompile(`\bexit\s+2\b|permissionDecision|"decision"|\\"decision\\"`)
	shellExit1   = regexp.MustCompile(`\bexit\s+1\b`)
	shellPrints  = regexp.MustCompile(`\becho\b|\bprintf\b|>&2|>\s*/dev/stderr|\bcat\s*<<`)
	shellChecks  = regexp.MustCompile(`\bcommand\s+-v\b|\bwhich\s|\btype\s+-[pP]\b|\bhash\s`)
	pyBlocks     = regexp.MustCompile(`\b(?:exit|_exit|SystemExit)\(\s*2\s*\)|permissionDecision|["']decision["']`)
	pyExit1      = regexp.MustCompile(`\b(?:exit|_exit|SystemExit)\(\s*1\s*\)`)
	pyPrints     = regexp.MustCompile(`\bprint\(|\bsys\.std(?:err|out)\.write\(`)
	pyHandler    = regexp.MustCompile(`^\s*(?:except\b|finally\s*:)`)
	jsBlocks     = regexp.MustCompile(`\bprocess\.exit\(\s*2\s*\)|\bprocess\.exitCode\s*=\s*2\b|permissionDecision|["']decision["']|\bdecision\s*:`)
	jsExit1      = regexp.MustCompile(`\bprocess\.exit\(\s*1\s*\)|\bprocess\.exitCode\s*=\s*1\b`)
	jsPrints     = regexp.MustCompile(`\bconsole\.(?:error|log|warn)\(|\bprocess\.std(?:err|out)\.write\(`)
	jsHandler    = regexp.MustCompile(`\bcatch\b|\.on\(\s*["'](?:error|uncaughtException)["']`)
	notARefusal  = regexp.MustCompile(`(?i)not found|not installed|is required|requires |missing|usage:|cannot parse|invalid json|failed to`)
	launchedFile = regexp.MustCompile(`\.(?:py|js|mjs|cjs|ts|mts)$`)
)

// exit1Refusal says whether text, a script in language l, refuses with
// exit 1 — prints, then exits 1, outside a block that handles an error or
// checks that a program is installed — and never blocks in a way that
// does.
func exit1Refusal(l lang, text string) bool {
	switch l {
	case langShell:
		text = hookout.Uncommented(text)
		return !shellBlocks.MatchString(text) && shellRefusal(text)
	case langPython:
		return !pyBlocks.MatchString(text) && pyRefusal(text)
	case langJS:
		return !jsBlocks.MatchString(text) && jsRefusal(text)
	}
	return false
}

// shellRefusal: an exit 1 whose statement, or one of the two lines before
// it, prints — and that checks no program is installed.
func shellRefusal(text string) bool {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		for _, loc := range shellExit1.FindAllStringIndex(l, -1) {
			window := l[:loc[0]]
			if !strings.ContainsAny(strings.TrimSpace(window), ";&|{") || strings.TrimSpace(window) == "" {
				window = strings.Join(lines[max(0, i-2):i], "\n") + "\n" + window
			}
			if shellPrints.MatchString(window) && !shellChecks.MatchString(window) && !notARefusal.MatchString(window) {
				return true
			}
		}
	}
	return false
}

// pyRefusal: an exit(1) after a print in its own block (by indentation),
// the block not an except handler.
func pyRefusal(text string) bool {
	lines := strings.Split(text, "\n")
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }
	for i, l := range lines {
		loc := pyExit1.FindStringIndex(l)
		if loc == nil || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		block := []string{l[:loc[0]]}
		header := ""
		for j := i - 1; j >= 0 && len(block) < 8; j-- {
			s := strings.TrimSpace(lines[j])
			if s == "" || strings.HasPrefix(s, "#") {
				continue
			}
			if indent(lines[j]) < indent(l) {
				header = lines[j]
				break
			}
			block = append(block, lines[j])
		}
		body := strings.Join(block, "\n")
		if pyPrints.MatchString(body) && !pyHandler.MatchString(header) && !notARefusal.MatchString(body) {
			return true
		}
	}
	return false
}

// jsRefusal: a process.exit(1) after a print in its own { } block, the
// block not a catch.
func jsRefusal(text string) bool {
	for _, loc := range jsExit1.FindAllStringIndex(text, -1) {
		open := enclosingBrace(text, loc[0])
		body, header := text[max(0, loc[0]-300):loc[0]], ""
		if open >= 0 {
			body = text[open+1 : loc[0]]
			start := strings.LastIndexAny(text[:open], ";}\n") + 1
			header = text[start : open+1]
		}
		if jsPrints.MatchString(body) && !jsHandler.MatchString(header) && !notARefusal.MatchString(body) {
			return true
		}
	}
	return false
}

// enclosingBrace is the offset of the { that opens the block holding
// offset at, or -1 (quotes are not read: a brace in a string is rare in a
// guard's refusal).
func enclosingBrace(text string, at int) int {
	depth := 0
	for i := at - 1; i >= 0; i-- {
		switch text[i] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// launched is the script a shell script runs with an interpreter (python3
// guard.py, node "$(dirname "$0")/guard.js"), resolved against the
// launcher's folder, the project and the plugin, and its language; "" when
// it launches none or the file cannot be found.
func launched(d *Dialect, text, dir, root, plugin string) (string, lang) {
	cmd, err := shellcmd.Parse(text)
	if err != nil {
		return "", langUnknown
	}
	for _, p := range cmd.Programs {
		l, i := interpreterOf(p)
		if i < 0 || l == langShell {
			continue
		}
		w := p.Args[i]
		var candidates []string
		switch {
		case w.Var != "" && slices.Contains(d.ProjectVars, w.Var):
			candidates = append(candidates, filepath.Join(root, w.Text))
		case w.Var != "" && w.Var == d.PluginVar && plugin != "":
			candidates = append(candidates, filepath.Join(plugin, w.Text))
		case w.Sure && filepath.IsAbs(w.Text):
			candidates = append(candidates, w.Text)
		case w.Sure:
			candidates = append(candidates, filepath.Join(root, w.Text), filepath.Join(dir, w.Text))
		}
		// "$(dirname "$0")/guard.py", "$HERE/guard.py": the file beside the launcher
		if base := path.Base(w.Text); launchedFile.MatchString(base) {
			candidates = append(candidates, filepath.Join(dir, base))
		}
		for _, c := range candidates {
			if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
				return c, l
			}
		}
	}
	return "", langUnknown
}
