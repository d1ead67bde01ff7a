package capture

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// geminiPath is what a Gemini API path says: the model and the method
// (/v1beta/models/{model}:generateContent, :streamGenerateContent,
// :countTokens).
type geminiPath struct {
	model  string
	method string
	stream bool
}

// parseGeminiPath reads path; ok is false for a path that is not a model
// method of the Gemini API.
func parseGeminiPath(path string) (geminiPath, bool) {
	for _, v := range []string{"/v1beta/models/", "/v1/models/", "/v1alpha/models/"} {
		if rest, found := strings.CutPrefix(path, v); found {
			i := strings.LastIndexByte(rest, ':')
			if i <= 0 {
				return geminiPath{}, false
			}
			g := geminiPath{model: rest[:i], method: rest[i+1:]}
			g.stream = g.method == "streamGenerateContent"
			return g, true
		}
	}
	return geminiPath{}, false
}

type geminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// parseGemini reads a Gemini API request that inspect has checked (gjson,
// a level at a time: see parseAnthropic). The REST API takes camelCase and
// snake_case field names alike.
func parseGemini(data []byte, gp geminiPath) (*Request, []string, error) {
	root := fieldsOf(gjson.ParseBytes(data))
	req := &Request{API: Gemini, Model: gp.model, Stream: gp.stream, Tools: []string{}}
	root.Get("tools").ForEach(func(_, t gjson.Result) bool {
		geminiField(t, "functionDeclarations", "function_declarations").ForEach(func(_, d gjson.Result) bool {
			req.Tools = append(req.Tools, d.Get("name").Str)
			return true
		})
		return true
	})
	var warnings []string
	si := geminiField(root, "systemInstruction", "system_instruction")
	if si.Type == gjson.String && si.Str != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: si.Str, Origin: OriginSystem})
	}
	si.Get("parts").ForEach(func(_, p gjson.Result) bool {
		if t := p.Get("text"); t.Type == gjson.String {
			req.Messages = append(req.Messages, Message{Role: "system", Content: t.Str, Origin: OriginSystem})
		}
		return true
	})
	// A functionCall without an id (the API gives none by default) is
	// named by where it is; its functionResponse, which has none either,
	// answers the first open call of its name.
	var open []ToolCall
	i := 0
	root.Get("contents").ForEach(func(_, cr gjson.Result) bool {
		c := fieldsOf(cr)
		model := c.Get("role").Str == "model"
		am := Message{Role: "assistant", Origin: OriginAssistant}
		var text []string
		j := 0
		c.Get("parts").ForEach(func(_, pr gjson.Result) bool {
			p := fieldsOf(pr)
			at := fmt.Sprintf("contents[%d].parts[%d]", i, j)
			j++
			fc := geminiField(p, "functionCall", "function_call")
			fr := geminiField(p, "functionResponse", "function_response")
			switch {
			case model && p.Get("thought").Bool():
				req.Messages = append(req.Messages, Message{Role: "assistant", Content: pr.Raw, Origin: OriginAssistant, Kind: "thought"})
			case model && p.Get("text").Type == gjson.String:
				text = append(text, p.Get("text").Str)
			case model && fc.IsObject():
				id := fc.Get("id").Str
				if id == "" {
					id = fmt.Sprintf("gemini_%d_%d", i, j-1)
				}
				tc := ToolCall{ID: id, Name: fc.Get("name").Str, Arguments: rawOr(json.RawMessage(fc.Get("args").Raw))}
				am.ToolCalls = append(am.ToolCalls, tc)
				open = append(open, tc)
			case !model && p.Get("text").Type == gjson.String:
				req.Messages = append(req.Messages, userText(p.Get("text").Str)...)
			case !model && fr.IsObject():
				id, name := fr.Get("id").Str, fr.Get("name").Str
				for k, tc := range open {
					if id == "" && tc.Name == name || id != "" && tc.ID == id {
						id, open = tc.ID, append(open[:k:k], open[k+1:]...)
						break
					}
				}
				text, isErr := geminiResponseText(fr.Get("response"))
				req.Messages = append(req.Messages, toolResult(id, text, isErr))
			default:
				kind, known := geminiKind(p)
				role, origin := "user", OriginUser
				if model {
					role, origin = "assistant", OriginAssistant
				}
				req.Messages = append(req.Messages, Message{Role: role, Content: pr.Raw, Origin: origin, Kind: kind})
				if !known {
					warnings = append(warnings, at+": a part of a kind this capture does not read: kept as it came")
				}
			}
			return true
		})
		if am.Content = strings.Join(text, "\n"); model && (am.Content != "" || len(am.ToolCalls) > 0) {
			req.Messages = append(req.Messages, am)
		}
		i++
		return true
	})
	return req, warnings, nil
}

