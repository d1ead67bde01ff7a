package calibrate

import (
	"fmt"
	"maps"
	"strings"

	"hookstudio/app/capture"
)

// copilotRequest runs Copilot CLI as `copilot -p --allow-all-tools
// --trust-folder` with a project whose hooks (.github/hooks: its own
// shape, camelCase events, fields at the top level) speak at the first
// turn's events and save what they read at the tool and stop events. The
// base run calls the shell twice and its agentStop hook blocks once; the
// others answer at once. The runs plant its instruction files
// (.github/copilot-instructions.md, AGENTS.md) apart.
func copilotRequest() reqAgent {
	return reqAgent{
		recipe: "copilot-cli",
		runs: func(n string) []reqRun {
			say := func(event, words string) string {
				return probeSave(event) + fmt.Sprintf(`; printf '%%s\n' '{"additionalContext":"HSR%s %s"}'`, n, words)
			}
			hook := func(event, cmd string) string {
				return fmt.Sprintf(`%q: [{"type": "command", "bash": %q, "timeoutSec": 60}]`, event, cmd)
			}
			doc := func(blocks bool) string {
				stop := probeSave("agentStop")
				if blocks {
					stop += probeBlockOnce(n)
				}
				return `{"version": 1, "hooks": {` + strings.Join([]string{
					hook("sessionStart", say("sessionStart", "session start words")),
					hook("userPromptSubmitted", say("userPromptSubmitted", "prompt words")),
					hook("preToolUse", probeSave("preToolUse")),
					hook("postToolUse", probeSave("postToolUse")),
					hook("agentStop", stop),
				}, ", ") + `}}`
			}
			files := func(blocks bool, more map[string]string) map[string]string {
				out := map[string]string{".github/hooks/hsr.json": doc(blocks)}
				maps.Copy(out, more)
				return out
			}
			shell := func(cmd string) capture.Answer {
				return capture.Answer{ToolCalls: []capture.ToolCall{{Name: "bash", Arguments: []byte(`{"command":"` + cmd + `","description":"calibration"}`)}}}
			}
			const instr = ".github/copilot-instructions.md"
			return []reqRun{
				{name: "base", rel: "hs_req.a/project", prompt: "HSR" + n + " first prompt",
					files: files(true, map[string]string{instr: "HSR" + n + " base instructions words.\n"}), context: []string{instr},
					answers: append([]capture.Answer{shell("echo hsr-tool"), shell("true")}, probeEnds...)},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/proj", prompt: "HSR" + n + " second prompt, a longer one",
					files:   files(false, withTree(map[string]string{instr: "HSR" + n + " folder instructions words.\n", "AGENTS.md": "HSR" + n + " folder agents words.\n"})),
					context: []string{instr, "AGENTS.md"}, answers: probeEnds},
				{name: "git", rel: "hs_req.g/project", prompt: "HSR" + n + " git prompt", files: files(false, nil), git: true, dirty: true,
					branch: "hsr-branch-g", commit: "hsr commit g", answers: probeEnds},
				{name: "git-clean", rel: "hs_req.c/project", prompt: "HSR" + n + " clean prompt", git: true, branch: "hsr-branch-c", commit: "hsr commit c",
					files: files(false, map[string]string{"AGENTS.md": "HSR" + n + " clean agents words.\n"}), context: []string{"AGENTS.md"}, answers: probeEnds},
			}
		},
	}
}
