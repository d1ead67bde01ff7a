package calibrate

import (
	"context"
	"fmt"
	"strings"

	"hookstudio/app/agents/locate"
	"hookstudio/app/capture"
)

// reqAgents are the agents whose request model calibration learns.
func reqAgents() map[string]reqAgent {
	return map[string]reqAgent{"claude-code": claudeRequest()}
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
		recipe: "claude-code", args: []string{"--allowedTools", "Bash"},
		transcripts: ".claude/projects", transcriptFormat: "claude-code",
		runs: func(n string) []reqRun {
			save := func(event string) string {
				return fmt.Sprintf(`in=$(cat); k=$(ls "$PROBE_OUT" | grep -c '^%s-'); printf '%%s' "$in" > "$PROBE_OUT/%s-$k.json"`, event, event)
			}
			stop := save("Stop") + `; tp=$(printf '%s' "$in" | sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p'); cp "$tp" "$PROBE_OUT/transcript-at-stop-$k.jsonl" 2>/dev/null;` +
				` if [ "$k" = 0 ]; then printf '%s\n' '{"decision":"block","reason":"HSR` + n + ` stop words"}'; fi`
			say := func(event, words string) string {
				return save(event) + fmt.Sprintf("; printf '%%s\\n' 'HSR%s %s'", n, words)
			}
			settings := `{"hooks": {` + strings.Join([]string{
				hookGroup("SessionStart", "", say("SessionStart", "session start words")),
				hookGroup("UserPromptSubmit", "", say("UserPromptSubmit", "prompt words")),
				hookGroup("PreToolUse", "Bash", save("PreToolUse")),
				hookGroup("PostToolUse", "Bash", save("PostToolUse")),
				hookGroup("Stop", "", stop),
			}, ", ") + `}}`
			files := map[string]string{".claude/settings.json": settings}
			bash := capture.ToolCall{Name: "Bash", Arguments: []byte(`{"command":"echo hsr-tool","description":"calibration"}`)}
			return []reqRun{
				{name: "base", rel: "hs_req.a/project", prompt: "HSR" + n + " first prompt", files: files,
					answers: []capture.Answer{{ToolCalls: []capture.ToolCall{bash}}, {Content: "HSR answer one."}, {Content: "HSR answer two."}}},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/proj", prompt: "HSR" + n + " second prompt, a longer one", files: files,
					answers: []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}}},
				{name: "git", rel: "hs_req.g/project", prompt: "HSR" + n + " git prompt", files: files, git: true, dirty: true, branch: "hsr-branch-g", commit: "hsr commit g",
					answers: []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}}},
				{name: "git-clean", rel: "hs_req.c/project", prompt: "HSR" + n + " clean prompt", files: files, git: true, branch: "hsr-branch-c", commit: "hsr commit c",
					answers: []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}}},
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
