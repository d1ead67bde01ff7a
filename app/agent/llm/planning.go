package llm

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// PlanningPrompt is the planning prompt suited to a real model: it asks
// for a decision ParseDecision can read. Put it in a scenario's
// prompts.planning (or propose it as the engine's default).
const PlanningPrompt = "Before acting, decide whether the user's request needs a tool. " +
	"Answer with one JSON object and nothing else.\n" +
	"If a tool is needed: {\"need_tool\": true, \"plan\": \"which tools you will call, in what order, and why\"}\n" +
	"If no tool is needed: {\"need_tool\": false, \"answer\": \"your complete answer to the user\"}"

// Decision is a planning answer read as a decision.
type Decision struct {
	NeedTool bool
	// Plan is the plan or answer text found next to the decision, if any.
	Plan string
	// How says which reading found it: "json", "key" or "word".
	How string
}

// ParseDecision reads a planning answer leniently, in order: a JSON object
// anywhere in the text (code fences, single quotes and Python's
// True/False tolerated) with a need_tool-like key; a need_tool: yes/no
// pair in plain text; an answer that starts with yes or no. ok is false
// when none of them decides.
func ParseDecision(text string) (d Decision, ok bool) {
	if len(text) > 64<<10 {
		text = text[:64<<10]
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		if m := objectAt(text[i:]); m != nil {
			if d, ok := decisionOf(m); ok {
				d.How = "json"
				return d, true
			}
		}
	}
	if m := keyPattern.FindStringSubmatch(text); m != nil {
		if b, ok := truth(m[1]); ok {
			return Decision{NeedTool: b, How: "key"}, true
		}
	}
	first := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(first) > 0 {
		switch strings.ToLower(first[0]) {
		case "yes":
			return Decision{NeedTool: true, How: "word"}, true
		case "no":
			return Decision{NeedTool: false, How: "word"}, true
		}
	}
	return Decision{}, false
}

var keyPattern = regexp.MustCompile(`(?i)\bneeds?[_ -]?tools?\b["']?\s*[:=]\s*["']?(true|false|yes|no)\b`)

// objectAt decodes the JSON object that starts s, trying a strict read
// first, then the shortest brace-balanced prefix with quotes and Python
// literals repaired.
func objectAt(s string) map[string]any {
	var m map[string]any
	if err := json.NewDecoder(strings.NewReader(s)).Decode(&m); err == nil {
		return m
	}
	depth := 0
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				fixed := pythonish.Replace(s[:j+1])
				m = nil
				if json.Unmarshal([]byte(fixed), &m) == nil {
					return m
				}
				return nil
			}
		}
	}
	return nil
}

var pythonish = strings.NewReplacer("'", `"`, "True", "true", "False", "false", "None", "null")

// decisionOf finds the decision in a decoded object.
func decisionOf(m map[string]any) (Decision, bool) {
	var d Decision
	found := false
	for k, v := range m {
		switch normKey(k) {
		case "needtool", "needtools", "needstool", "needstools", "usetool", "usetools", "toolneeded", "toolsneeded", "requirestool", "requirestools":
			if b, ok := truthValue(v); ok {
				d.NeedTool, found = b, true
			}
		case "plan", "answer", "reply", "response", "reason", "reasoning":
			if s, ok := v.(string); ok && d.Plan == "" {
				d.Plan = s
			}
		}
	}
	return d, found
}

func normKey(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func truthValue(v any) (bool, bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case float64:
		return v != 0, true
	case string:
		return truth(v)
	}
	return false, false
}

func truth(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "yes", "y", "true":
		return true, true
	case "no", "n", "false":
		return false, true
	}
	if b, err := strconv.ParseBool(s); err == nil {
		return b, true
	}
	return false, false
}
