// Package recipe is how to point each agent CLI at a capture endpoint: the
// variables to set, the config file to write where variables are not enough,
// the command to run, where its hooks go and the trap that keeps a hook from
// running. It is one table, read by the app's Capture dialog, hookctl recipe,
// the real-agent tests (which run every recipe against capture) and the test
// that keeps docs/capture.md's recipes section generated from it.
package recipe

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// The APIs a recipe's agent speaks to capture (capture.API's values).
const (
	Anthropic = "anthropic"
	OpenAI    = "openai"
	Responses = "responses"
	Gemini    = "gemini"
)

// Placeholders in a recipe's values, filled in by For.
const (
	// URL is the capture's base URL, http://127.0.0.1:PORT (no /v1).
	URL = "{{url}}"
	// Prompt is the prompt the agent is run with.
	Prompt = "{{prompt}}"
)

// SamplePrompt is the prompt a recipe shows when none is given.
const SamplePrompt = "clean the build folder"

// ErrUnknown is returned for an agent no recipe is for.
var ErrUnknown = errors.New("no recipe for this agent")

// Recipe runs one agent CLI against a capture endpoint.
type Recipe struct {
	// Agent is the agent's id (the rendering profile's name): "codex".
	Agent string `json:"agent"`
	Name  string `json:"name"`
	// Package is the npm package; Version the version this recipe was run
	// with here.
	Package string `json:"package"`
	Version string `json:"version"`
	// Proprietary agents are test references only, never shipped.
	Proprietary bool `json:"proprietary,omitempty"`
	// API is what the agent speaks to capture with this recipe.
	API string `json:"api"`
	// Env are the variables to set.
	Env []Var `json:"env"`
	// Files are config files to write where variables are not enough.
	Files []File `json:"files"`
	// Before are commands to run once first (argv each).
	Before [][]string `json:"before"`
	// Run is the command (argv; Prompt stands for the prompt).
	Run []string `json:"run"`
	// Hooks says where the agent reads its hooks.
	Hooks string `json:"hooks"`
	// Trap is why a hook may not run (or not reach the model), and the fix.
	Trap string `json:"trap"`
	// Notes are what else a user of capture should know (side calls, …).
	Notes []string `json:"notes"`
	// Lines are what to paste, one shell line each (filled in by For).
	Lines []string `json:"lines"`
}

// Var is one environment variable.
type Var struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// File is a config file of the recipe.
type File struct {
	// Path starts with ~/ for the user's home; else it is in the project.
	Path    string `json:"path"`
	Content string `json:"content"`
	// Merge: add Content to the file if it exists (a TOML table, JSON
	// keys); else the file is Content.
	Merge bool `json:"merge,omitempty"`
	// Format of Content: "toml", "json".
	Format string `json:"format"`
}

