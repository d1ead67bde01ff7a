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
	dec := json.NewDecoder(bytes.NewReader(in))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return in
	}
	type field struct {
		key string
		raw json.RawMessage
	}
	var fields []field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return in
		}
		k, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return in
		}
		fields = append(fields, field{k, raw})
	}
	rank := func(k string) int {
		if i := slices.Index(order, k); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(fields, func(a, b field) int { return rank(a.key) - rank(b.key) })
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := marshal(f.key)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(f.raw)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
