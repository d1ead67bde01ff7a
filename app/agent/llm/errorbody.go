package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

// errorInfo is what an error body says, whatever its shape.
type errorInfo struct {
	message string // the server's own words, raw
	kind    string // a type ("server_error", "SyntaxError")
	code    string // a code given as text ("rate_limit_exceeded")
	status  int    // a status the body names (a "status" or a numeric "code")
}

// parseErrorBody finds the message in an error answer: OpenAI's and
// Anthropic's {"error": {"message", "type", "code"}}; a string "error"
// with a "message" ({"error": "SyntaxError", "message": "…", "status":
// 500}, as Express servers send); Ollama's {"error": "…"}; vLLM's
// {"object": "error", "message"}; FastAPI's {"detail"}; an HTML page (its
// title, else its text); plain text. An unknown JSON shape is kept as
// compact JSON.
func parseErrorBody(body []byte) errorInfo {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return errorInfo{}
	}
	var obj map[string]any
	if json.Unmarshal(body, &obj) == nil {
		return parseErrorObject(obj, body)
	}
	var str string
	if json.Unmarshal(body, &str) == nil {
		return errorInfo{message: str}
	}
	if isHTML(body) {
		return errorInfo{message: htmlText(body)}
	}
	return errorInfo{message: string(body)}
}

func parseErrorObject(obj map[string]any, raw []byte) errorInfo {
	var info errorInfo
	switch e := obj["error"].(type) {
	case map[string]any:
		info.message = text(e["message"])
		info.kind, info.code = text(e["type"]), codeText(e["code"])
		info.status = firstStatus(e["status"], e["code"])
		if info.message == "" {
			info.message = firstNonEmpty(text(e["detail"]), text(e["msg"]))
		}
	case string:
		info.kind = e
		info.message = e
		if m := text(obj["message"]); m != "" {
			info.message = m
		}
	}
	if info.message == "" {
		info.message = firstNonEmpty(text(obj["message"]), detailText(obj["detail"]), text(obj["msg"]), text(obj["error_description"]))
	}
	if info.kind == "" {
		if t := text(obj["type"]); t != "error" {
			info.kind = t
		}
	}
	if info.code == "" {
		info.code = codeText(obj["code"])
	}
	if info.status == 0 {
		info.status = firstStatus(obj["status"], obj["code"], obj["status_code"])
	}
	if info.message == "" {
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			info.message = b.String()
		}
	}
	return info
}