// geminiKind names a part that is not text or a function call or
// response, and says whether it is a kind the API has.
func geminiKind(p fields) (string, bool) {
	for _, k := range []string{"inlineData", "inline_data", "fileData", "file_data", "executableCode", "executable_code",
		"codeExecutionResult", "code_execution_result"} {
		if p.Get(k).Exists() {
			return k, true
		}
	}
	var names []string
	for _, f := range p {
		if f.key != "thoughtSignature" && f.key != "thought_signature" {
			names = append(names, f.key)
		}
	}
	if len(names) == 1 {
		return names[0], false
	}
	return "part", false
}

// geminiResponseText is a functionResponse's text: its output (or error)
// when that is all it has, else the response's JSON.
func geminiResponseText(r gjson.Result) (string, bool) {
	f := fieldsOf(r)
	if len(f) == 1 && f[0].val.Type == gjson.String {
		switch f[0].key {
		case "output", "result":
			return f[0].val.Str, false
		case "error":
			return f[0].val.Str, true
		}
	}
	return r.Raw, false
}

// The Gemini API's answer.
type (
	geminiAnswerPart struct {
		Text         *string             `json:"text,omitempty"`
		FunctionCall *geminiFunctionCall `json:"functionCall,omitempty"`
	}
	geminiCandidate struct {
		Content struct {
			Role  string             `json:"role"`
			Parts []geminiAnswerPart `json:"parts"`
		} `json:"content"`
		FinishReason string `json:"finishReason,omitempty"`
		Index        int    `json:"index"`
	}
	geminiUsage struct {
		Prompt     int `json:"promptTokenCount"`
		Candidates int `json:"candidatesTokenCount"`
		Total      int `json:"totalTokenCount"`
	}
	geminiResponse struct {
		Candidates    []geminiCandidate `json:"candidates"`
		UsageMetadata *geminiUsage      `json:"usageMetadata,omitempty"`
		ModelVersion  string            `json:"modelVersion"`
		ResponseID    string            `json:"responseId"`
	}
)

func geminiChunk(model string, n int, parts []geminiAnswerPart, finish string, u *usage) geminiResponse {
	c := geminiCandidate{FinishReason: finish}
	c.Content.Role, c.Content.Parts = "model", parts
	r := geminiResponse{Candidates: []geminiCandidate{c}, ModelVersion: model, ResponseID: fmt.Sprintf("capture-%04d", n+1)}
	if u != nil {
		r.UsageMetadata = &geminiUsage{Prompt: u.in, Candidates: u.out, Total: u.in + u.out}
	}
	return r
}

func geminiParts(a *Answer) []geminiAnswerPart {
	var out []geminiAnswerPart
	if a.Content != "" || len(a.ToolCalls) == 0 {
		out = append(out, geminiAnswerPart{Text: &a.Content})
	}
	for _, tc := range a.ToolCalls {
		out = append(out, geminiAnswerPart{FunctionCall: &geminiFunctionCall{ID: tc.ID, Name: tc.Name, Args: tc.Arguments}})
	}
	return out
}

// renderGeminiStream is the answer as :streamGenerateContent?alt=sse
// sends one: a chunk per piece of text, then the function calls whole
// with the finish reason and the usage.
func renderGeminiStream(model string, n int, a *Answer, u usage) []byte {
	var e sseBuf
	pieces := chunks(a.Content)
	for i, c := range pieces {
		if i == len(pieces)-1 && len(a.ToolCalls) == 0 {
			break // the last piece goes with the finish
		}
		e.data(geminiChunk(model, n, []geminiAnswerPart{{Text: &c}}, "", &usage{in: u.in}))
	}
	var last []geminiAnswerPart
	if len(a.ToolCalls) == 0 {
		text := ""
		if len(pieces) > 0 {
			text = pieces[len(pieces)-1]
		}
		last = append(last, geminiAnswerPart{Text: &text})
	}
	for _, tc := range a.ToolCalls {
		last = append(last, geminiAnswerPart{FunctionCall: &geminiFunctionCall{ID: tc.ID, Name: tc.Name, Args: tc.Arguments}})
	}
	e.data(geminiChunk(model, n, last, "STOP", &u))
	return e.b
}
