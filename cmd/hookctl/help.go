package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand as `hookctl help` lists it and its --help
// shows it.
type command struct {
	name  string // as typed: "history list"
	args  string // its arguments and flags, in brief
	about string // what it does, one line
}

var commands = []command{
	{"validate", "[SKILLS_DIR] [--json] [--claude-user-settings FILE] [--gemini-user-settings FILE] [--copilot-user-hooks DIR]",
		"check every skill's hooks and scenarios; each problem as file:line:col"},
	{"simulate", "[--skills DIR] SCENARIO [--json] [--full] [--color=auto|always|never] [--db PATH] [--no-history] " +
		"[--provider PROFILE [--profiles PATH]] [--trust] [--events [--control stdin|FILE]] [--otlp URL] [--agent AGENT[@VERSION]]",
		"play a scenario and print the messages every LLM call receives"},
	{"test", "[SKILLS_DIR] [SCENARIO...] [--json] [--junit FILE] [--update] [--trust] [--agent AGENT[@VERSION]]",
		"play scenarios and check their expectations; the last line counts passed and failed"},
	{"history list", "[--scenario S] [--skill K] [--source cli|app|live|capture|session] [--since DATE] [--until DATE] [--limit N] [--json] [--db PATH]",
		"list the runs kept in the run history"},
	{"history show", "RUN [--json [--trace]] [--db PATH]", "show one run of the history"},
	{"history diff", "RUN_A RUN_B [--json] [--db PATH]", "compare two runs call by call, with token deltas"},
	{"history events", "RUN [--db PATH]", "print a run's stored events as JSON Lines"},
	{"export", "SKILL_DIR -o OUT.zip|DIR/ [--scenarios]", "write a skill as a .zip or a folder; refuses a skill with errors"},
	{"import", "FILE.zip [--skills DIR] [--overwrite]", "add the skills of a .zip, every file checked before any is written"},
	{"capture", "(--answers FILE | --profile NAME [--profiles FILE]) [--port N | --listen HOST:PORT --token T] [--max-requests N] " +
		"[--json FILE] [--save-scenario FILE] [--db PATH] [--no-history] [--recipe AGENT]",
		"be a real agent's model endpoint and record what it sends its model"},
	{"recipe", "[AGENT] [--url URL] [--prompt P] [--json]",
		"how to run an agent CLI against capture: variables, config file, command, its hook trap"},
	{"calibrate", "claude-code|codex|gemini-cli|qwen-code|copilot-cli [--cli PATH] [--json]",
		"learn how the installed agent CLI renders hook output (its rendering profile)"},
	{"convert", "--to claude-code|codex|gemini-cli|copilot-cli|qwen-code [--from AGENT] [-o DIR] [--layout project|package] [--name NAME] [--dry-run] [--force] [--json] FOLDER",
		"write a folder's hooks in another agent's format, naming what cannot carry over"},
	{"sessions list", "[--agent claude-code|codex|gemini-cli|qwen-code|copilot-cli] [--project DIR] [--search S] [--json] [--claude-dir DIR] [--codex-dir DIR] [--gemini-dir DIR] [--qwen-dir DIR] [--copilot-dir DIR]",
		"list the agents' sessions on this machine (Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI), newest first"},
	{"sessions import", "ID|FILE [--json] [--follow] [--save-scenario FILE] [--db PATH] [--claude-dir DIR] [--codex-dir DIR] [--gemini-dir DIR] [--qwen-dir DIR] [--copilot-dir DIR]",
		"import a session into the run history: every model call, every hook that fired"},
	{"sessions request", "ID|FILE CALL [--claude-dir DIR] [--codex-dir DIR] [--gemini-dir DIR] [--qwen-dir DIR] [--copilot-dir DIR]",
		"print a call's request as the agent sent it, rebuilt from the transcript"},
	{"sessions search", "WORDS [--agent A] [--project DIR] [--hook H] [--event E] [--outcome O] [--source S] [--kind K] " +
		"[--since DATE] [--until DATE] [--file FILE] [--limit N] [--offset N] [--json] [--no-index] [--db PATH] [--index PATH] [--claude-dir DIR] [--codex-dir DIR]",
		"find words in every run and session: what reached the model, hooks' words, tool calls"},
}

const usageWidth = 92

