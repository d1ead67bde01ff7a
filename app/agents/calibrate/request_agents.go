package calibrate

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/agents/locate"
	"hookstudio/app/capture"
)

// reqAgents are the agents whose request model calibration learns.
func reqAgents() map[string]reqAgent {
	return map[string]reqAgent{"claude-code": claudeRequest(), "gemini-cli": geminiRequest(), "codex": codexRequest(), "qwen-code": qwenRequest(), "copilot-cli": copilotRequest()}
}

// RequestAgents lists them.
func RequestAgents() []string {
	var out []string
	for a := range reqAgents() {
		out = append(out, a)
	}
	return out
}

func versionOf(ctx context.Context, cli string) (string, error) {
	return locate.NewFinder().Version(ctx, cli)
}

// claudeRequest runs Claude Code as `claude -p` with Bash allowed, a
// project with a hook at each event of the first turn (words of its own,
// so the reader tells the hooks' places from the CLI's texts) and at the
// tool and stop events (each saves the JSON it read; the stop blocks once
// and saves the transcript as it stood).
func claudeRequest() reqAgent {
	return reqAgent{
		recipe: "claude-code", args: []string{"--allowedTools", "Bash Skill"},
		transcripts: ".claude/projects", transcriptFormat: "claude-code",
		runs: func(n string) []reqRun {
			ctx := func(event, words string) string {
				return fmt.Sprintf(`printf '%%s\n' '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"HSR%s %s"}}'`, event, n, words)
			}
			save, stop := probeSave, probeStop(n)
			say := func(event, words string) string { return probeSay(n, event, words) }
			groups := []string{
				hookGroup("SessionStart", "", say("SessionStart", "session start words")),
				hookGroup("UserPromptSubmit", "", say("UserPromptSubmit", "prompt words")),
				hookGroup("PreToolUse", "Bash", save("PreToolUse")+"; "+ctx("PreToolUse", "pre words")),
				hookGroup("PostToolUse", "Bash", save("PostToolUse")+"; "+ctx("PostToolUse", "post words")),
				hookGroup("Stop", "", stop),
			}
			settings := `{"hooks": {` + strings.Join(groups, ", ") + `}}`
			files := map[string]string{".claude/settings.json": settings}
			// the names run: how the CLI names a hook in its words about it —
			// one with a statusMessage, one of a plugin
			named := fmt.Sprintf(`in=$(cat); case "$in" in *hsr-named*) echo 'HSR%s named words' >&2; exit 2;; esac`, n)
			statusStop := fmt.Sprintf(`"Stop": [{"hooks": [{"type": "command", "command": %q, "statusMessage": "HSR%s status words"}]}]`, stop, n)
			namesSettings := `{"hooks": {` + strings.Join(append(groups[:2:2], groups[3], statusStop), ", ") + `, "PreToolUse": [{"matcher": "Bash", "hooks": [` +
				fmt.Sprintf(`{"type": "command", "command": %q}, {"type": "command", "command": %q, "statusMessage": "HSR%s status words"}`,
					save("PreToolUse")+"; "+ctx("PreToolUse", "pre words"), named, n) + `]}]}}`
			plugged := fmt.Sprintf("#!/bin/sh\nin=$(cat); case \"$in\" in *hsr-plugged*) echo 'HSR%s plugged words' >&2; exit 2;; esac\n", n)
			skill := func(rel, name, words string) (string, string, request.Entry) {
				body := "HSR" + n + " " + words + " body.\n"
				return rel + "/SKILL.md", "---\nname: " + name + "\ndescription: HSR" + n + " " + words + " words\n---\n" + body,
					request.Entry{Name: name, Description: "HSR" + n + " " + words + " words", Dir: rel, Body: body}
			}
			with := func(extra ...string) map[string]string {
				out := maps.Clone(files)
				for i := 0; i+1 < len(extra); i += 2 {
					out[extra[i]] = extra[i+1]
				}
				return out
			}
			za, zaText, zaEntry := skill(".claude/skills/hsr-zeta", "hsr-zeta", "zeta skill")
			al, alText, alEntry := skill(".claude/skills/hsr-alpha", "hsr-alpha", "alpha skill")
			mi, miText, miEntry := skill(".claude/skills/hsr-mid", "hsr-mid", "mid skill")
			pl, plText, plEntry := skill("@/plugin/skills/hsr-plugskill", "hsr-plugskill", "plugin skill")
			alEntry.Kind, zaEntry.Kind, miEntry.Kind, plEntry.Kind = request.EntryProject, request.EntryProject, request.EntryProject, request.EntryPlugin
			plEntry.Name = "hsr-plug:hsr-plugskill"
			call := func(name, args string) capture.Answer {
				return capture.Answer{ToolCalls: []capture.ToolCall{{Name: name, Arguments: []byte(args)}}}
			}
			bash := func(cmd string) capture.Answer {
				return call("Bash", `{"command":"`+cmd+`","description":"calibration"}`)
			}
			ends := []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}}
			// the folder run: a skill used, then tool rounds without a word
			// until the CLI reminds the model of the user
			long := []capture.Answer{call("Skill", `{"skill":"hsr-alpha"}`)}
			for i := range 7 {
				long = append(long, bash(fmt.Sprintf("echo hsr-round-%d", i)))
			}
			runs := []reqRun{
				{name: "base", rel: "hs_req.a/project", prompt: "HSR" + n + " first prompt", files: files, stop: "HSR" + n + " stop words",
					answers: append([]capture.Answer{bash("echo hsr-tool"), bash("true")}, ends...)},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/proj", prompt: "HSR" + n + " second prompt, a longer one",
					files: with(za, zaText, al, alText), skills: []request.Entry{zaEntry, alEntry}, answers: append(long, ends...)},
				{name: "git", rel: "hs_req.g/project", prompt: "HSR" + n + " git prompt", files: files, git: true, dirty: true, branch: "hsr-branch-g", commit: "hsr commit g",
					answers: ends},
				{name: "names", rel: "hs_req.n/project", prompt: "HSR" + n + " names prompt",
					files: map[string]string{".claude/settings.json": namesSettings, "@/plugin2/.claude-plugin/plugin.json": `{"name": "hsr-named", "version": "1.0.0"}`,
						"@/plugin2/hooks/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh ${CLAUDE_PLUGIN_ROOT}/guard.sh"}]}]}}`,
						"@/plugin2/guard.sh":         plugged},
					args:    []string{"--plugin-dir", "@/plugin2"},
					answers: append([]capture.Answer{bash("echo hsr-named"), bash("echo hsr-plugged")}, ends...)},
				{name: "git-clean", rel: "hs_req.c/project", prompt: "HSR" + n + " clean prompt", git: true, branch: "hsr-branch-c", commit: "hsr commit c",
					files:  with(mi, miText, "@/plugin/.claude-plugin/plugin.json", `{"name": "hsr-plug", "version": "1.0.0"}`, pl, plText),
					skills: []request.Entry{miEntry, plEntry}, args: []string{"--plugin-dir", "@/plugin"}, answers: ends},
			}
			return append(runs, claudeSubRuns(n, bash, ends, map[string]string{za: zaText, al: alText}, []request.Entry{zaEntry, alEntry})...)
		},
	}
}

// probeSave is a hook command that saves the JSON it read as
// <event>-<n>.json in the probe's folder.
func probeSave(event string) string {
	return fmt.Sprintf(`in=$(cat); k=$(ls "$PROBE_OUT" | grep -c '^%s-'); printf '%%s' "$in" > "$PROBE_OUT/%s-$k.json"`, event, event)
}

// probeSay saves what it read and prints words of the probe's own.
func probeSay(nonce, event, words string) string {
	return probeSave(event) + fmt.Sprintf("; printf '%%s\\n' 'HSR%s %s'", nonce, words)
}

// probeStop saves what it read and the transcript as it stood, and blocks
// the first stop with words of the probe's own.
func probeStop(nonce string) string {
	return probeSave("Stop") + `; tp=$(printf '%s' "$in" | sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p'); cp "$tp" "$PROBE_OUT/transcript-at-stop-$k.jsonl" 2>/dev/null` +
		probeBlockOnce(nonce)
}

