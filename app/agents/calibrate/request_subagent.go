package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// claudeSubRuns are the runs of Claude Code's request calibration that
// start a sub-agent (its Agent tool, in the foreground: 2.1.332 runs one
// in the background unless told) with a SubagentStart hook that gives it
// words: the sub-agent's requests are a model of their own, read as the
// session's are (deriveRequest) between these runs — another folder and
// task prompt, a git repository with changes, a clean one — and the Agent tool's result in the session's next
// call is the template of how the CLI hands the sub-agent's answer back.
// The sub-agents use other numbers of tools and answer in one line or two
// (the CLI indents each line of an answer it quotes); the base's
// SubagentStop hook blocks once; the folder run
// plants skills, which the sub-agent lists as the session does.
func claudeSubRuns(n string, bash func(string) capture.Answer, ends []capture.Answer, skillFiles map[string]string, skills []request.Entry) []reqRun {
	start := fmt.Sprintf(`printf '%%s\n' '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"HSR%s sub start words"}}'`, n)
	files := map[string]string{".claude/settings.json": `{"hooks": {` + hookGroup("SubagentStart", "", start) + `}}`, "hsr-read.txt": "hsr read words\n"}
	agent := func(task string) []capture.Answer {
		args, _ := json.Marshal(map[string]any{"description": "HSR" + n + " sub task", "prompt": task, "subagent_type": "general-purpose",
			"run_in_background": false})
		return append([]capture.Answer{{ToolCalls: []capture.ToolCall{{Name: "Agent", Arguments: args}}}}, ends...)
	}
	// the base's SubagentStop hook blocks once: whether the sub-agent's
	// next call keeps the answer blocked (learnLoop)
	stopping := maps.Clone(files)
	stopping[".claude/settings.json"] = `{"hooks": {` + hookGroup("SubagentStart", "", start) + ", " +
		hookGroup("SubagentStop", "", probeSave("SubagentStop")+probeBlockOnce(n)) + `}}`
	// the folder run plants the base's skills: the sub-agent lists them
	withSkills := maps.Clone(files)
	maps.Copy(withSkills, skillFiles)
	read := capture.Answer{ToolCalls: []capture.ToolCall{{Name: "Read", Arguments: []byte(`{"file_path":"hsr-read.txt"}`)}}}
	// the Agent tool is allowed beside the base's (--allowedTools takes
	// several values)
	allow := []string{"Agent"}
	return []reqRun{
		{name: "sub", rel: "hs_req.s/project", prompt: "HSR" + n + " sub prompt", files: stopping, args: allow,
			answers: agent("HSR" + n + " sub-agent task"),
			sub:     []capture.Answer{bash("echo hsr-sub"), {Content: "HSR sub answer blocked."}, {Content: "HSR sub answer one."}}},
		{name: "sub-folder", rel: "other/hsr-s.x_y/deeper/proj", prompt: "HSR" + n + " sub folder prompt, a longer one", files: withSkills, args: allow,
			skills:  slices.Clone(skills),
			answers: agent("HSR" + n + " another sub-agent task, a longer one"),
			sub:     []capture.Answer{bash("echo hsr-sub-two"), read, {Content: "HSR sub answer two.\nIts second line."}}},
		{name: "sub-git", rel: "hs_req.u/project", prompt: "HSR" + n + " sub git prompt", files: files, args: allow,
			git: true, dirty: true, branch: "hsr-branch-u", commit: "hsr commit u",
			answers: agent("HSR" + n + " a git sub-agent task"),
			sub:     []capture.Answer{bash("echo hsr-sub-git"), {Content: "HSR sub answer git."}}},
		{name: "sub-clean", rel: "hs_req.t/project", prompt: "HSR" + n + " sub clean prompt", files: files, args: allow,
			git: true, branch: "hsr-branch-t", commit: "hsr commit t",
			answers: agent("HSR" + n + " a third sub-agent task"),
			sub:     []capture.Answer{bash("echo hsr-sub-three"), {Content: "HSR sub answer three."}}},
	}
}

// subRuns parts the runs that start a sub-agent from the others.
func subRuns(ran []*reqRan) (main, subs []*reqRan) {
	for _, r := range ran {
		if len(r.run.sub) > 0 {
			subs = append(subs, r)
		} else {
			main = append(main, r)
		}
	}
	return main, subs
}

