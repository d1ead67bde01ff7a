package capture

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"
)

// Side is a side request: a call an agent makes on its own beside the
// user's turn — Gemini CLI's model router and next-speaker check (JSON
// for a schema), a title or a summary. Unless the answers file scripts
// side requests, it gets a minimal valid answer and takes none of the
// scripted ones, so one scripted answer per turn is enough.
//
// A request is a side request when
//   - it asks for JSON output: Gemini's generationConfig.responseJsonSchema,
//     responseSchema or responseMimeType "application/json"; Chat
//     Completions' response_format json_schema or json_object; Responses'
//     text.format json_schema or json_object; Anthropic's output_format
//     (kind "json", answered with an object valid for the schema), or
//   - it offers no tools and its system prompt, at most sideTextMax long,
//     asks for a title or a summary (kind "title" or "summary", answered
//     with a short text).
type Side struct {
	Kind string `json:"kind"` // SideJSON, SideTitle, SideSummary
	// Schema is the JSON schema the answer must match (SideJSON; none:
	// any JSON object).
	Schema json.RawMessage `json:"schema,omitempty"`
}

// Kinds of side request.
const (
	SideJSON    = "json"
	SideTitle   = "title"
	SideSummary = "summary"
)

// sideTextMax bounds the system prompt of a title or summary call: an
// agent's own prompt is far longer, and one that happens to mention a
// title is not a side request.
const sideTextMax = 4000

var (
	titleRe   = regexp.MustCompile(`(?i)\btitles?\b`)
	summaryRe = regexp.MustCompile(`(?i)\bsummar(?:y|ies|ise|ize|ising|izing)\b`)
)

// jsonSide is the side request format asks for (nil: none): a {type:
// json_schema|json_object} object, the schema at schemaPath in it.
func jsonSide(format gjson.Result, schemaPath string) *Side {
	if !format.IsObject() {
		return nil
	}
	switch format.Get("type").Str {
	case "json_schema":
		s := &Side{Kind: SideJSON}
		if sc := format.Get(schemaPath); sc.IsObject() {
			s.Schema = json.RawMessage(sc.Raw)
		}
		return s
	case "json_object":
		return &Side{Kind: SideJSON}
	}
	return nil
}

// geminiSide reads a generationConfig's request for JSON.
func geminiSide(gc gjson.Result) *Side {
	if !gc.IsObject() {
		return nil
	}
	for _, k := range []string{"responseJsonSchema", "response_json_schema", "responseSchema", "response_schema"} {
		if sc := gc.Get(k); sc.IsObject() {
			return &Side{Kind: SideJSON, Schema: json.RawMessage(sc.Raw)}
		}
	}
	if mt := geminiField(gc, "responseMimeType", "response_mime_type"); mt.Str == "application/json" {
		return &Side{Kind: SideJSON}
	}
	return nil
}

// textSide tells a title or summary call by its system prompt.
func textSide(system []string) *Side {
	text := strings.Join(system, "\n")
	if text == "" || len(text) > sideTextMax {
		return nil
	}
	switch {
	case titleRe.MatchString(text):
		return &Side{Kind: SideTitle}
	case summaryRe.MatchString(text):
		return &Side{Kind: SideSummary}
	}
	return nil
}

// The minimal answers of text side requests.
const (
	sideTitle   = "Captured session"
	sideSummary = "A session captured by Hook Studio."
)

// minimalAnswer is what a side request gets when nothing scripts it.
func minimalAnswer(s *Side) *Answer {
	switch s.Kind {
	case SideTitle:
		return &Answer{Content: sideTitle}
	case SideSummary:
		return &Answer{Content: sideSummary}
	}
	var schema any
	if len(s.Schema) > 0 {
		_ = json.Unmarshal(s.Schema, &schema) // checked as an object by inspect
	}
	inst := instance(schema, schema, 0)
	if _, ok := inst.(map[string]any); !ok && schema == nil {
		inst = map[string]any{}
	}
	data, err := json.Marshal(inst)
	if err != nil {
		data = []byte("{}")
	}
	return &Answer{Content: string(data)}
}

// instance is a small value valid for schema (JSON Schema, or the OpenAPI
// subset Gemini's responseSchema takes, types in capitals): the first of
// an enum or anyOf, every property of an object, as many items as
// minItems asks, the least number the bounds allow (1 when they say
// nothing), a short string.
func instance(schema, root any, depth int) any {
	s, ok := schema.(map[string]any)
	if !ok || depth > 12 {
		return map[string]any{}
	}
	if ref, ok := s["$ref"].(string); ok {
		return instance(resolveRef(root, ref), root, depth+1)
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if d, ok := s["default"]; ok {
		return d
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			for _, alt := range alts { // a null branch says nothing
				if m, ok := alt.(map[string]any); !ok || strings.ToLower(str(m["type"])) != "null" {
					return instance(alt, root, depth+1)
				}
			}
		}
	}
	switch schemaType(s) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, ps := range props {
			out[name] = instance(ps, root, depth+1)
		}
		return out
	case "array":
		n, _ := s["minItems"].(float64)
		out := []any{}
		for range int(n) {
			out = append(out, instance(s["items"], root, depth+1))
		}
		return out
	case "integer", "number":
		return number(s)
	case "boolean":
		return false
	case "null":
		return nil
	}
	return shortString(s)
}

// schemaType is the schema's type in lower case, the first that is not
// "null" of a list, else what its keywords imply.
func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return strings.ToLower(t)
	case []any:
		for _, x := range t {
			if x := strings.ToLower(str(x)); x != "null" && x != "" {
				return x
			}
		}
	}
	switch {
	case s["properties"] != nil:
		return "object"
	case s["items"] != nil:
		return "array"
	}
	return "string"
}

// number is the least the bounds allow, else 1: a count or a score ("from
// 1 to 100", Gemini CLI's router says in words only) is seldom 0.
func number(s map[string]any) any {
	v := 1.0
	if m, ok := s["minimum"].(float64); ok {
		v = m
	} else if m, ok := s["exclusiveMinimum"].(float64); ok {
		v = m + 1
	} else if m, ok := s["maximum"].(float64); ok && m < 1 {
		v = m
	}
	return v
}

func shortString(s map[string]any) string {
	switch str(s["format"]) {
	case "date-time":
		return "1970-01-01T00:00:00Z"
	case "date":
		return "1970-01-01"
	case "email":
		return "capture@example.invalid"
	case "uri", "url":
		return "https://example.invalid/"
	}
	out := "capture"
	if n, ok := s["minLength"].(float64); ok && int(n) > len(out) {
		out += strings.Repeat("x", int(n)-len(out))
	}
	if n, ok := s["maxLength"].(float64); ok && int(n) < len(out) {
		out = out[:max(int(n), 0)]
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// resolveRef follows a local reference ("#/$defs/Name").
func resolveRef(root any, ref string) any {
	path, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	cur := root
	for _, part := range strings.Split(path, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
	}
	return cur
}
