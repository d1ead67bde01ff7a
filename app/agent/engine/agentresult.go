package engine

import "hookstudio/app/agentdata/request"

// resultOf words a tool's output as the agent hands it on — to the model
// and to its hooks — when its words around the output are the result
// itself (Gemini CLI's, Qwen Code's and Copilot CLI's shell tools:
// ResultFrame.Hooks); a failed tool's is its error. It counts the tool's
// runs (an agent numbers its shells: SlotCount).
func (r *runner) resultOf(tc *ToolCall) {
	if !r.agentMode() || tc.Error != "" {
		return
	}
	if r.ranTools == nil {
		r.ranTools = map[string]int{}
	}
	n := r.ranTools[tc.Name]
	r.ranTools[tc.Name]++
	if f := r.cfg.Request.Framing.Result(tc.Name); f != nil && f.Hooks {
		tc.Result = f.Fill(request.ToolRun{Output: tc.Result, Args: tc.Arguments, Count: n})
	}
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
// code 1. Its count is of the tool's runs before it (resultOf counted
// this one already when it ran well).
func (r *runner) framedResult(f *request.ResultFrame, tc *ToolCall) string {
	run := request.ToolRun{Output: tc.Result, Args: tc.Arguments, Count: r.ranTools[tc.Name]}
	if tc.Error != "" {
		run.Output, run.Code = tc.Error, 1
	} else {
		run.Count--
	}
	return f.Fill(run)
}
