package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/services/edit"
)

// ClaudeEventInfo is what the form knows of an event: whether it fires in
// the simulated agent, has a matcher, reads handlers' "if".
type ClaudeEventInfo struct {
	Name    string `json:"name"`
	Fires   bool   `json:"fires"`
	Matcher bool   `json:"matcher"`
	If      bool   `json:"if"`
}

// ClaudeHooksEdit is a Claude Code settings text for the form: its hooks
// (JSON, key order as written), where each event, group and handler is,
// the events Claude Code knows and the file's diagnostics. Editable is
// false (Error says why) for a text the form cannot edit: raw only.
type ClaudeHooksEdit struct {
	Text        string            `json:"text"`
	Editable    bool              `json:"editable"`
	Error       string            `json:"error,omitempty"`
	Hooks       json.RawMessage   `json:"hooks"`
	Lines       map[string]int    `json:"lines"`
	Events      []ClaudeEventInfo `json:"events"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
}

func claudeEvents() []ClaudeEventInfo {
	var out []ClaudeEventInfo
	for _, e := range claudehook.KnownEvents() {
		out = append(out, ClaudeEventInfo{Name: string(e), Fires: e.Fires(), Matcher: e.HasMatcher(), If: e.HasIf()})
	}
	return out
}

// InspectClaudeHooks parses a Claude Code settings.json, plugin
// hooks.json or SKILL.md text for the form.
func (s *Service) InspectClaudeHooks(ctx context.Context, file, text string) ClaudeHooksEdit {
	r := ClaudeHooksEdit{Text: text, Hooks: json.RawMessage("{}"), Lines: map[string]int{}, Events: claudeEvents(),
		Diagnostics: s.LintFile(ctx, file, text)}
	h, err := edit.InspectClaudeHooks(file, []byte(text))
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Editable, r.Hooks, r.Lines = true, h.Hooks, h.Lines
	return r
}

// EditClaudeHooks writes the form's hooks into a Claude Code text, the
// rest of it as written.
func (s *Service) EditClaudeHooks(ctx context.Context, file, text string, hooks json.RawMessage) (ClaudeHooksEdit, error) {
	out, err := edit.EditClaudeHooks(file, []byte(text), hooks)
	if err != nil {
		return ClaudeHooksEdit{}, fmt.Errorf("%s: %w", file, err)
	}
	return s.InspectClaudeHooks(ctx, file, string(out)), nil
}

// ErrClaudeHooksJSON refuses to import a Claude Code hooks.json or
// settings.json as a seed 000 skill's hooks.json: its shape differs.
var ErrClaudeHooksJSON = errors.New(`this is Claude Code's hooks file ("hooks" is an object of events): import its plugin folder as a .zip, or open the project's folder`)

// claudeShaped says whether data is a JSON object whose "hooks" is an
// object (Claude Code's shape; seed 000's is a list).
func claudeShaped(data []byte) bool {
	doc, err := jsondoc.Parse(data)
	if err != nil || doc.Root.Kind != jsondoc.Object {
		return false
	}
	h := doc.Root.Get("hooks")
	return h != nil && h.Kind == jsondoc.Object
}
