package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// body is a recorded request's body as the agent sent it: the model, the
// messages, the system prompt (the billing line first, as the agent sends
// it), the tools and the parameters, with the cache marks the request
// names. What the transcript does not hold is left out: the metadata (a
// user id), the stream flag, and the betas, which go in a header.
func (r *claudeReader) body(rec *claudeRecord, req *request) ([]byte, error) {
	marks := map[string]json.RawMessage{}
	for _, cc := range rec.CacheControl {
		marks[pathKey(cc.Path...)] = cc.Value
	}
	var buf bytes.Buffer
	buf.WriteString(`{"model":`)
	var params struct {
		Model json.RawMessage `json:"model"`
	}
	_ = json.Unmarshal(rec.Params, &params)
	buf.Write(orNull(params.Model))
	buf.WriteString(`,"messages":[`)
	stated := req.stated
	_, wires := r.messages(req)
	for i, w := range wires {
		if i > 0 {
			buf.WriteByte(',')
		}
		content, err := marked(w.content, pathKey("messages", i, "content"), marks)
		if err != nil {
			return nil, err
		}
		if w.role == "system" {
			content = flatten(content)
		}
		role, _ := json.Marshal(w.role)
		fmt.Fprintf(&buf, `{"role":%s,"content":%s`, role, orNull(content))
		if w.role == "system" && stated != nil {
			fmt.Fprintf(&buf, `,"output_config":%s`, stated)
			stated = nil
		}
		buf.WriteByte('}')
	}
	buf.WriteByte(']')
	if sh := req.shape; sh != nil {
		system, err := marked(sh.system, "system", marks)
		if err != nil {
			return nil, err
		}
		if b := r.billing(req.conv); b != "" {
			line, _ := json.Marshal(map[string]string{"type": "text", "text": b})
			system = prepend(system, line)
		}
		buf.WriteString(`,"system":`)
		buf.Write(orNull(system))
		if len(sh.tools) > 0 {
			tools, err := marked(sh.tools, "tools", marks)
			if err != nil {
				return nil, err
			}
			buf.WriteString(`,"tools":`)
			buf.Write(tools)
		}
	}
	if err := eachField(rec.Params, func(key string, v json.RawMessage) {
		if key != "model" && key != "betas" {
			k, _ := json.Marshal(key)
			buf.WriteByte(',')
			buf.Write(k)
			buf.WriteByte(':')
			buf.Write(v)
		}
	}); err != nil {
		return nil, err
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marked is a list (blocks, or a string content) with cache_control added
// to the elements marks names under prefix ("system 0", "messages 3
// content 1").
func marked(list json.RawMessage, prefix string, marks map[string]json.RawMessage) (json.RawMessage, error) {
	var hit bool
	for k := range marks {
		if len(k) > len(prefix) && k[:len(prefix)] == prefix && k[len(prefix)] == ' ' {
			hit = true
		}
	}
	if !hit {
		return list, nil
	}
	var s string
	if json.Unmarshal(list, &s) == nil {
		block, _ := json.Marshal(map[string]string{"type": "text", "text": s})
		list = append(append([]byte{'['}, block...), ']')
	}
	var items []json.RawMessage
	if err := json.Unmarshal(list, &items); err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	for i := range items {
		if v, ok := marks[pathKey(prefix, i)]; ok {
			items[i] = withField(items[i], "cache_control", v)
		}
	}
	return json.Marshal(items)
}

// flatten is a system message's content as sent: one text block with no
// cache mark goes as a string (measured on 2.1.332).
func flatten(content json.RawMessage) json.RawMessage {
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(content, &blocks) != nil || len(blocks) != 1 || len(blocks[0]) != 2 || string(blocks[0]["type"]) != `"text"` {
		return content
	}
	return blocks[0]["text"]
}

// withField is obj with key: value added at its end.
func withField(obj json.RawMessage, key string, value json.RawMessage) json.RawMessage {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return obj
	}
	k, _ := json.Marshal(key)
	out := append([]byte(nil), obj[:len(obj)-1]...)
	if len(bytes.TrimSpace(out)) > 1 {
		out = append(out, ',')
	}
	out = append(append(append(out, k...), ':'), value...)
	return append(out, '}')
}

// prepend is a JSON list with item first.
func prepend(list, item json.RawMessage) json.RawMessage {
	list = bytes.TrimSpace(list)
	if len(list) < 2 || list[0] != '[' {
		return list
	}
	out := append([]byte{'['}, item...)
	if len(bytes.TrimSpace(list[1:len(list)-1])) > 0 {
		out = append(out, ',')
	}
	return append(out, list[1:]...)
}

// eachField calls fn for each field of a JSON object, in order.
func eachField(obj json.RawMessage, fn func(key string, v json.RawMessage)) error {
	if len(obj) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(obj))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("params: not an object")
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return err
		}
		fn(t.(string), v)
	}
	return nil
}

func orNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return json.RawMessage("null")
	}
	return v
}

// pathKey names a place in a request: "system 0", "messages 3 content 1".
func pathKey(path ...any) string {
	parts := make([]string, len(path))
	for i, p := range path {
		switch x := p.(type) {
		case float64:
			parts[i] = strconv.Itoa(int(x))
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return strings.Join(parts, " ")
}
