package capture

// ReadBody reads a request body of api as a capture reads one it received
// with headers: its messages, their origins (the sending agent's hook
// words read with its profiles), its tools. A simulated agent's request is
// read through it, so a simulated call and a captured call of the same
// scenario compare message by message.
func ReadBody(api API, body []byte, headers map[string]string, agents *AgentReader) Call {
	c := Call{API: api, Headers: headers, Status: 200}
	completeCall(&c, body, geminiPath{}, nil, nil, false, agents)
	return c
}
