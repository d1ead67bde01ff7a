package convert

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/hooks/shellcmd"
)

// interpreters run the script named by their first argument.
var interpreters = []string{"sh", "bash", "zsh", "dash", "python3", "python", "node", "ruby", "perl"}

// scriptsOf lists the files a command line runs that live under root:
// each program named by a path, and the script an interpreter is given.
// vars are the folders the source agent's variables stand for; a relative
// path starts at cwd. A word the shell expands at run time is left alone.
func scriptsOf(command string, args []string, root, cwd string, vars map[string]string) []Script {
	var words []shellcmd.Word
	if len(args) > 0 { // the program runs without a shell
		words = append(words, shellcmd.Word{Text: command, Sure: true})
		if w, ok := varWord(command); ok {
			words[0] = w
		}
	} else {
		cmd, err := shellcmd.Parse(command)
		if err != nil {
			return nil
		}
		for _, p := range cmd.Programs {
			if p.Builtin {
				continue
			}
			if strings.Contains(p.Text, "/") || p.Var != "" {
				words = append(words, p.Word)
				continue
			}
			if slices.Contains(interpreters, path.Base(p.Text)) && len(p.Args) > 0 && !strings.HasPrefix(p.Args[0].Text, "-") {
				words = append(words, p.Args[0])
			}
		}
	}
	var out []Script
	for _, w := range words {
		if !w.Sure {
			continue
		}
		base := cwd
		if w.Var != "" {
			dir, ok := vars[w.Var]
			if !ok {
				continue
			}
			base = dir
		}
		file := filepath.FromSlash(w.Text)
		if !filepath.IsAbs(file) {
			file = filepath.Join(base, file)
		}
		rel, err := filepath.Rel(root, file)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		s := Script{Rel: filepath.ToSlash(rel), Ref: Ref{Var: w.Var, Path: w.Text}}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// varWord reads a program path written with a variable ($X/a, ${X}/a).
func varWord(s string) (shellcmd.Word, bool) {
	cmd, err := shellcmd.Parse(s)
	if err != nil || len(cmd.Programs) != 1 {
		return shellcmd.Word{}, false
	}
	return cmd.Programs[0].Word, true
}

// refForms are the ways a command line writes a path under a variable.
func refForms(r Ref) []string {
	if r.Var == "" {
		return []string{r.Path}
	}
	v, p := r.Var, r.Path
	return []string{
		`"${` + v + `}/` + p + `"`, `"$` + v + `/` + p + `"`,
		`"${` + v + `}"/` + p, `"$` + v + `"/` + p,
		`${` + v + `}/` + p, `$` + v + `/` + p,
	}
}

// replaceRef rewrites each place command names r as to; a relative path
// only where it stands as a whole word.
func replaceRef(command string, r Ref, to string) string {
	for _, form := range refForms(r) {
		if r.Var != "" {
			command = strings.ReplaceAll(command, form, to)
			continue
		}
		command = replaceWord(command, form, to)
	}
	return command
}

// replaceWord replaces word where it is a whole shell word (between the
// start or end, blanks, quotes, ;, &, |, parentheses).
func replaceWord(s, word, to string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, word)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(word)
		if boundary(s, i-1) && boundary(s, end) {
			b.WriteString(s[:i])
			b.WriteString(to)
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

func boundary(s string, i int) bool {
	return i < 0 || i >= len(s) || strings.ContainsRune(" \t\n\"';&|()<>", rune(s[i]))
}

// quoteArg quotes an argument for sh when it needs it.
func quoteArg(a string) string {
	if a != "" && !strings.ContainsFunc(a, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r == '+' || r == '@' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}
