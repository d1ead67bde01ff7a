package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// ErrBadRequest marks a request refused before it is answered: not JSON,
// or not of the shape its API asks for. It consumes no answer.
var ErrBadRequest = errors.New("bad request")

// head is what the endpoint reads of a request before answering it. The
// request is checked whole against its API's shape, but its texts are not
// decoded: gjson walks the bytes (a 50 KB request in a few tens of
// microseconds, where encoding/json takes a millisecond and more), and the
// full parse happens once the answer is on its way (parse).
type head struct {
	model        string
	stream       bool
	includeUsage bool // Chat Completions' stream_options.include_usage
	tools        int
	side         *Side
}

// inspect checks data's shape for api and reads its head. model and
// stream come from the path for Gemini (the URL names both).
func inspect(api API, data []byte, gem geminiPath) (head, error) {
	if !gjson.ValidBytes(data) {
		return head{}, fmt.Errorf("%w: %s", ErrBadRequest, syntaxProblem(data))
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return head{}, fmt.Errorf("%w: the body must be a JSON object, not %s", ErrBadRequest, kindOf(root))
	}
	p := &shape{}
	var h head
	var system []string // the system prompt's texts, to tell a title or summary call
	switch api {
	case Anthropic:
		h, system = checkAnthropic(root, p)
	case OpenAI:
		h, system = checkChat(root, p)
	case Responses:
		h, system = checkResponses(root, p)
	case Gemini:
		h, system = checkGemini(root, p)
		h.model, h.stream = gem.model, gem.stream
	}
	if len(p.problems) > 0 {
		return head{}, fmt.Errorf("%w: %s", ErrBadRequest, strings.Join(p.problems, "; "))
	}
	if h.side == nil && h.tools == 0 {
		h.side = textSide(system)
	}
	return h, nil
}

// syntaxProblem says where data stops being JSON (line and column).
func syntaxProblem(data []byte) string {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return "the body is not JSON"
	}
	line, col := 1, 1
	for _, b := range data[:min(int(se.Offset), len(data))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("the body is not JSON: %s at line %d, column %d", se.Error(), line, col)
}

// shape gathers every problem of a request's shape, each at its JSON path
// and in the API's own words.
type shape struct{ problems []string }

// maxProblems keeps the message readable for a request wrong everywhere.
const maxProblems = 8

func (s *shape) bad(path, want string, got gjson.Result) {
	if len(s.problems) < maxProblems {
		s.problems = append(s.problems, fmt.Sprintf("%s must be %s, not %s", path, want, kindOf(got)))
	}
}

func (s *shape) missing(path, what string) {
	if len(s.problems) < maxProblems {
		s.problems = append(s.problems, fmt.Sprintf("%s is required: %s", path, what))
	}
}

// optional checks that field, when present, is of one of the types kinds
// names ("string", "bool", "object", "list"), saying want otherwise.
func (s *shape) optional(obj getter, parent, field, want string, kinds ...string) gjson.Result {
	r := obj.Get(escapeKey(field))
	if r.Exists() && r.Type != gjson.Null && !isKind(r, kinds...) {
		s.bad(join(parent, field), want, r)
	}
	return r
}

// getter is a JSON object's members by name: a gjson.Result, or fields.
type getter interface {
	Get(path string) gjson.Result
}

// fields are an object's members read in one pass: each Get of a gjson
// object scans it from its start, and a request's top level is all of it.
type fields []field

type field struct {
	key string
	val gjson.Result
}

func fieldsOf(obj gjson.Result) fields {
	var f fields
	obj.ForEach(func(k, v gjson.Result) bool {
		f = append(f, field{k.Str, v})
		return true
	})
	return f
}

// Get is the member named key (a name, not a gjson path).
func (f fields) Get(key string) gjson.Result {
	for _, x := range f {
		if x.key == key {
			return x.val
		}
	}
	return gjson.Result{}
}

// list calls fn with each element of r when it is a list, and says want
// (a list of …) otherwise; required says whether a missing r is wrong.
func (s *shape) list(r gjson.Result, path, want string, required bool, fn func(i int, el gjson.Result)) {
	switch {
	case !r.Exists() || r.Type == gjson.Null:
		if required {
			s.missing(path, want)
		}
	case !r.IsArray():
		s.bad(path, want, r)
	default:
		i := 0
		r.ForEach(func(_, el gjson.Result) bool {
			fn(i, el)
			i++
			return len(s.problems) < maxProblems
		})
	}
}

