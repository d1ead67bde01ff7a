package cmdhook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/shellcmd"
)

// ProjectFile is the project-level hooks.yaml, relative to the skills root.
const ProjectFile = ".jcli/hooks.yaml"

// Config is every hooks.yaml under a skills root plus the user's file:
// the hooks in chain order (user → project → skills in folder byte order,
// each file in its own order) and every problem found in them.
type Config struct {
	Root        string            `json:"root"`
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	// Files lists the hooks.yaml files read, in chain order.
	Files []string `json:"files"`

	fingerprint string
}

// LoadOptions says where the hooks are besides the skills root.
type LoadOptions struct {
	// UserFile is the user-level hooks.yaml (the app's settings); "" none.
	UserFile string
	// Drafts are unsaved editor texts by path relative to the root
	// ("guard-rails/hooks/hooks.yaml"), read instead of the file.
	Drafts map[string][]byte
	// UserDir is jcli's user data folder (~/.jdata/agent), whose
	// hooks/<name>/HOOK.yaml are user-level hooks; "" is UserFile's folder
	// (none without a user file).
	UserDir string
}

func (o LoadOptions) userDir() string {
	if o.UserDir != "" || o.UserFile == "" {
		return o.UserDir
	}
	if uf, err := filepath.Abs(o.UserFile); err == nil {
		return filepath.Dir(uf)
	}
	return ""
}

// ProjectHookDirs holds the project's hook folders in jcli's current
// format (<name>/HOOK.yaml), relative to the skills root.
const ProjectHookDirs = ".jcli/hooks"

// hookDirs lists the hook folders under dir in byte order, leaving out
// jcli's example template.
func hookDirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Name() == HookDirExample || strings.HasPrefix(e.Name(), ".") || !isDir(dir, e) {
			continue
		}
		out = append(out, e.Name())
	}
	return out
}

func exists(file string) bool {
	_, err := os.Stat(file)
	return err == nil
}

// Load reads and validates every hooks.yaml: the user file, the project
// file and each skill's hooks/hooks.yaml. Only an unreadable root is an
// error; every problem in the files is a diagnostic. It never runs anything.
func Load(root string, opts LoadOptions) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("skills root %s: %w", root, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("read skills root: %w", err)
	}
	c := &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}, Files: []string{}}
	sum := sha256.New()
	var readWith func(rel, file, dir string, level Level, skill string, parse func(string, []byte) ([]Hook, []diag.Diagnostic))
	// readHookDirs reads jcli's current format: every <name>/HOOK.yaml
	// (or HOOK.yml) under dir, in folder byte order; rel names dir in
	// diagnostics.
	readHookDirs := func(rel, dir string, level Level) {
		names := hookDirs(dir)
		for d := range opts.Drafts { // an unsaved HOOK.yaml of a folder not made yet
			sub, ok := strings.CutPrefix(d, rel+"/")
			name, file, _ := strings.Cut(sub, "/")
			if ok && (file == HookDirFile || file == HookDirAltFile) && name != HookDirExample && !strings.HasPrefix(name, ".") && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			file, fileRel := HookDirFile, path.Join(rel, name, HookDirFile)
			if _, draft := opts.Drafts[fileRel]; !draft && !exists(filepath.Join(dir, name, HookDirFile)) {
				file, fileRel = HookDirAltFile, path.Join(rel, name, HookDirAltFile)
			}
			hookDir := filepath.Join(dir, name)
			readWith(fileRel, filepath.Join(hookDir, file), hookDir, level, "", func(r string, data []byte) ([]Hook, []diag.Diagnostic) {
				return ParseHookDir(r, name, data)
			})
		}
	}
	seed := func(rel string, data []byte) ([]Hook, []diag.Diagnostic) { return Parse(rel, data) }
	read := func(rel, file, dir string, level Level, skill string) { readWith(rel, file, dir, level, skill, seed) }
	readWith = func(rel, file, dir string, level Level, skill string, parse func(string, []byte) ([]Hook, []diag.Diagnostic)) {
		data, ok := opts.Drafts[rel]
		if !ok {
			var code, msg string
			data, code, msg = readFile(file)
			switch code {
			case "":
			case "missing":
				return
			default:
				c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: rel, Severity: diag.Error, Code: code, Message: rel + " " + msg})
				return
			}
		}
		fmt.Fprintf(sum, "%s\x00%d\x00", rel, len(data))
		sum.Write(data)
		c.Files = append(c.Files, rel)
		hooks, ds := parse(rel, data)
		c.Diagnostics = append(c.Diagnostics, ds...)
		for i := range hooks {
			h := &hooks[i]
			h.Level, h.Skill, h.Dir = level, skill, dir
			c.Diagnostics = append(c.Diagnostics, checkCommand(h, abs)...)
			c.Hooks = append(c.Hooks, *h)
		}
	}
	if opts.UserFile != "" {
		uf, err := filepath.Abs(opts.UserFile)
		if err == nil {
			read(filepath.ToSlash(opts.UserFile), uf, filepath.Dir(uf), LevelUser, "")
		}
	}
	if ud := opts.userDir(); ud != "" {
		readHookDirs(filepath.ToSlash(filepath.Join(ud, "hooks")), filepath.Join(ud, "hooks"), LevelUser)
	}
	read(ProjectFile, filepath.Join(abs, filepath.FromSlash(ProjectFile)), filepath.Join(abs, ".jcli"), LevelProject, "")
	readHookDirs(ProjectHookDirs, filepath.Join(abs, filepath.FromSlash(ProjectHookDirs)), LevelProject)
	for _, e := range entries { // sorted by name: byte order, as skills.Load
		name := e.Name()
		if strings.HasPrefix(name, ".") || !isDir(abs, e) {
			continue
		}
		rel := path.Join(name, "hooks", "hooks.yaml")
		dir := filepath.Join(abs, name, "hooks")
		read(rel, filepath.Join(dir, "hooks.yaml"), dir, LevelSkill, name)
	}
	diag.Sort(c.Diagnostics)
	c.fingerprint = hex.EncodeToString(sum.Sum(nil))
	return c, nil
}

