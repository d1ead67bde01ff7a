package llm

import (
	"bytes"
	"encoding/json"
	"strings"
)

// RawArgumentsKey holds a tool call's arguments text when it is not a JSON
// object: the call still runs, and the text goes back to the model as it came.
const RawArgumentsKey = "_raw"

// ParseArguments reads a tool call's arguments leniently: "" is no
// arguments, a JSON object is the arguments, a JSON string holding an
// object (double encoding, seen from some local servers) is unwrapped,
// anything else is kept under RawArgumentsKey.
func ParseArguments(raw string) map[string]any {
	s := strings.TrimSpace(raw)
	if s == "" || s == "null" {
		return nil
	}
	s = stripFences(s)
	var v any
	if err := json.Unmarshal([]byte(s), &v); err == nil {
		switch v := v.(type) {
		case map[string]any:
			return v
		case string:
			var m map[string]any
			if json.Unmarshal([]byte(v), &m) == nil && m != nil {
				return m
			}
		}
	}
	return map[string]any{RawArgumentsKey: raw}
}

// argumentsJSON is the wire form of parsed arguments: the raw text back if
// it never was an object, else compact JSON.
func argumentsJSON(args map[string]any) string {
	if len(args) == 1 {
		if s, ok := args[RawArgumentsKey].(string); ok {
			return s
		}
	}
	if args == nil {
		return "{}"
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// CanonicalJSON is v as JSON with object keys sorted (encoding/json sorts
// map keys) and no insignificant space: the key of a tool-result table.
// Numbers are normalised through float64, so 1 and 1.0 are the same key.
func CanonicalJSON(v any) string {
	if v == nil {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if string(b) == "null" {
		return "{}" // a nil map: no arguments
	}
	var n any
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&n); err != nil {
		return string(b)
	}
	if m, ok := n.(map[string]any); ok && len(m) == 0 {
		return "{}"
	}
	out, err := json.Marshal(n)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// stripFences removes a Markdown code fence around s, if any.
func stripFences(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSpace(s)
	return strings.TrimSpace(strings.TrimSuffix(s, "```"))
}