func isKind(r gjson.Result, kinds ...string) bool {
	for _, k := range kinds {
		switch {
		case k == "string" && r.Type == gjson.String,
			k == "bool" && (r.Type == gjson.True || r.Type == gjson.False),
			k == "number" && r.Type == gjson.Number,
			k == "object" && r.IsObject(),
			k == "list" && r.IsArray():
			return true
		}
	}
	return false
}

func kindOf(r gjson.Result) string {
	switch {
	case !r.Exists():
		return "missing"
	case r.Type == gjson.String:
		return "a string"
	case r.Type == gjson.Number:
		return "a number"
	case r.Type == gjson.True || r.Type == gjson.False:
		return "true/false"
	case r.Type == gjson.Null:
		return "null"
	case r.IsArray():
		return "a list"
	default:
		return "an object"
	}
}

func join(parent, field string) string {
	if parent == "" {
		return field
	}
	return parent + "." + field
}

func at(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

// escapeKey makes a field name a gjson path of one step.
func escapeKey(k string) string {
	if !strings.ContainsAny(k, ".*?|#@\\") {
		return k
	}
	var b strings.Builder
	for _, r := range k {
		if strings.ContainsRune(".*?|#@\\", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// texts are the texts of a string or a list of {text} blocks.
func texts(r gjson.Result) []string {
	if r.Type == gjson.String {
		return []string{r.Str}
	}
	var out []string
	r.ForEach(func(_, b gjson.Result) bool {
		if t := b.Get("text"); t.Type == gjson.String {
			out = append(out, t.Str)
		}
		return true
	})
	return out
}

const (
	wantAnthropicMessages = "a list of {role, content}"
	wantAnthropicContent  = `a string or a list of content blocks ({"type": …})`
	wantChatMessages      = "a list of {role, content}"
	wantChatContent       = `a string, null or a list of content parts ({"type": …})`
	wantResponsesInput    = `a string or a list of input items ({"type": …} or {role, content})`
	wantGeminiContents    = "a list of {role, parts}"
	wantGeminiParts       = `a list of parts ({"text": …}, {"functionCall": …}, …)`
)

func checkAnthropic(obj gjson.Result, p *shape) (head, []string) {
	root := fieldsOf(obj)
	h := head{model: p.optional(root, "", "model", "a string", "string").Str, stream: p.optional(root, "", "stream", "true or false", "bool").Bool()}
	p.list(root.Get("messages"), "messages", wantAnthropicMessages, true, func(i int, m gjson.Result) {
		path := at("messages", i)
		if !m.IsObject() {
			p.bad(path, "a {role, content} object", m)
			return
		}
		if r := m.Get("role"); r.Type != gjson.String {
			p.bad(path+".role", `a string ("user" or "assistant")`, r)
		}
		content := m.Get("content")
		if !content.Exists() {
			p.missing(path+".content", wantAnthropicContent)
			return
		}
		checkBlocks(content, path+".content", p)
	})
	system := p.optional(root, "", "system", "a string or a list of text blocks", "string", "list")
	if system.IsArray() {
		checkBlocks(system, "system", p)
	}
	p.list(root.Get("tools"), "tools", "a list of tools ({name, input_schema})", false, func(i int, t gjson.Result) {
		if !t.IsObject() {
			p.bad(at("tools", i), "a tool ({name, input_schema})", t)
			return
		}
		p.optional(t, at("tools", i), "name", "a string", "string")
		h.tools++
	})
	h.side = jsonSide(root.Get("output_format"), "schema")
	if h.side == nil {
		h.side = jsonSide(root.Get("output_config").Get("format"), "schema")
	}
	return h, texts(system)
}

// checkBlocks checks an Anthropic content: a string or a list of blocks,
// a tool_result's own content the same.
func checkBlocks(content gjson.Result, path string, p *shape) {
	if content.Type == gjson.String {
		return
	}
	p.list(content, path, wantAnthropicContent, false, func(i int, b gjson.Result) {
		bp := at(path, i)
		if !b.IsObject() {
			p.bad(bp, `a content block ({"type": …})`, b)
			return
		}
		typ := b.Get("type")
		if typ.Type != gjson.String {
			p.bad(bp+".type", `a string ("text", "tool_use", "tool_result", …)`, typ)
			return
		}
		switch typ.Str {
		case "text":
			p.optional(b, bp, "text", "a string", "string")
		case "tool_use":
			p.optional(b, bp, "name", "a string", "string")
			p.optional(b, bp, "input", "an object", "object")
		case "tool_result":
			if c := b.Get("content"); c.Exists() && c.Type != gjson.Null {
				checkBlocks(c, bp+".content", p)
			}
		}
	})
}

func checkChat(obj gjson.Result, p *shape) (head, []string) {
	root := fieldsOf(obj)
	h := head{model: p.optional(root, "", "model", "a string", "string").Str, stream: p.optional(root, "", "stream", "true or false", "bool").Bool()}
	h.includeUsage = p.optional(root, "", "stream_options", "an object", "object").Get("include_usage").Bool()
	var system []string
	p.list(root.Get("messages"), "messages", wantChatMessages, true, func(i int, m gjson.Result) {
		path := at("messages", i)
		if !m.IsObject() {
			p.bad(path, "a {role, content} object", m)
			return
		}
		role := m.Get("role")
		if role.Type != gjson.String {
			p.bad(path+".role", `a string ("system", "user", "assistant", "tool", …)`, role)
		}
		content := m.Get("content")
		switch {
		case content.Type == gjson.String:
			if role.Str == "system" || role.Str == "developer" {
				system = append(system, content.Str)
			}
		case content.IsArray():
			p.list(content, path+".content", wantChatContent, false, func(j int, part gjson.Result) {
				if t := part.Get("type"); !part.IsObject() || t.Type != gjson.String {
					p.bad(at(path+".content", j), `a content part ({"type": …})`, part)
				}
			})
			if role.Str == "system" || role.Str == "developer" {
				system = append(system, texts(content)...)
			}
		case content.Exists() && content.Type != gjson.Null:
			p.bad(path+".content", wantChatContent, content)
		}
		p.list(m.Get("tool_calls"), path+".tool_calls", "a list of {id, function: {name, arguments}}", false, func(j int, tc gjson.Result) {
			tp := at(path+".tool_calls", j)
			fn := tc.Get("function")
			if !tc.IsObject() || !fn.IsObject() {
				p.bad(tp, "a tool call ({id, function: {name, arguments}})", tc)
				return
			}
			p.optional(fn, tp+".function", "name", "a string", "string")
			p.optional(fn, tp+".function", "arguments", "a string (the arguments' JSON)", "string")
		})
	})
	p.list(root.Get("tools"), "tools", `a list of tools ({"type": "function", "function": {name, parameters}})`, false, func(i int, t gjson.Result) {
		if !t.IsObject() {
			p.bad(at("tools", i), `a tool ({"type": "function", "function": {name, parameters}})`, t)
			return
		}
		h.tools++
	})
	rf := p.optional(root, "", "response_format", `an object ({"type": …})`, "object")
	h.side = jsonSide(rf, "json_schema.schema")
	return h, system
}

func checkResponses(obj gjson.Result, p *shape) (head, []string) {
	root := fieldsOf(obj)
	h := head{model: p.optional(root, "", "model", "a string", "string").Str, stream: p.optional(root, "", "stream", "true or false", "bool").Bool()}
	system := texts(p.optional(root, "", "instructions", "a string", "string"))
	input := root.Get("input")
	if input.Exists() && input.Type != gjson.String && input.Type != gjson.Null {
		p.list(input, "input", wantResponsesInput, false, func(i int, it gjson.Result) {
			path := at("input", i)
			if !it.IsObject() {
				p.bad(path, `an input item ({"type": …} or {role, content})`, it)
				return
			}
			typ := it.Get("type")
			if typ.Exists() && typ.Type != gjson.String {
				p.bad(path+".type", `a string ("message", "function_call", "function_call_output", …)`, typ)
				return
			}
			switch typ.Str {
			case "", "message":
				role := it.Get("role")
				if role.Type != gjson.String {
					p.bad(path+".role", `a string ("user", "assistant", "system" or "developer")`, role)
				}
				content := it.Get("content")
				switch {
				case content.Type == gjson.String:
				case content.IsArray():
					p.list(content, path+".content", "", false, func(j int, part gjson.Result) {
						if t := part.Get("type"); !part.IsObject() || t.Type != gjson.String {
							p.bad(at(path+".content", j), `a content part ({"type": "input_text", "text": …}, …)`, part)
						}
					})
				default:
					p.bad(path+".content", `a string or a list of content parts ({"type": "input_text", "text": …}, …)`, content)
				}
				if role.Str == "system" || role.Str == "developer" {
					system = append(system, texts(content)...)
				}
			case "function_call":
				p.optional(it, path, "call_id", "a string", "string")
				p.optional(it, path, "name", "a string", "string")
				p.optional(it, path, "arguments", "a string (the arguments' JSON)", "string")
			case "function_call_output", "custom_tool_call_output":
				p.optional(it, path, "call_id", "a string", "string")
				p.optional(it, path, "output", "a string or a list of content parts", "string", "list")
			case "custom_tool_call":
				p.optional(it, path, "call_id", "a string", "string")
				p.optional(it, path, "name", "a string", "string")
				p.optional(it, path, "input", "a string", "string")
			}
		})
	}
	p.list(root.Get("tools"), "tools", `a list of tools ({"type": "function", name, parameters}, …)`, false, func(i int, t gjson.Result) {
		if !t.IsObject() || t.Get("type").Type != gjson.String {
			p.bad(at("tools", i), `a tool ({"type": "function", name, parameters}, …)`, t)
			return
		}
		h.tools++
	})
	text := p.optional(root, "", "text", `an object ({"format": …})`, "object")
	h.side = jsonSide(text.Get("format"), "schema")
	return h, system
}

func checkGemini(obj gjson.Result, p *shape) (head, []string) {
	root := fieldsOf(obj)
	var h head
	contents := root.Get("contents")
	p.list(contents, "contents", wantGeminiContents, true, func(i int, c gjson.Result) {
		path := at("contents", i)
		if !c.IsObject() {
			p.bad(path, "a {role, parts} object", c)
			return
		}
		if r := c.Get("role"); r.Exists() && r.Type != gjson.String {
			p.bad(path+".role", `a string ("user" or "model")`, r)
		}
		checkParts(c.Get("parts"), path+".parts", p)
	})
	si := geminiField(root, "systemInstruction", "system_instruction")
	var system []string
	switch {
	case si.Type == gjson.String: // the REST API takes a bare text too
		system = []string{si.Str}
	case si.IsObject():
		checkParts(si.Get("parts"), "systemInstruction.parts", p)
		system = texts(si.Get("parts"))
	case si.Exists() && si.Type != gjson.Null:
		p.bad("systemInstruction", "a {parts} object", si)
	}
	p.list(root.Get("tools"), "tools", `a list of tools ({"functionDeclarations": […]}, …)`, false, func(i int, t gjson.Result) {
		if !t.IsObject() {
			p.bad(at("tools", i), `a tool ({"functionDeclarations": […]}, …)`, t)
			return
		}
		fd := geminiField(t, "functionDeclarations", "function_declarations")
		p.list(fd, at("tools", i)+".functionDeclarations", "a list of {name, description, parameters}", false, func(j int, d gjson.Result) {
			if !d.IsObject() || d.Get("name").Type != gjson.String {
				p.bad(at(at("tools", i)+".functionDeclarations", j), "a function declaration ({name, description, parameters})", d)
				return
			}
			h.tools++
		})
	})
	gc := geminiField(root, "generationConfig", "generation_config")
	if gc.Exists() && !gc.IsObject() {
		p.bad("generationConfig", "an object", gc)
	}
	h.side = geminiSide(gc)
	return h, system
}

// geminiField is a field the REST API takes in camelCase or snake_case.
func geminiField(obj getter, camel, snake string) gjson.Result {
	if r := obj.Get(camel); r.Exists() {
		return r
	}
	return obj.Get(snake)
}

func checkParts(parts gjson.Result, path string, p *shape) {
	p.list(parts, path, wantGeminiParts, true, func(i int, part gjson.Result) {
		pp := at(path, i)
		if !part.IsObject() {
			p.bad(pp, `a part ({"text": …}, {"functionCall": …}, …)`, part)
			return
		}
		if t := part.Get("text"); t.Exists() && t.Type != gjson.String {
			p.bad(pp+".text", "a string", t)
		}
		if fc := geminiField(part, "functionCall", "function_call"); fc.Exists() && (!fc.IsObject() || fc.Get("name").Type != gjson.String) {
			p.bad(pp+".functionCall", "a {name, args} object", fc)
		}
		if fr := geminiField(part, "functionResponse", "function_response"); fr.Exists() && (!fr.IsObject() || fr.Get("name").Type != gjson.String) {
			p.bad(pp+".functionResponse", "a {name, response} object", fr)
		}
	})
}
