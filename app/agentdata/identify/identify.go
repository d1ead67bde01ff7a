// Package identify tells which agent CLI sent a model request, and its
// version when the request says it, so capture can read the request with
// that agent's rendering profile. Each agent was run against capture
// (docs/agents/): most name themselves and their version in User-Agent;
// GitHub Copilot CLI and Cline send a generic SDK's User-Agent and are
// known by their own headers or their system prompt's first words.
package identify

import (
	"net/http"
	"regexp"
	"strings"
)

// Agent is the agent that sent a request.
type Agent struct {
	// Name is the agent's id as profiles and recipes name it ("codex");
	// "" when the request does not say.
	Name string `json:"name"`
	// Version is "" when the request does not carry it.
	Version string `json:"version,omitempty"`
	// By says how it was told: "user-agent", "headers", "system prompt".
	By string `json:"by"`
}

// userAgents are the User-Agent products each agent sends, with its version.
var userAgents = []struct {
	re   *regexp.Regexp
	name string
}{
	{regexp.MustCompile(`^claude-cli/(\S+)`), "claude-code"},
	{regexp.MustCompile(`^codex_(?:exec|cli_rs|vscode|tui)/(\S+)`), "codex"},
	{regexp.MustCompile(`^GeminiCLI(?:-[\w-]+)?/([^/\s]+)`), "gemini-cli"}, // GeminiCLI-tui/0.61.0/<model> (…)
	{regexp.MustCompile(`^QwenCode/(\S+)`), "qwen-code"},
	{regexp.MustCompile(`^factory-cli/(\S+)`), "factory-droid"},
	{regexp.MustCompile(`^opencode/(\S+)`), "opencode"},
}

// systemPrompts are the first words of agents' system prompts, for agents
// whose User-Agent is a generic SDK's.
var systemPrompts = []struct{ prefix, name string }{
	{"You are the GitHub Copilot CLI", "copilot-cli"},
	{"You are Cline", "cline"},
}

// Request tells the agent from a request's headers and its system prompt
// (the first system text, "" if none).
func Request(h http.Header, system string) Agent {
	ua := h.Get("User-Agent")
	for _, u := range userAgents {
		if m := u.re.FindStringSubmatch(ua); m != nil {
			return Agent{Name: u.name, Version: m[1], By: "user-agent"}
		}
	}
	// Copilot CLI: the OpenAI or Anthropic JS SDK with GitHub's header
	// saying who started the request (x-interaction-type only on the user's)
	if i := h.Get("X-Initiator"); i == "user" || i == "agent" {
		return Agent{Name: "copilot-cli", By: "headers"}
	}
	system = strings.TrimSpace(system)
	for _, s := range systemPrompts {
		if strings.HasPrefix(system, s.prefix) {
			return Agent{Name: s.name, By: "system prompt"}
		}
	}
	return Agent{}
}