// Fingerprint is a hash of every hooks.yaml read (paths and contents): the
// app remembers trust by root and fingerprint, and asks again when it changes.
func (c *Config) Fingerprint() string { return c.fingerprint }

// Command is one command a run would execute, for the trust prompt.
type Command struct {
	Source  string `json:"source"` // file:line
	Event   Event  `json:"event"`
	Hook    string `json:"hook"`
	Skill   string `json:"skill,omitempty"`
	Command string `json:"command"`
	Dir     string `json:"dir"` // JCLI_HOOK_DIR
}

// Commands lists every bash hook's command (llm hooks run nothing locally).
func (c *Config) Commands() []Command { return c.CommandsFor(nil) }

// CommandsFor lists the bash commands a run of sc may execute: the user's
// and the project's, and those of the skills some request of sc enables
// (nil sc: every skill).
func (c *Config) CommandsFor(sc *scenario.Scenario) []Command {
	out := []Command{}
	for _, h := range c.HooksFor(sc) {
		if h.Type == TypeBash {
			out = append(out, Command{Source: h.Source(), Event: h.Event, Hook: h.Name, Skill: h.Skill, Command: h.Command, Dir: h.Dir})
		}
	}
	return out
}

// HooksFor lists the hooks a run of sc may invoke (nil sc: all of them).
func (c *Config) HooksFor(sc *scenario.Scenario) []*Hook {
	var out []*Hook
	for i := range c.Hooks {
		if h := &c.Hooks[i]; h.Level != LevelSkill || usesSkill(sc, h.Skill) {
			out = append(out, h)
		}
	}
	return out
}

// usesSkill says whether some request of sc (or its session events)
// enables skill.
func usesSkill(sc *scenario.Scenario, skill string) bool {
	if sc == nil || sc.EnabledSkills == nil || slices.Contains(sc.EnabledSkills, skill) {
		return true
	}
	for _, r := range sc.Requests {
		if r.EnabledSkills != nil && slices.Contains(r.EnabledSkills, skill) {
			return true
		}
	}
	return false
}

func isDir(root string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, e.Name()))
	return err == nil && fi.IsDir()
}

// readFile reads a hooks.yaml; code "missing" means there is none.
func readFile(file string) (data []byte, code, msg string) {
	f, err := os.Open(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "missing", ""
		}
		return nil, CodeUnreadable, fmt.Sprintf("cannot be read: %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, CodeUnreadable, fmt.Sprintf("cannot be read: %v", err)
	case !fi.Mode().IsRegular():
		return nil, CodeUnreadable, "is not a regular file"
	case fi.Size() > MaxFileSize:
		return nil, CodeFileTooLarge, fmt.Sprintf("is larger than the %d bytes a hooks.yaml may have", MaxFileSize)
	}
	data = make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, CodeUnreadable, fmt.Sprintf("cannot be read: %v", err)
	}
	return data, "", ""
}

// interpreters take a script file as their first argument.
var interpreters = []string{"sh", "bash", "dash", "zsh", "ksh", "python", "python3", "node", "ruby", "perl", "php", "deno", "bun"}

