package engine

import "hookstudio/app/agent/scenario"

// Default built-in prompts, used where a scenario does not override them.
const (
	DefaultPlanningPrompt = "Before acting, decide whether the user's request needs any tool. " +
		"If it does, say which tools you will use and in what order. " +
		"If it does not, answer the user directly."
	DefaultFirstStepPrompt = "Start working on the plan: call the first tool you need, " +
		"or answer directly if no tool is needed after all."
	DefaultAgentLoopPrompt = "Look at the tool results so far. Call the next tool if more information " +
		"is needed; otherwise give the user your final answer."
)

func promptTexts(p scenario.Prompts) [3]string {
	pick := func(s, def string) string {
		if s != "" {
			return s
		}
		return def
	}
	return [3]string{
		pick(p.Planning, DefaultPlanningPrompt),
		pick(p.FirstStep, DefaultFirstStepPrompt),
		pick(p.AgentLoop, DefaultAgentLoopPrompt),
	}
}
