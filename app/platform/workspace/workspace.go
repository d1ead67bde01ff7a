// Package workspace reads the facts of a working folder and of this
// machine that an agent CLI writes into its requests — the folder, the
// user's home, today's date, the platform, the OS version, the login
// shell, the folder's git branch, status and recent commits — as the
// values of a request model's slots (app/agentdata/request). Calibration
// and the simulator read them through the same code, so a slot learned
// from the CLI is filled the same way in a simulated run.
package workspace

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/process"
)

// Options are the facts a caller fixes instead of reading them (tests,
// and a simulated run that must match a real CLI run with a throw-away
// home).
type Options struct {
	Home  string    // "": the user's home folder
	Now   time.Time // zero: now
	Shell string    // "": LoginShell()
	// GitTimeout bounds each git command (0: 5 s).
	GitTimeout time.Duration
}

// Facts are the slot values of a working folder on this machine (every
// slot but the prompt and the model, which belong to a run).
func Facts(ctx context.Context, dir string, opts Options) request.Values {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	shell := opts.Shell
	if shell == "" {
		shell = LoginShell()
	}
	v := request.Values{
		request.SlotCwd:         dir,
		request.SlotCwdSlug:     Slug(dir),
		request.SlotCwdDashed:   strings.ReplaceAll(filepath.ToSlash(dir), "/", "-"),
		request.SlotHome:        home,
		request.SlotDate:        now.Format("2006-01-02"),
		request.SlotDateLong:    now.Format("Monday, January 2, 2006"),
		request.SlotCwdNameSlug: NameSlug(filepath.Base(dir)),
		request.SlotPlatform:    Platform(),
		request.SlotShell:       filepath.Base(shell),
	}
	if rel, err := filepath.Rel(dir, home); err == nil {
		v[request.SlotHomeRel] = filepath.ToSlash(rel)
	}
	if shell == "" {
		v[request.SlotShell] = ""
	}
	g := process.NewGroup()
	defer g.Close()
	timeout := opts.GitTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	run := func(argv ...string) (string, bool) {
		rctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		res := g.Run(rctx, process.Spec{Argv: argv, Dir: dir, Env: gitEnv(), MaxStdout: 1 << 20, MaxStderr: 1 << 16})
		if res.Err != nil || res.ExitCode != 0 {
			return "", false
		}
		return strings.TrimRight(string(res.Stdout), "\n"), true
	}
	v[request.SlotOSVersion] = osVersion(run)
	if tz := timezone(); tz != "" {
		v[request.SlotTimezone] = tz
	}
	inside, _ := run("git", "rev-parse", "--is-inside-work-tree")
	v[request.SlotIsGit] = "false"
	if inside == "true" {
		v[request.SlotIsGit] = "true"
		v[request.SlotGitBranch], _ = run("git", "rev-parse", "--abbrev-ref", "HEAD")
		v[request.SlotGitStatus], _ = run("git", "--no-optional-locks", "status", "--short")
		v[request.SlotGitLog], _ = run("git", "--no-optional-locks", "log", "--oneline", "-n", "5")
	}
	return v
}

// LoginShell is the user's shell: $SHELL, or where it is unset (a CI job,
// a service) the user's entry in /etc/passwd, which is where a CLI that
// names the shell looks then (Codex); "" when neither says. Calibration
// gives its probes this same value, so the shell a CLI writes is a slot
// whatever the environment the calibration ran in.
func LoginShell() string {
	if sh := os.Getenv("SHELL"); sh != "" {
		return sh
	}
	u, err := user.Current()
	if err != nil {
		return ""
	}
	data, err := os.ReadFile("/etc/passwd")
	if err != nil {
		return ""
	}
	return passwdShell(string(data), u.Username)
}

// passwdShell is the login shell of name in an /etc/passwd text.
func passwdShell(passwd, name string) string {
	for line := range strings.Lines(passwd) {
		f := strings.Split(strings.TrimRight(line, "\r\n"), ":")
		if len(f) == 7 && f[0] == name {
			return f[6]
		}
	}
	return ""
}

// Platform is this machine's platform as Node.js names it (every agent
// CLI seen runs on Node.js or says it the same way): linux, darwin, win32.
func Platform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

// Slug is s with every character but ASCII letters and digits as '-'.
func Slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '-'
	}, filepath.ToSlash(s))
}

// NameSlug is a folder's name in lower case with every run of characters
// but ASCII letters and digits one '-', none at either end ("project"
// when nothing is left).
func NameSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "project"
	}
	return b.String()
}

func osVersion(run func(argv ...string) (string, bool)) string {
	if runtime.GOOS != "windows" {
		if out, ok := run("uname", "-sr"); ok {
			return out
		}
	}
	return runtime.GOOS
}

// timezone is the machine's IANA time zone as an agent CLI reads it: the
// zone /etc/localtime links to (Codex reads it so, not $TZ), else
// /etc/timezone's; "" when neither tells.
func timezone() string {
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, zone, ok := strings.Cut(target, "zoneinfo/"); ok && zone != "" {
			return zone
		}
	}
	if data, err := os.ReadFile("/etc/timezone"); err == nil {
		return strings.TrimSpace(string(data))
	}
	return ""
}

// gitEnv is the environment git runs with: this one, in English and
// without a pager, so its output is what an agent CLI reads.
func gitEnv() []string {
	env := make([]string, 0, len(os.Environ())+3)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "LANG" || k == "LC_ALL" || k == "GIT_PAGER" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0")
}