func text(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// codeText is a code given as a string ("invalid_api_key").
func codeText(v any) string {
	s := text(v)
	if _, err := strconv.Atoi(s); err == nil {
		return ""
	}
	return s
}

// detailText is FastAPI's detail: a string, or a list of objects with "msg".
func detailText(v any) string {
	switch d := v.(type) {
	case string:
		return strings.TrimSpace(d)
	case []any:
		var parts []string
		for _, item := range d {
			if m, ok := item.(map[string]any); ok && text(m["msg"]) != "" {
				parts = append(parts, text(m["msg"]))
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "; ")
		}
		b, _ := json.Marshal(d)
		return string(b)
	}
	return ""
}

// firstStatus is the first value that is an HTTP error status, as a number
// or a numeric string.
func firstStatus(vs ...any) int {
	for _, v := range vs {
		n := 0
		switch x := v.(type) {
		case float64:
			n = int(x)
		case string:
			n, _ = strconv.Atoi(strings.TrimSpace(x))
		}
		if n >= 400 && n <= 599 {
			return n
		}
	}
	return 0
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

var (
	htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	htmlDrop  = regexp.MustCompile(`(?is)<(script|style|head)[^>]*>.*?</(script|style|head)>`)
	htmlTag   = regexp.MustCompile(`(?s)<[^>]*>`)
)

func isHTML(b []byte) bool {
	head := strings.ToLower(string(b[:min(len(b), 512)]))
	return strings.HasPrefix(head, "<!doctype html") || strings.Contains(head, "<html") || strings.HasPrefix(head, "<head") || strings.HasPrefix(head, "<body")
}

// htmlText is a page's title, else its visible text.
func htmlText(b []byte) string {
	if m := htmlTitle.FindSubmatch(b); m != nil {
		if t := strings.TrimSpace(html.UnescapeString(string(m[1]))); t != "" {
			return t
		}
	}
	s := htmlDrop.ReplaceAllString(string(b), " ")
	return html.UnescapeString(htmlTag.ReplaceAllString(s, " "))
}

// streamErrorStatus is the status an in-stream error names, by number or
// by its documented type or code.
func streamErrorStatus(info errorInfo) int {
	if info.status != 0 {
		return info.status
	}
	for _, k := range []string{info.code, info.kind} {
		if s := statusOfKind(k); s != 0 {
			return s
		}
	}
	return 0
}

// statusOfKind maps the documented error types and codes of OpenAI and
// Anthropic onto their HTTP statuses.
func statusOfKind(kind string) int {
	switch strings.ToLower(kind) {
	case "server_error", "api_error", "internal_error", "internal_server_error":
		return http.StatusInternalServerError
	case "overloaded_error", "overloaded":
		return 529
	case "service_unavailable", "service_unavailable_error":
		return http.StatusServiceUnavailable
	case "rate_limit_error", "rate_limit_exceeded", "rate_limited", "too_many_requests":
		return http.StatusTooManyRequests
	case "authentication_error", "invalid_api_key", "unauthorized":
		return http.StatusUnauthorized
	case "permission_error", "permission_denied":
		return http.StatusForbidden
	case "invalid_request_error", "bad_request":
		return http.StatusBadRequest
	case "not_found_error", "model_not_found":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	}
	return 0
}

// cleanMessage is a server message fit for an error: the key and
// key-like tokens redacted, whitespace collapsed, at most
// MaxServerMessage runes.
func (o *Options) cleanMessage(s string) string {
	s = strings.Join(strings.Fields(redactText(s, o.APIKey)), " ")
	if r := []rune(s); len(r) > MaxServerMessage {
		s = string(r[:MaxServerMessage]) + "…"
	}
	return s
}

// httpFailure turns a non-2xx answer into a typed error with the server's
// message: 401/403 are *KeyRejectedError, the rest *StatusError, and 429
// and 5xx are retryable, honouring Retry-After.
func (o *Options) httpFailure(status int, h http.Header, body []byte) error {
	info := parseErrorBody(body)
	return o.failure(status, info, false, retryAfter(h, time.Now()))
}

// streamFailure turns an error event inside the stream into a typed
// error; it is retryable when its status is and nothing has reached the
// user yet (streamed is false).
func (o *Options) streamFailure(data []byte, streamed bool) error {
	info := parseErrorBody(data)
	err := o.failure(streamErrorStatus(info), info, true, 0)
	var r *retryable
	if streamed && errors.As(err, &r) {
		return r.err
	}
	return err
}

func (o *Options) failure(status int, info errorInfo, inStream bool, wait time.Duration) error {
	msg := o.cleanMessage(info.message)
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return &KeyRejectedError{Host: o.host(), Status: status, Message: msg, InStream: inStream}
	}
	se := &StatusError{Host: o.host(), Status: status, Message: msg, Kind: o.cleanMessage(firstNonEmpty(info.kind, info.code)), InStream: inStream, Attempts: 1}
	if se.Retryable() {
		return &retryable{err: se, retryAfter: wait}
	}
	return se
}

// checkStatus is the middleware core shared by both providers: a non-2xx
// answer is read (up to maxErrorBody) and returned as a typed error before
// the SDK tries to decode it as its own error object.
func (o *Options) checkStatus(res *http.Response, err error) (*http.Response, error) {
	if err != nil || res == nil || res.StatusCode >= 200 && res.StatusCode <= 299 {
		return res, err
	}
	var body []byte
	if res.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		res.Body.Close()
	}
	return nil, o.httpFailure(res.StatusCode, res.Header, body)
}
