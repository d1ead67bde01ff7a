package studio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

var (
	// ErrNoRequestBody is wrapped when the view's run is no agent's: seed
	// 000's flow sends no agent's request.
	ErrNoRequestBody = errors.New("the run is no agent's: it has no request body")
	// ErrStaleView is wrapped when the view asked about is no longer the
	// one shown (a newer simulation replaced it).
	ErrStaleView = errors.New("the view has been simulated again")
)

// CallBody is the request body call c of the shown view's run sends, in
// its agent's API's shape (Anthropic Messages, Responses, Gemini, Chat
// Completions), indented. revision is the view's, so that a body never
// belongs to a newer run than the call the page shows.
func (s *Service) CallBody(revision, c int) (string, error) {
	s.mu.Lock()
	v := s.view
	s.mu.Unlock()
	if v.Revision != revision {
		return "", fmt.Errorf("call %d of revision %d: %w (now %d)", c+1, revision, ErrStaleView, v.Revision)
	}
	tr := v.trace
	if tr == nil || tr.RequestModel() == nil {
		return "", fmt.Errorf("call %d: %w", c+1, ErrNoRequestBody)
	}
	if c < 0 || c >= len(tr.Calls) {
		return "", fmt.Errorf("call %d: the run has %d calls", c+1, len(tr.Calls))
	}
	body, err := tr.Request(c)
	if err != nil {
		return "", fmt.Errorf("call %d's request body: %w", c+1, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return "", fmt.Errorf("call %d's request body: %w", c+1, err)
	}
	return out.String(), nil
}
