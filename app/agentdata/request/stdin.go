package request

import (
	"bytes"
	"encoding/json"
	"slices"
)

// OrderStdin writes the JSON object in — a hook's stdin for event — with
// its keys in the order the CLI sends that event's (Stdin): those the
// model knows first, in its order, then the others as they came. A nil
// model, an event it has no order for, or in not an object: in as it is.
func (m *Model) OrderStdin(event string, in []byte) []byte {
	if m == nil || len(m.Stdin[event]) == 0 {
		return in
	}
	order := m.Stdin[event]
	fields, ok := ObjectFields(in)
	if !ok {
		return in
	}
	rank := func(k string) int {
		if i := slices.Index(order, k); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(fields, func(a, b Field) int { return rank(a.Name) - rank(b.Name) })
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := marshal(f.Name)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(f.Value)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// ObjectFields are a JSON object's fields in the order written; false
// when raw is no object. An object cut short gives the fields before.
func ObjectFields(raw []byte) ([]Field, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var out []Field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out, false
		}
		out = append(out, Field{Name: k, Value: v})
	}
	return out, true
}