// checkCommand resolves the programs a bash hook's command calls, read as
// sh -c will (app/hooks/shellcmd): each one the parser is sure of must be on PATH
// (the hook's folder first) or a path from the working directory (the
// skills root); an interpreter's script must exist. A command sh cannot
// read is reported as that. Every problem is reported.
func checkCommand(h *Hook, root string) []diag.Diagnostic {
	if h.Type != TypeBash || h.cmdAt == nil {
		return nil
	}
	var out []diag.Diagnostic
	d := func(code, format string, args ...any) {
		out = append(out, diag.Diagnostic{File: h.File, Line: h.cmdAt.Line, Column: h.cmdAt.Column, Severity: diag.Error, Code: code,
			Message: fmt.Sprintf(format, args...)})
	}
	cmd, err := shellcmd.Parse(h.Command)
	var pe *shellcmd.ParseError
	if errors.As(err, &pe) {
		d(CodeShellSyntax, "%s: sh -c cannot read this command (at %d:%d of it: %s); fix its quoting or syntax", h.Name, pe.Line, pe.Col, pe.Msg)
		return out
	}
	if err != nil {
		return nil
	}
	resolve := func(w shellcmd.Word) (string, bool) { return resolveWord(w, h.Dir, root) }
	for _, p := range cmd.Programs {
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
			switch {
			case err != nil:
				d(CodeCommandMissing, "%s: %q does not exist (relative paths start at the skills root, the hook's working directory; use $JCLI_HOOK_DIR/... for the hook's folder)", h.Name, prog)
				continue
			case fi.IsDir() || fi.Mode().Perm()&0o111 == 0:
				d(CodeNotExecutable, "%s: %q is not executable; chmod +x it or run it through its interpreter (sh %s)", h.Name, prog, prog)
				continue
			}
		} else {
			switch lookPath(prog, h.Dir) {
			case "missing":
				d(CodeCommandMissing, "%s: command %q is not on PATH nor in the hook's folder", h.Name, prog)
				continue
			case "not-executable":
				d(CodeNotExecutable, "%s: %q is in the hook's folder or on PATH but not executable; chmod +x it or run it as sh %s", h.Name, prog, prog)
				continue
			}
		}
		if !slices.Contains(interpreters, filepath.Base(prog)) || len(p.Args) == 0 || strings.HasPrefix(p.Args[0].Text, "-") {
			continue
		}
		script, ok := resolve(p.Args[0])
		if !ok {
			continue
		}
		file := script
		if !filepath.IsAbs(file) {
			file = filepath.Join(root, file)
		}
		if _, err := os.Stat(file); err != nil {
			hint := ""
			if _, err := os.Stat(filepath.Join(h.Dir, script)); err == nil && !filepath.IsAbs(script) {
				hint = fmt.Sprintf("; it is in the hook's folder: write %s \"$JCLI_HOOK_DIR/%s\"", p.Text, script)
			}
			d(CodeScriptMissing, "%s: script %q does not exist (relative paths start at the skills root, the hook's working directory)%s", h.Name, script, hint)
		}
	}
	return out
}

// resolveWord is the path a word names when the shell runs the hook in
// root: $JCLI_HOOK_DIR is the hook's folder dir, $JCLI_CWD the root, ~ the
// home folder; false for a word known only at run time.
func resolveWord(w shellcmd.Word, dir, root string) (string, bool) {
	switch {
	case !w.Sure:
		return "", false
	case w.Var == "JCLI_HOOK_DIR":
		return filepath.Join(dir, w.Text), true
	case w.Var == "JCLI_CWD":
		return filepath.Join(root, w.Text), true
	case w.Var != "": // another system's variable: not set for jcli's hooks
		return "", false
	case strings.HasPrefix(w.Text, "~/"):
		home, err := os.UserHomeDir()
		return filepath.Join(home, w.Text[2:]), err == nil
	}
	return w.Text, true
}

// lookPath finds prog in dir, then on PATH: "" found, "missing", or
// "not-executable" when only a non-executable file has the name.
func lookPath(prog, dir string) string {
	res := "missing"
	for _, d := range append([]string{dir}, filepath.SplitList(os.Getenv("PATH"))...) {
		if d == "" {
			continue
		}
		fi, err := os.Stat(filepath.Join(d, prog))
		if err != nil || fi.IsDir() {
			continue
		}
		if fi.Mode().Perm()&0o111 != 0 {
			return ""
		}
		res = "not-executable"
	}
	return res
}
