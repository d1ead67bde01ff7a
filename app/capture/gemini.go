package capture

import (
	"encoding/json"
	"fmt"
	"strings"
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

// The Gemini API's request, as much of it as is recorded; the REST API
// takes camelCase and snake_case field names alike.
type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction json.RawMessage `json:"systemInstruction"`
	SystemSnake       json.RawMessage `json:"system_instruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
		FunctionSnake []struct {
			Name string `json:"name"`
		} `json:"function_declarations"`
	} `json:"tools"`
}

type geminiContent struct {
	Role  string            `json:"role"`
	Parts []json.RawMessage `json:"parts"`
}

type geminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type geminiFunctionResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// geminiPart is a part with each kind the API has (one is set).
type geminiPart struct {
	Text          *string                    `json:"text"`
	Thought       bool                       `json:"thought"`
	FunctionCall  *geminiFunctionCall        `json:"functionCall"`
	CallSnake     *geminiFunctionCall        `json:"function_call"`
	FunctionResp  *geminiFunctionResponse    `json:"functionResponse"`
	RespSnake     *geminiFunctionResponse    `json:"function_response"`
	InlineData    *struct{ MimeType string } `json:"inlineData"`
	InlineSnake   *struct{ MimeType string } `json:"inline_data"`
	FileData      json.RawMessage            `json:"fileData"`
	FileSnake     json.RawMessage            `json:"file_data"`
	ExecCode      json.RawMessage            `json:"executableCode"`
	ExecResult    json.RawMessage            `json:"codeExecutionResult"`
	ThoughtSigned json.RawMessage            `json:"thoughtSignature"`
}

func parseGemini(data []byte, gp geminiPath) (*Request, []string, error) {
	var in geminiRequest
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, nil, fmt.Errorf("the body is not a Gemini API request: %w", err)
	}
	req := &Request{API: Gemini, Model: gp.model, Stream: gp.stream, Tools: []string{}}
	for _, t := range in.Tools {
		for _, d := range append(t.FunctionDeclarations, t.FunctionSnake...) {
			req.Tools = append(req.Tools, d.Name)
		}
	}
	var warnings []string
	si := in.SystemInstruction
	if len(si) == 0 {
		si = in.SystemSnake
	}
	var sys string
	if json.Unmarshal(si, &sys) == nil && sys != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: sys, Origin: OriginSystem})
	} else if len(si) > 0 && string(si) != "null" {
		var c geminiContent
		if err := json.Unmarshal(si, &c); err != nil {
			return nil, nil, fmt.Errorf("systemInstruction: %w", err)
		}
		for _, raw := range c.Parts {
			var p geminiPart
			if json.Unmarshal(raw, &p) == nil && p.Text != nil {
				req.Messages = append(req.Messages, Message{Role: "system", Content: *p.Text, Origin: OriginSystem})
			}
		}
	}
	// A functionCall without an id (the API gives none by default) is
	// named by where it is; its functionResponse, which has none either,
	// answers the first open call of its name.
	var open []ToolCall
	for i, c := range in.Contents {
		if c.Role == "model" {
			am := Message{Role: "assistant", Origin: OriginAssistant}
			var text []string
			for j, raw := range c.Parts {
				var p geminiPart
				if err := json.Unmarshal(raw, &p); err != nil {
					return nil, warnings, fmt.Errorf("contents[%d].parts[%d]: %w", i, j, err)
				}
				fc := p.FunctionCall
				if fc == nil {
					fc = p.CallSnake
				}
				switch {
				case p.Thought:
					req.Messages = append(req.Messages, Message{Role: "assistant", Content: string(raw), Origin: OriginAssistant, Kind: "thought"})
				case p.Text != nil:
					text = append(text, *p.Text)
				case fc != nil:
					id := fc.ID
					if id == "" {
						id = fmt.Sprintf("gemini_%d_%d", i, j)
					}
					tc := ToolCall{ID: id, Name: fc.Name, Arguments: rawOr(fc.Args)}
					am.ToolCalls = append(am.ToolCalls, tc)
					open = append(open, tc)
				default:
					kind, known := geminiKind(&p, raw)
					req.Messages = append(req.Messages, Message{Role: "assistant", Content: string(raw), Origin: OriginAssistant, Kind: kind})
					if !known {
						warnings = append(warnings, fmt.Sprintf("contents[%d].parts[%d]: a part of a kind this capture does not read: kept as it came", i, j))
					}
				}
			}
			am.Content = strings.Join(text, "\n")
			if am.Content != "" || len(am.ToolCalls) > 0 {
				req.Messages = append(req.Messages, am)
			}
			continue
		}
		for j, raw := range c.Parts {
			var p geminiPart
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, warnings, fmt.Errorf("contents[%d].parts[%d]: %w", i, j, err)
			}
			fr := p.FunctionResp
			if fr == nil {
				fr = p.RespSnake
			}
			switch {
			case p.Text != nil:
				req.Messages = append(req.Messages, userText(*p.Text)...)
			case fr != nil:
				id := fr.ID
				for k, tc := range open {
					if id == "" && tc.Name == fr.Name || id != "" && tc.ID == id {
						id, open = tc.ID, append(open[:k:k], open[k+1:]...)
						break
					}
				}
				text, isErr := geminiResponseText(fr.Response)
				req.Messages = append(req.Messages, toolResult(id, text, isErr))
			default:
				kind, known := geminiKind(&p, raw)
				req.Messages = append(req.Messages, Message{Role: "user", Content: string(raw), Origin: OriginUser, Kind: kind})
				if !known {
					warnings = append(warnings, fmt.Sprintf("contents[%d].parts[%d]: a part of a kind this capture does not read: kept as it came", i, j))
				}
			}
		}
	}
	return req, warnings, nil
}

// geminiKind names a part that is not text or a function call or
// response, and says whether it is a kind the API has.
func geminiKind(p *geminiPart, raw json.RawMessage) (string, bool) {
	switch {
	case p.InlineData != nil || p.InlineSnake != nil:
		return "inlineData", true
	case len(p.FileData) > 0 || len(p.FileSnake) > 0:
		return "fileData", true
	case len(p.ExecCode) > 0:
		return "executableCode", true
	case len(p.ExecResult) > 0:
		return "codeExecutionResult", true
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys)
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	if len(names) == 1 {
		return names[0], false
	}
	return "part", false
}

// geminiResponseText is a functionResponse's text: its output (or error)
// when that is all it has, else the response's JSON.
func geminiResponseText(raw json.RawMessage) (string, bool) {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) == nil && len(r) == 1 {
		for k, v := range r {
			var s string
			if (k == "output" || k == "error" || k == "result") && json.Unmarshal(v, &s) == nil {
				return s, k == "error"
			}
		}
	}
	return string(raw), false
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
