// Package shellcmd reads a hook's command line as `sh -c` will, with a real
// shell parser (mvdan.cc/sh), to tell which programs it calls — through
// pipelines, subshells, lists, background jobs, assignments, redirections,
// functions and wrappers such as `exec` or `env` — and how sure that is.
// Validators of every hook system report a missing program only where the
// parser is sure; Claude Code's Bash matchers read its simple commands.
package shellcmd

import (
	"errors"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// HookDirVars are the variables hook systems set to a folder of the hook's:
// a path starting with one is resolved against that folder, not guessed.
var HookDirVars = []string{"JCLI_HOOK_DIR", "JCLI_CWD", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PROJECT_DIR", "QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR", "GEMINI_CWD"}

// Word is one word of a command as the shell will see it.
type Word struct {
	// Text is the word without its quotes; for a path under a hook-dir
	// variable, the rest of the path after "$VAR/".
	Text string `json:"text"`
	// Var is the hook-dir variable the path starts with ("" none).
	Var string `json:"var,omitempty"`
	// Sure is false when the word comes from an expansion the shell does
	// at run time ($X, $(...), globs): its value cannot be known here.
	Sure bool `json:"sure"`
	Line int  `json:"line"` // 1-based, in the command text
	Col  int  `json:"col"`
}

// Program is a program a command runs, with the literal words after it.
type Program struct {
	Word
	// Builtin is a shell builtin or a function the command defines:
	// nothing to find on PATH.
	Builtin bool   `json:"builtin,omitempty"`
	Args    []Word `json:"args,omitempty"`
}

// Command is what a command line runs.
type Command struct {
	Programs []Program `json:"programs"`
	// Subcommands are the simple commands' texts, in order ("git status &&
	// rm -rf x" has two), as Claude Code's Bash rules match them.
	Subcommands []string `json:"subcommands"`
}

// ParseError is a command line sh would refuse, with where.
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string { return e.Msg }

// builtins are the shell's own commands: nothing on PATH to find.
var builtins = []string{"echo", "printf", "true", "false", ":", ".", "source", "exit", "return", "cd", "test", "[",
	"export", "set", "unset", "read", "eval", "shift", "trap", "wait", "local", "umask", "ulimit", "alias",
	"unalias", "type", "hash", "getopts", "readonly", "times", "break", "continue", "let", "declare", "jobs", "fg", "bg", "kill", "pwd",
	"exec", "command", "builtin", "time"}

// wrappers run the program that follows them (after their own options).
var wrappers = map[string]func(args []*syntax.Word) int{
	"exec":    skipFlags,
	"command": skipFlags,
	"builtin": skipFlags,
	"nohup":   skipFlags,
	"time":    skipFlags,
	"xargs":   skipFlags,
	"sudo":    skipFlags,
	"stdbuf":  skipFlags,
	"env": func(args []*syntax.Word) int {
		i := 0
		for i < len(args) && (strings.HasPrefix(args[i].Lit(), "-") || strings.Contains(args[i].Lit(), "=")) {
			i++
		}
		return i
	},
	"nice":    skipFlagsAndValue("-n"),
	"ionice":  skipFlagsAndValue("-c", "-n"),
	"timeout": func(args []*syntax.Word) int { return skipFlagsAndValue("-s", "-k")(args) + 1 }, // then the duration
}

func skipFlags(args []*syntax.Word) int {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Lit(), "-") {
		i++
	}
	return i
}

func skipFlagsAndValue(withValue ...string) func([]*syntax.Word) int {
	return func(args []*syntax.Word) int {
		i := 0
		for i < len(args) && strings.HasPrefix(args[i].Lit(), "-") {
			if slices.Contains(withValue, args[i].Lit()) {
				i++
			}
			i++
		}
		return i
	}
}

// Parse reads cmd as `sh -c` does (POSIX shell, as /bin/sh runs it; bash
// syntax is accepted too). A command sh cannot read is a *ParseError.
func Parse(cmd string) (*Command, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, &ParseError{Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col()), Msg: pe.Text}
		}
		return nil, &ParseError{Line: 1, Col: 1, Msg: err.Error()}
	}
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			funcs[fd.Name.Value] = true
		}
		return true
	})
	out := &Command{Programs: []Program{}, Subcommands: []string{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		out.Subcommands = append(out.Subcommands, cmd[call.Pos().Offset():call.End().Offset()])
		args := call.Args
		for len(args) > 0 {
			p := Program{Word: word(args[0])}
			p.Builtin = p.Sure && p.Var == "" && (slices.Contains(builtins, p.Text) || funcs[p.Text])
			for _, a := range args[1:] {
				p.Args = append(p.Args, word(a))
			}
			out.Programs = append(out.Programs, p)
			skip, wraps := wrappers[p.Text]
			if !wraps || !p.Sure {
				break
			}
			args = args[1:]
			args = args[min(skip(args), len(args)):]
		}
		return true // command substitutions inside it run programs too
	})
	return out, nil
}

// word reads a word: literal parts joined, a hook-dir variable at its start
// kept, anything the shell expands at run time making it unsure.
func word(w *syntax.Word) Word {
	out := Word{Sure: true, Line: int(w.Pos().Line()), Col: int(w.Pos().Col())}
	var b strings.Builder
	parts := flatten(w.Parts)
	for i, part := range parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if isGlob(x.Value) {
				out.Sure = false
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.ParamExp:
			name := ""
			if x.Param != nil {
				name = x.Param.Value
			}
			if i == 0 && slices.Contains(HookDirVars, name) && x.Exp == nil && x.Repl == nil && !x.Length && x.Index == nil && x.Slice == nil {
				out.Var = name
				continue
			}
			out.Sure = false
			b.WriteString("$" + name)
		default:
			out.Sure = false
			b.WriteString("…")
		}
	}
	out.Text = b.String()
	if out.Var != "" {
		out.Text = strings.TrimPrefix(out.Text, "/")
	}
	return out
}

// flatten opens double quotes: "$JCLI_HOOK_DIR/x.sh" is the variable and a literal.
func flatten(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for _, p := range parts {
		if dq, ok := p.(*syntax.DblQuoted); ok {
			out = append(out, flatten(dq.Parts)...)
			continue
		}
		out = append(out, p)
	}
	return out
}

// isGlob is a pattern the shell expands to file names ("[" alone is test).
func isGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}
