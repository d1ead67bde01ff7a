package calibrate

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/agents/locate"
	"hookstudio/app/capture"
)

// reqAgents are the agents whose request model calibration learns.
func reqAgents() map[string]reqAgent {
	return map[string]reqAgent{"claude-code": claudeRequest(), "qwen-code": qwenRequest(), "copilot-cli": copilotRequest()}
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
			save := probeSave
			stop := save("Stop") + `; tp=$(printf '%s' "$in" | sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p'); cp "$tp" "$PROBE_OUT/transcript-at-stop-$k.jsonl" 2>/dev/null;` +
				` if [ "$k" = 0 ]; then printf '%s\n' '{"decision":"block","reason":"HSR` + n + ` stop words"}'; fi`
			ctx := func(event, words string) string {
				return fmt.Sprintf(`printf '%%s\n' '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"HSR%s %s"}}'`, event, n, words)
			}
			say := func(event, words string) string { return probeSay(n, event, words) }
			settings := `{"hooks": {` + strings.Join([]string{
				hookGroup("SessionStart", "", say("SessionStart", "session start words")),
				hookGroup("UserPromptSubmit", "", say("UserPromptSubmit", "prompt words")),
				hookGroup("PreToolUse", "Bash", save("PreToolUse")+"; "+ctx("PreToolUse", "pre words")),
				hookGroup("PostToolUse", "Bash", save("PostToolUse")+"; "+ctx("PostToolUse", "post words")),
				hookGroup("Stop", "", stop),
			}, ", ") + `}}`
			files := map[string]string{".claude/settings.json": settings}
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
			return []reqRun{
				{name: "base", rel: "hs_req.a/project", prompt: "HSR" + n + " first prompt", files: files,
					answers: append([]capture.Answer{bash("echo hsr-tool"), bash("true")}, ends...)},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/proj", prompt: "HSR" + n + " second prompt, a longer one",
					files: with(za, zaText, al, alText), skills: []request.Entry{zaEntry, alEntry}, answers: append(long, ends...)},
				{name: "git", rel: "hs_req.g/project", prompt: "HSR" + n + " git prompt", files: files, git: true, dirty: true, branch: "hsr-branch-g", commit: "hsr commit g",
					answers: ends},
				{name: "git-clean", rel: "hs_req.c/project", prompt: "HSR" + n + " clean prompt", git: true, branch: "hsr-branch-c", commit: "hsr commit c",
					files:  with(mi, miText, "@/plugin/.claude-plugin/plugin.json", `{"name": "hsr-plug", "version": "1.0.0"}`, pl, plText),
					skills: []request.Entry{miEntry, plEntry}, args: []string{"--plugin-dir", "@/plugin"}, answers: ends},
			}
		},
	}
}

// hookGroup is one event's matcher group of Claude Code's settings.json.
func hookGroup(event, matcher, command string) string {
	m := ""
	if matcher != "" {
		m = fmt.Sprintf(`"matcher": %q, `, matcher)
	}
	return fmt.Sprintf(`%q: [{%s"hooks": [{"type": "command", "command": %q}]}]`, event, m, command)
}
