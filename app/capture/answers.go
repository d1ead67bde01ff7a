package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// ErrNoAnswer is returned for a request beyond the answers file.
var ErrNoAnswer = errors.New("no answer left")

// Script answers the requests in order from an answers file. Only a
// request that is answered takes an answer: one the endpoint refused (not
// JSON, the wrong shape, too big) takes none, so an agent's retry of a bad
// request does not shift the answers after it. Side requests (side.go)
// take the file's side answers, in order, and then the minimal answer.
type Script struct {
	file    string
	answers []Answer
	side    []Answer

	mu       sync.Mutex
	next     int // the next answer
	nextSide int
}

// answerEntry is one answer of the file: text, tool calls, or an error
// status — the keys of a scenario's mock rounds.
type answerEntry struct {
	Content   string `yaml:"content"`
	ToolCalls []struct {
		ID        string         `yaml:"id"`
		Name      string         `yaml:"name"`
		Arguments map[string]any `yaml:"arguments"`
	} `yaml:"tool_calls"`
	Error *struct {
		Status  int    `yaml:"status"`
		Message string `yaml:"message"`
	} `yaml:"error"`
}

// answersFile is the answers file: per call, in order; and optionally the
// side requests' answers.
type answersFile struct {
	Answers []answerEntry `yaml:"answers"`
	Side    []answerEntry `yaml:"side"`
}

// LoadScript reads an answers file, reporting every problem at once with
// its line.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the answers file: %w", err)
	}
	return ParseScript(path, data)
}

// ParseScript reads an answers file's text (path names it in errors).
func ParseScript(path string, data []byte) (*Script, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var f answersFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w (an answers file is `answers:` with, per call, content, tool_calls or error, and optionally `side:` the same for side requests)", path, err)
	}
	var problems []string
	s := &Script{file: path}
	var top *yaml.Node
	if len(doc.Content) > 0 {
		top = doc.Content[0]
	}
	s.answers = entries(path, "answers", f.Answers, top, &problems)
	s.side = entries(path, "side", f.Side, top, &problems)
	if len(f.Answers) == 0 {
		problems = append(problems, path+": no answers (write `answers:` and one entry per expected call)")
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return s, nil
}

// entries checks and converts the answers under key.
func entries(path, key string, list []answerEntry, top *yaml.Node, problems *[]string) []Answer {
	var out []Answer
	for i, a := range list {
		at := fmt.Sprintf("%s: %s[%d]", path, key, i)
		if node := entryNode(top, key, i); node != nil {
			at = fmt.Sprintf("%s:%d:%d: %s[%d]", path, node.Line, node.Column, key, i)
		}
		ans := Answer{Content: a.Content}
		if a.Error != nil {
			if a.Error.Status < 400 || a.Error.Status > 599 {
				*problems = append(*problems, fmt.Sprintf("%s: error.status %d is not an HTTP error status (400-599)", at, a.Error.Status))
			}
			ans.Error = &AnswerError{Status: a.Error.Status, Message: a.Error.Message}
			if a.Content != "" || len(a.ToolCalls) > 0 {
				*problems = append(*problems, at+": an error answer has no content or tool_calls")
			}
		}
		if a.Content == "" && len(a.ToolCalls) == 0 && a.Error == nil {
			*problems = append(*problems, at+": give content, tool_calls or error")
		}
		for j, tc := range a.ToolCalls {
			if tc.Name == "" {
				*problems = append(*problems, fmt.Sprintf("%s.tool_calls[%d]: name is required", at, j))
			}
			args, err := json.Marshal(orEmpty(tc.Arguments))
			if err != nil {
				*problems = append(*problems, fmt.Sprintf("%s.tool_calls[%d].arguments: %v", at, j, err))
			}
			ans.ToolCalls = append(ans.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Arguments: args})
		}
		out = append(out, ans)
	}
	return out
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func entryNode(top *yaml.Node, key string, i int) *yaml.Node {
	if top == nil || top.Kind != yaml.MappingNode {
		return nil
	}
	for k := 0; k+1 < len(top.Content); k += 2 {
		if top.Content[k].Value == key && top.Content[k+1].Kind == yaml.SequenceNode && i < len(top.Content[k+1].Content) {
			return top.Content[k+1].Content[i]
		}
	}
	return nil
}