// learnSubagent reads how the agent runs a sub-agent from the runs that
// start one: the tool, the sub-agent's request model — derived from its
// own requests as the session's is from the runs', with the session's
// hook stdin and transcript (the same CLI writes them) — and the words
// the tool's result hands the answer back in.
func learnSubagent(m *request.Model, spec reqAgent, rc recipe.Recipe, version string, subs []*reqRan) error {
	if len(subs) == 0 {
		return nil
	}
	counter, err := tokens.NewCounter()
	if err != nil {
		return err
	}
	inner := make([]*reqRan, len(subs))
	results := make([]handBack, len(subs))
	tool := ""
	for i, r := range subs {
		tc, task, ok := subCall(r.run)
		if !ok {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the run starts no sub-agent", ErrUnreadable)}
		}
		tool = tc.Name
		id, own := subCalls(r.calls)
		if len(own) == 0 {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the CLI sent no request of a sub-agent (%s)", ErrNotOffline, capture.SubagentHeader)}
		}
		v := maps.Clone(r.values)
		v[request.SlotPrompt] = task
		run := r.run
		run.name, run.prompt, run.answers, run.sub = r.run.name+" sub-agent", task, r.run.sub, nil
		inner[i] = &reqRan{run: run, calls: own, values: v, folder: r.folder, contexts: r.contexts}
		text, ok := handedBack(r.calls, tc.Name)
		if !ok {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: no %s result in the session's calls", ErrTextNotFound, tc.Name)}
		}
		results[i] = handBack{text: text, v: usedValues(r.run.sub, id)}
	}
	// the sub-agent's own: no transcript of the session's is read off it
	own := spec
	own.transcripts, own.transcriptFormat = "", ""
	sm, err := deriveRequest(own, rc, version, inner)
	if err != nil {
		return fmt.Errorf("the sub-agent's request: %w", err)
	}
	sm.Stdin, sm.Transcript, sm.HookNames = m.Stdin, m.Transcript, m.HookNames
	if sm.Framing.EmptyResult == nil {
		sm.Framing.EmptyResult = m.Framing.EmptyResult
	}
	result, err := learnHandBack(results)
	if err != nil {
		return &ProbeError{Probe: "request sub-agent result", Err: err}
	}
	m.Subagent = &request.Subagent{Tool: tool, Request: sm, Result: result, ResultShape: shapeOf(counter, result)}
	return nil
}

// handBack is one run's result of the sub-agent tool, and the values its
// slots had.
type handBack struct {
	text string
	v    request.Values
}

// learnHandBack is the one template that reads every run's result, its
// slots where the runs' values differ (the answer, the agent id, the
// tools it used) and the CLI's own numbers that nothing of ours tells
// (its token count, its time) opaque.
func learnHandBack(rs []handBack) (request.Text, error) {
	var errs []error
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			t, err := walk(rs[i].text, rs[j].text, rs[i].v, rs[j].v)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !slices.ContainsFunc(rs, func(h handBack) bool { _, ok := t.Opaque(h.v, h.text); return !ok }) {
				return t, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: no template reads the %d results (%w)", ErrUnexplained, len(rs), errors.Join(errs...))
}

// subCall is the run's call of the sub-agent tool and its task prompt.
func subCall(r reqRun) (capture.ToolCall, string, bool) {
	for _, a := range r.answers {
		for _, tc := range a.ToolCalls {
			var args struct {
				Prompt string `json:"prompt"`
			}
			if json.Unmarshal(tc.Arguments, &args) == nil && args.Prompt != "" {
				return tc, args.Prompt, true
			}
		}
	}
	return capture.ToolCall{}, "", false
}

// subCalls are the calls of the first sub-agent that sent any, and its id.
func subCalls(calls []capture.Call) (string, []capture.Call) {
	id := ""
	var out []capture.Call
	for _, c := range calls {
		a := c.Headers[capture.SubagentHeader]
		if a == "" || id != "" && a != id {
			continue
		}
		id = a
		out = append(out, c)
	}
	return id, out
}

// handedBack is the result of the session's call of tool as its last
// call sent it.
func handedBack(calls []capture.Call, tool string) (string, bool) {
	for k := len(calls) - 1; k >= 0; k-- {
		c := calls[k]
		if c.Headers[capture.SubagentHeader] != "" {
			continue
		}
		asked := map[string]bool{}
		for _, msg := range c.Messages {
			for _, tc := range msg.ToolCalls {
				asked[tc.ID] = asked[tc.ID] || tc.Name == tool
			}
			if msg.Role == "tool" && asked[msg.ToolCallID] {
				return msg.Content, true
			}
		}
	}
	return "", false
}

// usedValues are a sub-agent's result's values: its last answer, its id,
// how many tool calls it made and which tools, each once in the order
// first used.
func usedValues(script []capture.Answer, id string) request.Values {
	v := request.Values{request.SlotAgentID: id}
	var names []string
	uses := 0
	for _, a := range script {
		for _, tc := range a.ToolCalls {
			uses++
			if !slices.Contains(names, tc.Name) {
				names = append(names, tc.Name)
			}
		}
		if len(a.ToolCalls) == 0 {
			v[request.SlotAnswer] = a.Content
		}
	}
	v[request.SlotToolUses], v[request.SlotToolsUsed] = strconv.Itoa(uses), strings.Join(names, ", ")
	return v
}
