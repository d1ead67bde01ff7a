package codexhook

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// wireField is one field of Codex's answer to a hook event as it reads it
// (codex-rs/hooks schema.rs: serde structs that deny unknown fields).
type wireField struct {
	kind string // "bool", "string", "any", "object", "event"
	// enum are the values a string may take (nil: any string)
	enum []string
	// fields are an object's; required must be there
	fields   map[string]wireField
	required bool
}

// universal are the fields every event's answer may hold.
var universal = map[string]wireField{
	"continue": {kind: "bool"}, "stopReason": {kind: "string"}, "suppressOutput": {kind: "bool"}, "systemMessage": {kind: "string"},
}

func specific(fields map[string]wireField) wireField {
	f := map[string]wireField{"hookEventName": {kind: "event", required: true}}
	for k, v := range fields {
		f[k] = v
	}
	return wireField{kind: "object", fields: f}
}

var (
	blockOnly   = wireField{kind: "string", enum: []string{"block"}}
	text        = wireField{kind: "string"}
	contextOnly = map[string]wireField{"additionalContext": text}
)

// wire is each event's answer as Codex 0.171 reads it (its
// *CommandOutputWire structs, seen refusing unknown fields and decisions
// other than "block" in codex exec): the fields beside the universal ones.
// An event left out is not read against a schema.
var wire = map[string]map[string]wireField{
	PreToolUse: {"decision": {kind: "string", enum: []string{"approve", "block"}}, "reason": text,
		"hookSpecificOutput": specific(map[string]wireField{"additionalContext": text, "permissionDecision": {kind: "string", enum: []string{"allow", "deny", "ask"}},
			"permissionDecisionReason": text, "updatedInput": {kind: "any"}})},
	PostToolUse: {"decision": blockOnly, "reason": text,
		"hookSpecificOutput": specific(map[string]wireField{"additionalContext": text, "updatedMCPToolOutput": {kind: "any"}})},
	PermissionRequest: {"hookSpecificOutput": specific(map[string]wireField{"decision": {kind: "object", fields: map[string]wireField{
		"behavior": {kind: "string", enum: []string{"allow", "deny"}, required: true}, "interrupt": {kind: "bool"}, "message": text,
		"updatedInput": {kind: "any"}, "updatedPermissions": {kind: "any"}}}})},
	SessionStart:     {"hookSpecificOutput": specific(contextOnly)},
	UserPromptSubmit: {"decision": blockOnly, "reason": text, "hookSpecificOutput": specific(contextOnly)},
	Stop:             {"decision": blockOnly, "reason": text},
	PreCompact:       {},
	PostCompact:      {},
}

// wireError says why Codex refuses a JSON answer to event as a whole — it
// then records the hook as failed and reads nothing of it, systemMessage
// included — "" when it reads it.
func wireError(event string, stdout []byte) string {
	fields, ok := wire[event]
	if !ok {
		return ""
	}
	var v any
	if json.Unmarshal(stdout, &v) != nil {
		return "not JSON"
	}
	all := map[string]wireField{}
	for k, f := range universal {
		all[k] = f
	}
	for k, f := range fields {
		all[k] = f
	}
	return check("", wireField{kind: "object", fields: all}, v)
}

func check(path string, f wireField, v any) string {
	name := path
	if name == "" {
		name = "the answer"
	}
	if v == nil {
		switch f.kind {
		case "bool", "event":
			return fmt.Sprintf("%s is null, not a %s", name, kindName(f.kind))
		}
		return "" // an optional field may be null
	}
	switch f.kind {
	case "bool":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%s must be true or false", name)
		}
	case "string", "event":
		s, ok := v.(string)
		switch {
		case !ok:
			return fmt.Sprintf("%s must be a string", name)
		case f.kind == "event" && !dialect.Known(s):
			return fmt.Sprintf("%s %q is not a Codex event", name, s)
		case f.enum != nil && !slices.Contains(f.enum, s):
			return fmt.Sprintf("%s %q: Codex accepts only %s", name, s, strings.Join(quote(f.enum), " or "))
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s must be a JSON object", name)
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub, known := f.fields[k]
			if !known {
				return fmt.Sprintf("unknown field %s (Codex reads %s)", join(path, k), strings.Join(quote(sorted(f.fields)), ", "))
			}
			if why := check(join(path, k), sub, m[k]); why != "" {
				return why
			}
		}
		for _, k := range sorted(f.fields) {
			if _, ok := m[k]; f.fields[k].required && !ok {
				return fmt.Sprintf("%s is missing", join(path, k))
			}
		}
	}
	return ""
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func kindName(kind string) string {
	if kind == "bool" {
		return "boolean"
	}
	return "string"
}

func sorted(m map[string]wireField) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func quote(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}