// All is every recipe, in the order the app lists them.
func All() []Recipe {
	return []Recipe{
		{
			Agent: "claude-code", Name: "Claude Code", Package: "@anthropic-ai/claude-code", Version: "2.1.197", Proprietary: true, API: Anthropic,
			Env:   []Var{{"ANTHROPIC_BASE_URL", URL}, {"ANTHROPIC_API_KEY", "capture"}, {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"}},
			Run:   []string{"claude", "-p", Prompt},
			Hooks: "`hooks` in `.claude/settings.json` (project), `~/.claude/settings.json`, a plugin's `hooks/hooks.json`, a skill's frontmatter",
			Trap:  "A matcher is the tool's exact name (`Bash`, not `bash`); in `claude -p` a tool not allowed (`--allowedTools Bash`) is refused, and its PostToolUse never fires.",
			Notes: []string{"Also sends `POST /v1/messages/count_tokens` (not a call of the capture)."},
		},
		{
			Agent: "codex", Name: "Codex CLI", Package: "@openai/codex", Version: "0.171.0", API: Responses,
			Env: []Var{{"CAPTURE_API_KEY", "capture"}},
			// a profile of its own file: --profile capture leaves the user's config.toml as it is
			Files: []File{{Path: "~/.codex/capture.config.toml", Format: "toml", Content: `model = "capture"
model_provider = "capture"

[model_providers.capture]
name = "Hook Studio capture"
base_url = "` + URL + `/v1"
wire_api = "responses"
env_key = "CAPTURE_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`}},
			Run:   []string{"codex", "exec", "--profile", "capture", "--skip-git-repo-check", "--trust", "--dangerously-bypass-hook-trust", Prompt},
			Hooks: "`.codex/hooks.json` or `[hooks]` in `.codex/config.toml` (project), `~/.codex/hooks.json`",
			Trap: "Codex skips a hook it has not trusted, silently (each hook by the hash of its command): run `codex exec --dangerously-bypass-hook-trust`, or trust it in `/hooks` in the interactive CLI; " +
				"and it reads a project's `.codex/` only in a trusted project (`codex exec --trust`, else one warning: \"Untrusted project-local configuration is disabled\").",
			Notes: []string{"Speaks only the Responses API (`wire_api = \"chat\"` is refused)."},
		},
		{
			Agent: "gemini-cli", Name: "Gemini CLI", Package: "@google/gemini-cli", Version: "0.61.0", API: Gemini,
			Env: []Var{{"GOOGLE_GEMINI_BASE_URL", URL}, {"GEMINI_API_KEY", "capture"}, {"GEMINI_CLI_TRUST_WORKSPACE", "true"}},
			Files: []File{{Path: "~/.gemini/settings.json", Merge: true, Format: "json", Content: `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
}
`}},
			Run:   []string{"gemini", "--yolo", "-p", Prompt},
			Hooks: "`hooks` in `.gemini/settings.json` (project), `~/.gemini/settings.json`",
			Trap: "It reads a project's `.gemini/settings.json` (its hooks) only in a trusted folder: `--skip-trust` runs without them, silently, so trust the folder (`GEMINI_CLI_TRUST_WORKSPACE=true`, or interactively). " +
				"Its events have their own names (`BeforeTool`, not `PreToolUse`: a Claude Code name never fires), and stdout must be JSON: plain stdout is shown to the user, never to the model.",
			Notes: []string{"Each prompt first asks its model router (`:generateContent` with a JSON schema); capture answers it on its own."},
		},
		{
			Agent: "copilot-cli", Name: "GitHub Copilot CLI", Package: "@github/copilot", Version: "1.0.102", Proprietary: true, API: OpenAI,
			Env: []Var{{"COPILOT_OFFLINE", "true"}, {"COPILOT_PROVIDER_BASE_URL", URL + "/v1"}, {"COPILOT_PROVIDER_API_KEY", "capture"},
				{"COPILOT_MODEL", "capture"}, {"COPILOT_AUTO_UPDATE", "false"}},
			Run:   []string{"copilot", "-p", Prompt, "--allow-all-tools", "--trust-folder"},
			Hooks: "`.github/hooks/*.json` (`{\"version\": 1, \"hooks\": {…}}`, camelCase events), `~/.copilot/hooks`",
			Trap:  "`copilot -p` ignores the repository's hooks without `--trust-folder`, silently; and it reads `additionalContext` at the top level of a hook's JSON (Claude Code's `hookSpecificOutput` is ignored).",
			Notes: []string{"`COPILOT_PROVIDER_TYPE=anthropic` with the base URL without `/v1` speaks Anthropic Messages instead."},
		},
		{
			Agent: "qwen-code", Name: "Qwen Code", Package: "@qwen-code/qwen-code", Version: "0.24.4", API: OpenAI,
			Env:   []Var{{"OPENAI_BASE_URL", URL + "/v1"}, {"OPENAI_API_KEY", "capture"}, {"OPENAI_MODEL", "capture"}},
			Run:   []string{"qwen", "--yolo", Prompt},
			Hooks: "`hooks` in `.qwen/settings.json` (project), `~/.qwen/settings.json` (Claude Code's names and shape)",
			Trap:  "Without `--yolo` a headless run refuses every shell call, so no tool hook fires for it; `--safe-mode` and `--bare` skip hooks; a PreToolUse `additionalContext` never reaches the model.",
			Notes: []string{"A 5xx answer is retried many times: give the answers file a spare answer."},
		},
		{
			Agent: "opencode", Name: "opencode", Package: "opencode-ai", Version: "1.18.33", API: OpenAI,
			Env: []Var{{"OPENCODE_DISABLE_MODELS_FETCH", "1"}, {"OPENCODE_DISABLE_AUTOUPDATE", "1"}},
			Files: []File{{Path: "opencode.json", Merge: true, Format: "json", Content: `{
  "$schema": "https://opencode.ai/config.json",
  "provider": {
    "capture": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Hook Studio capture",
      "options": {"baseURL": "` + URL + `/v1", "apiKey": "capture"},
      "models": {"hookstudio": {"name": "Hook Studio capture"}}
    }
  },
  "model": "capture/hookstudio"
}
`}},
			Run:   []string{"opencode", "run", Prompt},
			Hooks: "JavaScript plugins in `.opencode/plugin/` (no command hooks)",
			Trap:  "opencode runs no command hooks: a `hooks` entry in its config does nothing; write a plugin (`chat.message`, `experimental.chat.system.transform`).",
			Notes: []string{"Each prompt sends a title call first (its own system prompt, no tools): answer it before the turn."},
		},
		{
			Agent: "factory-droid", Name: "Factory Droid", Package: "@factory/cli", Version: "0.225.2", Proprietary: true, API: OpenAI,
			Files: []File{{Path: "~/.factory/settings.json", Merge: true, Format: "json", Content: `{
  "customModels": [
    {"model": "capture", "displayName": "Capture", "baseUrl": "` + URL + `/v1", "apiKey": "capture", "provider": "generic-chat-completion-api"}
  ]
}
`}},
			Run:   []string{"droid", "exec", "-m", "custom:Capture-0", "--auto", "high", Prompt},
			Hooks: "`.factory/hooks.json` (project), `~/.factory/hooks.json`: the events at the file's top level",
			Trap:  "A `{\"hooks\": …}` wrapper (Claude Code's settings shape) is ignored — only a WARN in `~/.factory/logs/droid-log-single.log` says so; and UserPromptSubmit does not fire in `droid exec`.",
			Notes: []string{"Its `Execute` tool needs `riskLevel` and `riskLevelReason`: a scripted call without them is refused before any hook runs."},
		},
		{
			Agent: "cline", Name: "Cline", Package: "cline", Version: "3.0.65", API: OpenAI,
			Before: [][]string{{"cline", "auth", "-p", "openai", "-k", "capture", "-m", "capture", "-b", URL + "/v1"}},
			Run:    []string{"cline", Prompt},
			Hooks:  "one executable per event, named for it, in `.clinerules/hooks/` (project), `~/.cline/hooks/`",
			Trap:   "TaskStart's `contextModification` never reaches the model and UserPromptSubmit does not fire for the CLI's prompt: put context in PreToolUse / PostToolUse.",
			Notes:  []string{"It leaves a hub daemon running (`cline --cline-hub-daemon …`) after the task: end it."},
		},
	}
}

// Agents are the agents with a recipe, in the order of All.
func Agents() []string {
	var out []string
	for _, r := range All() {
		out = append(out, r.Agent)
	}
	return out
}

// Find is the recipe for agent.
func Find(agent string) (Recipe, error) {
	for _, r := range All() {
		if r.Agent == agent {
			return r, nil
		}
	}
	known := Agents()
	sort.Strings(known)
	return Recipe{}, fmt.Errorf("%w %q: the agents are %s", ErrUnknown, agent, strings.Join(known, ", "))
}

// For fills in the capture's base URL (http://127.0.0.1:PORT) and the
// prompt ("" is SamplePrompt) and sets Lines.
func (r Recipe) For(url, prompt string) Recipe {
	if prompt == "" {
		prompt = SamplePrompt
	}
	fill := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, URL, url), Prompt, prompt)
	}
	out := r
	out.Env = make([]Var, len(r.Env))
	for i, v := range r.Env {
		out.Env[i] = Var{v.Name, fill(v.Value)}
	}
	out.Files = make([]File, len(r.Files))
	for i, f := range r.Files {
		f.Content = fill(f.Content)
		out.Files[i] = f
	}
	out.Before = make([][]string, len(r.Before))
	for i, argv := range r.Before {
		out.Before[i] = fillAll(argv, fill)
	}
	out.Run = fillAll(r.Run, fill)
	out.Notes = append([]string{}, r.Notes...)
	out.Lines = nil
	if len(out.Env) > 0 {
		var vars []string
		for _, v := range out.Env {
			vars = append(vars, v.Name+"="+shellQuote(v.Value))
		}
		out.Lines = append(out.Lines, "export "+strings.Join(vars, " "))
	}
	for _, argv := range out.Before {
		out.Lines = append(out.Lines, shellLine(argv))
	}
	out.Lines = append(out.Lines, shellLine(out.Run))
	return out
}

// ForAPI are the recipes (filled in for url) whose agent speaks api; ""
// is every recipe.
func ForAPI(url, api string) []Recipe {
	out := []Recipe{}
	for _, r := range All() {
		if api == "" || r.API == api {
			out = append(out, r.For(url, ""))
		}
	}
	return out
}

func fillAll(argv []string, fill func(string) string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = fill(a)
	}
	return out
}

func shellLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// shellQuote quotes a word for a POSIX shell only where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+") == "" {
		return s
	}
	if !strings.ContainsAny(s, `"$`+"`\\!") {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
