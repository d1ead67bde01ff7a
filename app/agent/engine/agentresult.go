package engine

import "hookstudio/app/agentdata/request"

// agentResult is a tool's output as the agent hands it on — to the model
// and to its hooks — when its words around the output are the result
// itself (Gemini CLI's shell tool: ResultFrame.Hooks); a failed tool's is
// its error.
func (r *runner) agentResult(name, output string) string {
	if !r.agentMode() {
		return output
	}
	if f := r.cfg.Request.Framing.Result(name); f != nil && f.Hooks {
		return f.Fill(output, 0)
	}
	return output
}

// modelFrame is the frame of the agent's words the model alone reads
// around a run of tool (Codex's shell tool), nil none.
func (r *runner) modelFrame(tool string) *request.ResultFrame {
	if f := r.cfg.Request.Framing.Result(tool); f != nil && !f.Hooks {
		return f
	}
	return nil
}

// framedResult is a tool's run as an agent that words its tool's output
// for the model reports it (Codex's shell tool: the output after its exit
// code and token count): a failed run's words as its output, with exit
// code 1.
func framedResult(f *request.ResultFrame, tc *ToolCall) string {
	if tc.Error != "" {
		return f.Fill(tc.Error, 1)
	}
	return f.Fill(tc.Result, 0)
}