// Len is how many answers the file has (side answers aside).
func (s *Script) Len() int { return len(s.answers) }

// Answer implements Answerer: the next answer of the file.
func (s *Script) Answer(_ context.Context, n int, _ *Request) (*Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.answers) {
		return nil, fmt.Errorf("%w: %s has %d answers, all given, and call #%d asks for one more; add an answer for it", ErrNoAnswer, s.file, len(s.answers), n+1)
	}
	a := s.answers[s.next]
	s.next++
	return &a, nil
}

// AnswerSide implements sideAnswerer: the file's next side answer, if it
// has one left.
func (s *Script) AnswerSide(_ context.Context, _ int, _ *Request) (*Answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nextSide >= len(s.side) {
		return nil, false
	}
	a := s.side[s.nextSide]
	s.nextSide++
	return &a, true
}

// ErrNoPending is returned for a reply to a request nobody waits for.
var ErrNoPending = errors.New("no request is waiting for that answer")

// PendingRequest is a request the user answers in the app (the app as the
// agent's model).
type PendingRequest struct {
	N int `json:"n"`
	Request
}

// Manual answers each request with what the user replies (Reply), waiting
// until then or until the client goes away.
type Manual struct {
	// OnPending is told when a request starts or stops waiting (nil: none).
	OnPending func(p *PendingRequest)

	mu      sync.Mutex
	pending map[int]chan *Answer
	current *PendingRequest
	stopped bool
	stop    chan struct{} // closed by Stop
}

// Stop fails the requests still waiting: the capture is ending.
func (m *Manual) Stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.stopped {
		m.stopped = true
		if m.stop == nil {
			m.stop = make(chan struct{})
		}
		close(m.stop)
	}
}

// ReadsMessages implements messageReader: the user reads the request.
func (m *Manual) ReadsMessages() bool { return true }

// Answer implements Answerer.
func (m *Manual) Answer(ctx context.Context, n int, req *Request) (*Answer, error) {
	ch := make(chan *Answer, 1)
	p := &PendingRequest{N: n, Request: *req}
	m.mu.Lock()
	if m.pending == nil {
		m.pending = map[int]chan *Answer{}
	}
	if m.stop == nil {
		m.stop = make(chan struct{})
	}
	stop := m.stop
	m.pending[n], m.current = ch, p
	on := m.OnPending
	m.mu.Unlock()
	if on != nil {
		on(p)
	}
	defer func() {
		m.mu.Lock()
		delete(m.pending, n)
		if m.current != nil && m.current.N == n {
			m.current = nil
		}
		m.mu.Unlock()
		if on != nil {
			on(nil)
		}
	}()
	select {
	case a := <-ch:
		return a, nil
	case <-stop:
		return nil, errors.New("the capture stopped before this request was answered")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Pending is the request waiting for the user (nil: none).
func (m *Manual) Pending() *PendingRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.current
}

// Reply answers request n.
func (m *Manual) Reply(n int, a *Answer) error {
	if a == nil || a.Content == "" && len(a.ToolCalls) == 0 && a.Error == nil {
		return errors.New("write the answer's text, or give a tool call")
	}
	for i, tc := range a.ToolCalls {
		if tc.Name == "" {
			return fmt.Errorf("tool call %d has no name", i+1)
		}
		if len(tc.Arguments) > 0 && !json.Valid(tc.Arguments) {
			return fmt.Errorf("tool call %s: the arguments are not JSON", tc.Name)
		}
	}
	m.mu.Lock()
	ch, ok := m.pending[n]
	m.mu.Unlock()
	if !ok {
		return fmt.Errorf("request #%d: %w", n+1, ErrNoPending)
	}
	select {
	case ch <- a:
		return nil
	default:
		return fmt.Errorf("request #%d: %w", n+1, ErrNoPending)
	}
}
