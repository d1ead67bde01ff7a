package calibrate

import (
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// learnPrompt reads how the agent writes the prompt when it writes more
// than the prompt in its message (Copilot CLI's <current_datetime>): the
// runs' prompt messages read as one template.
func learnPrompt(m *request.Model, ran []*reqRan, turns []*firstTurn) error {
	if turns[0].prompt == "" {
		return nil
	}
	var t request.Text
	for k := 1; k < len(ran) && t == nil; k++ {
		w, err := walk(turns[0].prompt, turns[k].prompt, ran[0].values, ran[k].values)
		if err != nil {
			return &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("the prompt's message: %w", err)}
		}
		t = w
	}
	if t == nil || !slices.Contains(t.Slots(), request.SlotPrompt) {
		return &ProbeError{Probe: "request prompt", Err: fmt.Errorf("%w: the prompt's message %q does not hold the prompt", ErrUnreadable, clip(turns[0].prompt))}
	}
	for k, r := range ran {
		if got := t.Fill(r.values); got != turns[k].prompt && !(turns[k].prompt == "" && got == r.values[request.SlotPrompt]) {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the prompt's message %q is not %q", ErrRebuild, clip(turns[k].prompt), clip(got))}
		}
	}
	m.Framing.Prompt = t
	return nil
}

// nonceOf is the probe's words of a run ("HSR1a2b3c4d").
func nonceOf(r *reqRan) string {
	w, _, _ := strings.Cut(r.run.prompt, " ")
	return w
}

// isStopWords says msg holds the probe's Stop hook's words: as a hook's
// (Claude Code), or as a prompt of the user's the agent sends them in
// (Gemini CLI's AfterAgent reason, Qwen Code, Copilot CLI in its wrapper:
// capture cannot tell them from the user's).
func isStopWords(r *reqRan, msg capture.Message) (hook, prompt bool) {
	switch {
	case msg.Origin == capture.OriginHook && strings.HasPrefix(msg.Hook, "Stop"):
		return true, false
	case r.run.stop != "" && msg.Content == r.run.stop,
		msg.Origin == capture.OriginUser && strings.Contains(msg.Content, nonceOf(r)+" stop words"):
		return false, true
	}
	return false, false
}

// probeOutput is what a probe's command prints ("echo WORD", "true").
func probeOutput(cmd string) (string, bool) {
	switch {
	case cmd == "true":
		return "", true
	case strings.HasPrefix(cmd, "echo ") && !strings.ContainsAny(cmd[5:], `'"$;|&<> `):
		return cmd[5:], true
	}
	return "", false
}
