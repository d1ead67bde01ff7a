package engine

import "encoding/json"

// Document is the trace as the headless command prints it: every request
// with the exact messages of each LLM call, and every step.
type Document struct {
	Scenario string       `json:"scenario"`
	Agent    *Agent       `json:"agent,omitempty"`
	Status   Status       `json:"status"`
	Error    string       `json:"error,omitempty"`
	Requests []RequestDoc `json:"requests"`
	Steps    []Step       `json:"steps"`
}

// RequestDoc is one request of a Document.
type RequestDoc struct {
	Index         int       `json:"index"`
	User          string    `json:"user"`
	EnabledSkills []string  `json:"enabled_skills"`
	LLMCalls      []CallDoc `json:"llm_calls"`
	Yielded       []string  `json:"yielded"`
	Reply         string    `json:"reply"`
}

// CallDoc is one LLM call with the messages it receives.
type CallDoc struct {
	LLMCall
	Messages []Message `json:"messages"`
	// Request is the body the agent sends for the call, in its API's
	// shape (an agent's run only).
	Body json.RawMessage `json:"body,omitempty"`
}

// Document materialises the whole trace. Its size is rounds × list length,
// so the app asks for single calls instead; this is for export and hookctl.
func (t *Trace) Document() Document {
	d := Document{Scenario: t.Scenario, Agent: t.Agent, Status: t.Status, Error: t.Error, Steps: t.Steps(), Requests: []RequestDoc{}}
	for _, ri := range t.Requests {
		rd := RequestDoc{Index: ri.Index, User: ri.User, EnabledSkills: ri.EnabledSkills, Yielded: ri.Yielded, Reply: ri.Reply, LLMCalls: []CallDoc{}}
		for _, c := range ri.Calls {
			cd := CallDoc{LLMCall: t.Calls[c], Messages: t.CallMessages(c)}
			if body, err := t.Request(c); err == nil {
				cd.Body = body
			}
			rd.LLMCalls = append(rd.LLMCalls, cd)
		}
		d.Requests = append(d.Requests, rd)
	}
	return d
}
