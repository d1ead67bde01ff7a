package hookrun

import (
	"encoding/json"
	"strings"
)

// Fields is a JSON object that keeps its keys in the order added, as the
// agents write a hook's stdin; a value may be Fields itself.
type Fields struct {
	keys []string
	vals []any
}

// Add appends a key.
func (f *Fields) Add(k string, v any) { f.keys, f.vals = append(f.keys, k), append(f.vals, v) }

// Set replaces key's value where it stands (appends a key not there).
func (f *Fields) Set(k string, v any) {
	for i, x := range f.keys {
		if x == k {
			f.vals[i] = v
			return
		}
	}
	f.Add(k, v)
}

// JSON is the object.
func (f *Fields) JSON() []byte {
	out := []byte{'{'}
	for i, k := range f.keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, marshal(k)...), ':'), marshal(f.vals[i])...)
	}
	return append(out, '}')
}

// MarshalJSON lets Fields stand inside other values.
func (f *Fields) MarshalJSON() ([]byte, error) { return f.JSON(), nil }

func marshal(v any) []byte {
	if f, ok := v.(*Fields); ok {
		return f.JSON()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// Stdin is an agent's stdin per event, as data: the keys in the order its
// CLI writes them. A key is "name" (its value is the source of that name),
// "name=source" (another source's value under this name) or
// "name:=text" (the text itself).
type Stdin map[string][]string

// Values are where a stdin's values come from, by source name: a value,
// or a func() any computed when asked.
type Values map[string]any

// Omit is the value of a key the agent leaves out of this event's stdin
// (Qwen Code's submitted_prompt of an empty prompt).
type Omit struct{}

// Build is event's stdin with values; a source values lacks is null.
func (s Stdin) Build(event string, values Values) *Fields {
	f := &Fields{}
	for _, k := range s[event] {
		name, src := k, k
		var v any
		switch {
		case strings.Contains(k, ":="):
			name, src, _ = strings.Cut(k, ":=")
			f.Add(name, src)
			continue
		case strings.Contains(k, "="):
			name, src, _ = strings.Cut(k, "=")
		}
		v = values[src]
		if fn, ok := v.(func() any); ok {
			v = fn()
		}
		if _, omit := v.(Omit); !omit {
			f.Add(name, v)
		}
	}
	return f
}

// Keys joins lists of keys (a prefix every event shares, then its own).
func Keys(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