// usage is `hookctl help`: every command in brief, then what they share.
var usage = func() string {
	var b strings.Builder
	b.WriteString("hookctl — validate and simulate skill hooks\n\nUsage:\n")
	for _, c := range commands {
		b.WriteString(synopsis("  hookctl "+c.name, c.args))
	}
	b.WriteString("  hookctl help [COMMAND]    (or COMMAND --help: its flags, one line each)\n")
	b.WriteString("  hookctl --version\n")
	b.WriteString(`
SKILLS_DIR defaults to ./skills when it exists, else the current folder.
simulate records each run in the history (history.db in the app's data
folder, or --db PATH); history reads it. --provider runs the scenario against
a real model endpoint from profiles.json (docs/providers.md); its key comes
from the OS keyring or OPENAI_API_KEY / ANTHROPIC_API_KEY.
capture serves the Anthropic, OpenAI (Chat Completions, Responses) and Gemini
APIs on 127.0.0.1 for a real agent (ANTHROPIC_BASE_URL / OPENAI_BASE_URL /
GOOGLE_GEMINI_BASE_URL), answers from FILE or forwards to a model profile's
endpoint, and records what the agent sends its model
(docs/capture.md). recipe prints how to run an agent CLI against it (Claude
Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen Code, opencode, Factory Droid,
Cline); capture --recipe AGENT prints it for the capture's URL.
calibrate runs the agent CLI (on PATH or --cli) offline against capture with
a probe project, learns how that version renders hook output, and writes the
profile to agents/<agent>/<version>.json in the data folder
(docs/rendering-profiles.md); simulate and test --agent pick a version.
convert reads a folder's hooks through their system (Claude Code's now) and
writes them for another agent: each thing that cannot carry over is a warning
at its source file:line:col, the written files are checked by the target's
validator, nothing is written when the source has errors (docs/convert.md).
sessions lists the Claude Code and Codex sessions on this machine (their
transcripts) and imports one into the history: every model call with its exact
request where the transcript holds it, every hook that fired (docs/sessions.md);
sessions search finds words in every run of the history and every session on
disk, imported or not ("rm -rf" outcome:blocked, "a phrase", --file FILE; quote
words that start with -), each hit with its run, call and message (docs/search.md).
`)
	b.WriteString(exitStatus)
	return b.String()
}()

// synopsis is head followed by args, wrapped at usageWidth between
// top-level arguments, continuation lines under the first argument.
func synopsis(head, args string) string {
	var b strings.Builder
	line := head
	indent := strings.Repeat(" ", len([]rune(head))+1)
	for _, arg := range topLevel(args) {
		if len([]rune(line))+1+len([]rune(arg)) > usageWidth && line != head && strings.TrimSpace(line) != "" {
			b.WriteString(line + "\n")
			line = indent[:len(indent)-1]
		}
		line += " " + arg
	}
	b.WriteString(line + "\n")
	return b.String()
}

// topLevel splits args at the spaces outside brackets.
func topLevel(args string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range args {
		switch r {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ' ':
			if depth == 0 {
				if i > start {
					out = append(out, args[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(args) {
		out = append(out, args[start:])
	}
	return out
}

// helpRequest is a command's -h or --help (or `hookctl help COMMAND`): its
// usage goes to stdout and hookctl exits 0. fs is nil for a command that
// only groups others (history).
type helpRequest struct {
	name string
	fs   *flag.FlagSet
}

func (h *helpRequest) Error() string { return "help requested for " + h.name }

// isHelp says whether arg asks for help, as the flag package reads it.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}

// printHelp writes a command's usage: its synopsis, what it does and
// every flag on one line.
func printHelp(w io.Writer, h *helpRequest) {
	var sub []command
	for _, c := range commands {
		if c.name == h.name || strings.HasPrefix(c.name, h.name+" ") {
			sub = append(sub, c)
		}
	}
	for i, c := range sub {
		head := "usage: hookctl " + c.name
		if i > 0 {
			head = "       hookctl " + c.name
		}
		fmt.Fprint(w, synopsis(head, c.args))
	}
	fmt.Fprintln(w)
	for _, c := range sub {
		if len(sub) > 1 {
			fmt.Fprintf(w, "%-16s %s\n", c.name+":", c.about)
		} else {
			fmt.Fprintln(w, c.about)
		}
	}
	if h.fs == nil {
		if len(sub) > 1 {
			fmt.Fprintf(w, "\nEach command's flags: hookctl %s COMMAND --help\n", h.name)
		}
		return
	}
	var names, usages []string
	width := 0
	h.fs.VisitAll(func(f *flag.Flag) {
		kind, text := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if len(f.Name) == 1 {
			name = "-" + f.Name // -o
		}
		if kind != "" {
			name += " " + kind
		}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		names, usages = append(names, name), append(usages, strings.Join(strings.Fields(text), " "))
		width = max(width, len(name))
	})
	if len(names) > 0 {
		fmt.Fprintln(w, "\nFlags:")
		for i := range names {
			fmt.Fprintf(w, "  %-*s  %s\n", width, names[i], usages[i])
		}
	}
}
