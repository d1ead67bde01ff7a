// Package schema ships the JSON Schemas of hooks.json and scenario files,
// for editors (the app's raw view, VS Code) and for the tests that keep
// them equal to the Go validators.
package schema

import _ "embed"

// Hooks is the JSON Schema of hooks.json.
//
//go:embed hooks.schema.json
var Hooks string

// Scenario is the JSON Schema of scenario files.
//
//go:embed scenario.schema.json
var Scenario string

// RequestHooks is the JSON Schema of request-hooks.yaml (seed 004).
//
//go:embed request-hooks.schema.json
var RequestHooks string

// HooksYAML is the JSON Schema of jcli's hooks.yaml (seed 001 command hooks).
//
//go:embed hooks-yaml.schema.json
var HooksYAML string

// PicoClawHooks is the JSON Schema of PicoClaw process hook configs
// (skills/<skill>/hooks/picoclaw.json, .picoclaw/hooks.json; seed 003).
//
//go:embed picoclaw-hooks.schema.json
var PicoClawHooks string

// CodexHooks is the JSON Schema of Codex CLI's .codex/hooks.json.
//
//go:embed codex-hooks.schema.json
var CodexHooks string

// QwenSettings is the JSON Schema of the hooks in Qwen Code's .qwen/settings.json.
//
//go:embed qwen-settings.schema.json
var QwenSettings string

// GeminiSettings is the JSON Schema of the hooks part of Gemini CLI's
// settings.json (.gemini/settings.json).
//
//go:embed gemini-settings.schema.json
var GeminiSettings string

// GeminiExtensionHooks is the JSON Schema of a Gemini CLI extension's
// hooks/hooks.json.
//
//go:embed gemini-extension-hooks.schema.json
var GeminiExtensionHooks string

// CopilotHooks is the JSON Schema of a Copilot CLI hook file
// (.github/hooks/*.json, a plugin's hooks.json).
//
//go:embed copilot-hooks.schema.json
var CopilotHooks string

// DroidHooks is the JSON Schema of Factory Droid's .factory/hooks.json.
//
//go:embed droid-hooks.schema.json
var DroidHooks string
