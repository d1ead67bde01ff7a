package calibrate

import (
	"fmt"
	"maps"
	"strings"

	"hookstudio/app/capture"
)

// qwenRequest runs Qwen Code as `qwen --yolo` with a project whose hooks
// speak at the first turn's events (SessionStart, UserPromptSubmit) and
// save what they read at the tool and stop events. The base run calls the
// shell twice and its Stop hook blocks once; the others answer at once,
// after which Qwen Code makes its memory extraction call. The runs plant
// its instruction files (QWEN.md, AGENTS.md) apart and a folder tree
// that shows how it draws one.
func qwenRequest() reqAgent {
	return reqAgent{
		recipe: "qwen-code",
		home: map[string]string{".qwen/settings.json": `{"privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},
 "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`},
		runs: func(n string) []reqRun {
			settings := func(blocks bool) string {
				stop := probeSave("Stop")
				if blocks {
					stop += probeBlockOnce(n)
				}
				// its settings' version, so Qwen Code leaves the file (and git's
				// status) as it is
				return `{"$version": 4, "hooks": {` + strings.Join([]string{
					hookGroup("SessionStart", "", probeSay(n, "SessionStart", "session start words")),
					hookGroup("UserPromptSubmit", "", probeSay(n, "UserPromptSubmit", "prompt words")),
					hookGroup("PreToolUse", "run_shell_command", probeSave("PreToolUse")),
					hookGroup("PostToolUse", "run_shell_command", probeSave("PostToolUse")),
					hookGroup("Stop", "", stop),
				}, ", ") + `}}`
			}
			shell := func(cmd string) capture.Answer {
				return capture.Answer{ToolCalls: []capture.ToolCall{{Name: "run_shell_command", Arguments: []byte(`{"command":"` + cmd + `","description":"calibration"}`)}}}
			}
			files := func(blocks bool, more map[string]string) map[string]string {
				out := map[string]string{".qwen/settings.json": settings(blocks)}
				maps.Copy(out, more)
				return out
			}
			return []reqRun{
				{name: "base", rel: "hs_req.a/project", prompt: "HSR" + n + " first prompt",
					files: files(true, map[string]string{"QWEN.md": "HSR" + n + " base qwen words.\n"}), context: []string{"QWEN.md"},
					answers: append([]capture.Answer{shell("echo hsr-tool"), shell("true")}, probeEnds...)},
				{name: "folder", rel: "other/hsr-b.x_y/deeper/proj", prompt: "HSR" + n + " second prompt, a longer one",
					files:   files(false, withTree(map[string]string{"QWEN.md": "HSR" + n + " folder qwen words.\n", "AGENTS.md": "HSR" + n + " folder agents words.\n"})),
					context: []string{"QWEN.md", "AGENTS.md"}, answers: probeEnds},
				{name: "git", rel: "hs_req.g/project", prompt: "HSR" + n + " git prompt", files: files(false, nil), git: true, dirty: true,
					untracked: []string{"hsr-untracked.txt", "hsr-untracked-2.txt"}, branch: "hsr-branch-g", commit: "hsr commit g", answers: probeEnds},
				{name: "git-clean", rel: "hs_req.c/project", prompt: "HSR" + n + " clean prompt", git: true, branch: "hsr-branch-c", commit: "hsr commit c",
					files: files(false, map[string]string{"AGENTS.md": "HSR" + n + " clean agents words.\n"}), context: []string{"AGENTS.md"}, answers: probeEnds},
			}
		},
	}
}

// probeEnds are a run's last answers: words, and more words for what the
// agent asks after (a Stop hook's block, a side call).
var probeEnds = []capture.Answer{{Content: "HSR answer one."}, {Content: "HSR answer two."}, {Content: "HSR answer three."}}

// probeBlockOnce, after probeSave, blocks the event's first run.
func probeBlockOnce(n string) string {
	return `; if [ "$k" = 0 ]; then printf '%s\n' '{"decision":"block","reason":"HSR` + n + ` stop words"}'; fi`
}

// withTree adds to files a folder tree whose drawing tells an agent's
// connectors, indents and order apart: files before folders, a folder
// not last among its parent's, one left unread (node_modules, dist), and
// more entries than an agent draws.
func withTree(files map[string]string) map[string]string {
	out := maps.Clone(files)
	for _, f := range []string{"a.md", "B.md", "d/c.txt", "d/e/f.txt", "g/h.txt", "node_modules/x.js", "dist/y.js"} {
		out[f] = "hsr\n"
	}
	for i := 1; i <= 8; i++ {
		out[fmt.Sprintf("z%d.txt", i)] = "hsr\n"
	}
	return out
}