// codexRequest runs Codex as `codex exec` (sandbox and approvals off, as
// the conformance runs do) with hooks at the events of the first turn and
// a Stop hook that blocks once, in folders with and without an AGENTS.md
// (its instructions are quoted in the first turn), in and out of git. The
// base run's shell calls print known words with known exit codes, slowly
// and at once, so the words around a command's output read as a template.
func codexRequest() reqAgent {
	return reqAgent{
		recipe: "codex", args: []string{"--dangerously-bypass-approvals-and-sandbox"},
		home:        map[string]string{".codex/config.toml": "[analytics]\nenabled = false\n[feedback]\nenabled = false\n"},
		transcripts: ".codex/sessions", transcriptFormat: request.TranscriptCodex,
		files: []string{"AGENTS.md"}, shell: "exec_command",
		outputs: map[string]shellOutput{
			"echo hsr-tool": {"hsr-tool\n", 0},
			"true":          {"", 0},
			// slow: its wall time differs from the quick one's
			"sleep 0.3; echo hsr-slow-output-longer; exit 7": {"hsr-slow-output-longer\n", 7},
		},
		runs: func(n string) []reqRun {
			hooks := `{"hooks": {` + strings.Join([]string{
				hookGroup("SessionStart", "", probeSay(n, "SessionStart", "session start words")),
				hookGroup("UserPromptSubmit", "", probeSay(n, "UserPromptSubmit", "prompt words")),
				hookGroup("PreToolUse", "", probeSave("PreToolUse")),
				hookGroup("PostToolUse", "", probeSave("PostToolUse")),
				hookGroup("Stop", "", probeStop(n)),
			}, ", ") + `}}`
			files := func(agents string) map[string]string {
				out := map[string]string{".codex/hooks.json": hooks}
				if agents != "" {
					out["AGENTS.md"] = "HSR" + n + " " + agents + "\n"
				}
				return out
			}
			shell := func(cmd string) capture.Answer {
				return capture.Answer{ToolCalls: []capture.ToolCall{{Name: "exec_command", Arguments: []byte(`{"cmd":` + strconv.Quote(cmd) + `}`)}}}
			}
			ends := []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}}
			return []reqRun{
				{name: "base", rel: "hs_req.a/project", prompt: "HSR" + n + " first prompt", files: files("base instructions."),
					answers: append([]capture.Answer{shell("echo hsr-tool"), shell("true"), shell("sleep 0.3; echo hsr-slow-output-longer; exit 7")}, ends...)},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/proj", prompt: "HSR" + n + " second prompt, a longer one",
					files: files("folder instructions, longer ones."), answers: ends},
				{name: "no-instructions", rel: "hs_req.n/project", prompt: "HSR" + n + " plain prompt", files: files(""), answers: ends},
				{name: "git", rel: "hs_req.g/project", prompt: "HSR" + n + " git prompt", files: files("git instructions."), git: true, dirty: true,
					branch: "hsr-branch-g", commit: "hsr commit g", answers: ends},
				{name: "git-clean", rel: "hs_req.c/project", prompt: "HSR" + n + " clean prompt", files: files("clean instructions."), git: true,
					branch: "hsr-branch-c", commit: "hsr commit c", answers: ends},
			}
		},
	}
}

