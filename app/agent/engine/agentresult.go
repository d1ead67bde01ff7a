package engine

import "hookstudio/app/agentdata/request"

// framedResult is a tool's run as an agent that words its tool's output
// reports it (Codex's shell tool: the output after its exit code and
// token count): a failed run's words as its output, with exit code 1.
func framedResult(f *request.ResultFrame, tc *ToolCall) string {
	if tc.Error != "" {
		return f.Fill(tc.Error, 1)
	}
	return f.Fill(tc.Result, 0)
}