// hookGroup is one event's matcher group of Claude Code's settings.json
// (and Codex's hooks.json, which has its shape).
func hookGroup(event, matcher, command string) string {
	m := ""
	if matcher != "" {
		m = fmt.Sprintf(`"matcher": %q, `, matcher)
	}
	return fmt.Sprintf(`%q: [{%s"hooks": [{"type": "command", "command": %q}]}]`, event, m, command)
}

// geminiRequest runs Gemini CLI as `gemini --yolo -p` with a hook at each
// event of the first turn (SessionStart, BeforeAgent: words of their own,
// as JSON), at the shell tool's events and at AfterAgent (each saves the
// JSON it read; AfterAgent denies once). The runs vary the folder (its
// path and name, the files it lists: names that sort apart, folders it
// never opens, one of more entries than it shows), GEMINI.md (there with
// words of its own, with white space around them, or not there) and git.
func geminiRequest() reqAgent {
	return reqAgent{
		recipe: "gemini-cli", env: []string{"GEMINI_CLI_NO_RELAUNCH=true"},
		files: []string{"GEMINI.md"}, tree: true,
		runs: func(n string) []reqRun {
			save := probeSave
			say := func(event, words string) string {
				return save(event) + fmt.Sprintf(`; printf '%%s\n' '{"hookSpecificOutput": {"additionalContext": "HSR%s %s"}}'`, n, words)
			}
			stopWords := "HSR" + n + " stop words"
			stop := save("AfterAgent") + `; if [ "$k" = 0 ]; then printf '%s\n' '{"decision": "deny", "reason": "` + stopWords + `"}'; fi`
			settings := `{"hooks": {` + strings.Join([]string{
				hookGroup("SessionStart", "", say("SessionStart", "session start words")),
				hookGroup("BeforeAgent", "", say("BeforeAgent", "prompt words")),
				hookGroup("BeforeTool", "run_shell_command", save("BeforeTool")),
				hookGroup("AfterTool", "run_shell_command", save("AfterTool")),
				hookGroup("AfterAgent", "", stop),
			}, ", ") + `}}`
			with := func(extra ...string) map[string]string {
				out := map[string]string{".gemini/settings.json": settings}
				for i := 0; i+1 < len(extra); i += 2 {
					out[extra[i]] = extra[i+1]
				}
				return out
			}
			shell := func(cmd string) capture.Answer {
				return capture.Answer{ToolCalls: []capture.ToolCall{{Name: "run_shell_command", Arguments: []byte(`{"command":"` + cmd + `"}`)}}}
			}
			ends := []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}}
			// names that sort apart by locale and by bytes, folders the CLI
			// may not open, a last folder with an entry (the indent under it)
			var tree []string
			for _, f := range []string{"Hsr-A.txt", "hsr-a.txt", "hsr_c.txt", "hsr-b.txt", "10.txt", "9.txt", "hsr-dir/x1.txt", "hsr-dir/inner/y1.txt",
				"hsr-dir/inner/y2.txt", "node_modules/m.txt", "dist/d.txt", "__pycache__/p.txt", "build/b.txt", "vendor/v.txt", "target/t.txt",
				".venv/v.txt", "zz-hsr-last/z.txt"} {
				tree = append(tree, f, "x\n")
			}
			many := []string{"GEMINI.md.hsr-none", "not a context file\n"}
			for i := range 205 {
				many = append(many, fmt.Sprintf("hsr-many/f%03d.txt", i), "x\n")
			}
			return []reqRun{
				{name: "base", rel: "hs_req.a/Hsr_Base.A", prompt: "HSR" + n + " first prompt", stop: stopWords,
					files:   with("GEMINI.md", "HSR"+n+" base gemini words\n"),
					answers: append([]capture.Answer{shell("echo hsr-tool"), shell("true")}, ends...)},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/hsr-folder-b", prompt: "HSR" + n + " second prompt, a longer one", stop: stopWords,
					files: with(append(tree, "GEMINI.md", "\n  HSR"+n+" folder gemini words  \n\n")...), answers: ends},
				{name: "git", rel: "hs_req.g/hsr-git-g", prompt: "HSR" + n + " git prompt", git: true, dirty: true, branch: "hsr-branch-g", commit: "hsr commit g",
					stop:    stopWords,
					files:   with("GEMINI.md", "HSR"+n+" git gemini words\n", ".gitignore", "hsr-ignored.txt\nhsr-ignored-dir/\n", "hsr-ignored.txt", "x\n", "hsr-ignored-dir/i.txt", "x\n"),
					answers: ends},
				{name: "nofile", rel: "hs_req.n/hsr-nofile-n", prompt: "HSR" + n + " no file prompt", stop: stopWords,
					files: with(many...), answers: ends},
			}
		},
	}
}
