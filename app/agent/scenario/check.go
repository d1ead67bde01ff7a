package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
)

// Positions gathered while decoding, for the checks that need the whole
// file (a tool may be declared after the request that calls it).
type (
	scenarioPos struct {
		hasName  bool
		toolsOK  bool
		tools    []toolPos
		requests []*requestPos
	}
	toolPos struct {
		node, name *yaml.Node
	}
	requestPos struct {
		node                    *yaml.Node
		index                   int
		skillRefs               *[]skillRef
		reply, planning, rounds *yaml.Node // keys, nil when absent
		needTool                *yaml.Node // value, nil when absent
		roundList               []roundPos
	}
	roundPos struct {
		node        *yaml.Node
		hasContent  bool
		callsFailed bool // tool_calls was not a list
		calls       []callPos
	}
	callPos struct {
		node, id, name *yaml.Node
	}
)

// skillRef is where one enabled_skills entry was written.
type skillRef struct {
	request      int // -1: the scenario level
	index        int
	name         string
	line, column int
}

// nameRef is where a tool's name was written: a scripted call's
// (requests[request].rounds[round].tool_calls[call]) or a declared tool's
// (tools[call], request -1).
type nameRef struct {
	request, round, call int
	name                 string
	line, column         int
}

// check runs the rules that look across fields: declared tools, and
// scripted answers that the request flow can never reach.
func (d *decoder) check(s *Scenario, sp *scenarioPos) {
	declared := make([]string, 0, len(s.Tools))
	firstTool := map[string]*yaml.Node{}
	for i, t := range s.Tools {
		tp := sp.tools[i]
		if tp.name == nil || t.Name == "" {
			continue
		}
		s.toolRefs = append(s.toolRefs, nameRef{request: -1, call: i, name: t.Name, line: tp.name.Line, column: tp.name.Column})
		if prev, dup := firstTool[t.Name]; dup {
			d.errorf(tp.name, CodeDuplicateTool, "tool %q is declared twice (first at line %d); the model needs one definition per name, so remove or rename one", t.Name, prev.Line)
			continue
		}
		firstTool[t.Name] = tp.name
		declared = append(declared, t.Name)
	}

	active := s.EnableTools && len(s.Tools) > 0
	why := "enable_tools is false"
	if s.EnableTools {
		why = "the scenario declares no tools"
	}
	for i := range s.Requests {
		r, rp := &s.Requests[i], sp.requests[i]
		path := fmt.Sprintf("requests[%d]", i)
		if sp.toolsOK || len(s.Tools) == 0 {
			d.checkCalls(s, r, rp, path, declared)
		}
		if !active {
			if rp.planning != nil {
				d.warnf(rp.planning, CodeUnusedPlanning, "%s.planning is never used: %s, so the request makes one direct call answered by reply", path, why)
			}
			if len(r.Rounds) > 0 {
				d.warnf(rp.rounds, CodeUnreachableRounds, "%s.rounds never play: %s, so there is no agent loop (unless a process hook offers tools at before_llm, as seed 003 describes). Declare tools and enable them, or remove the rounds", path, why)
			}
			continue
		}
		if rp.reply != nil {
			d.warnf(rp.reply, CodeUnusedReply, "%s.reply is never used: tools are on, so the request starts with a planning call; script its answer under planning.content instead", path)
		}
		needTool := len(r.Rounds) > 0 // what an omitted planning means
		if r.Planning != nil {
			needTool = r.Planning.NeedTool
		}
		switch {
		case !needTool && len(r.Rounds) > 0:
			d.warnf(rp.rounds, CodeUnreachableRounds, "%s.rounds never play: planning.need_tool is false, so the agent loop never starts. Set need_tool: true or remove the rounds", path)
			continue
		case needTool && len(r.Rounds) == 0 && rp.needTool != nil:
			d.warnf(rp.needTool, CodeNoRounds, "%s.planning.need_tool is true but no rounds are scripted, so the mock ends the loop at once with its default answer; add rounds", path)
		}
		if n := len(r.Rounds); n > 0 && len(r.Rounds[n-1].ToolCalls) > 0 {
			d.warnf(rp.roundList[n-1].node, CodeNoFinalAnswer, "%s's last round calls tools, so the mock will end the loop with a default answer; add a final round with content", path)
		}
	}
}

// checkCalls matches each scripted call against the declared tools: the
// model can only call what it was offered.
func (d *decoder) checkCalls(s *Scenario, r *Request, rp *requestPos, path string, declared []string) {
	ids := map[string]*yaml.Node{}
	for ri, rd := range r.Rounds {
		for ci, c := range rd.ToolCalls {
			cp := rp.roundList[ri].calls[ci]
			cpath := fmt.Sprintf("%s.rounds[%d].tool_calls[%d]", path, ri, ci)
			if cp.name != nil && c.Name != "" {
				s.callRefs = append(s.callRefs, nameRef{request: rp.index, round: ri, call: ci, name: c.Name, line: cp.name.Line, column: cp.name.Column})
			}
			if cp.name != nil && c.Name != "" && !slices.Contains(declared, c.Name) {
				list := "none are declared"
				if len(declared) > 0 {
					list = "declared: " + strings.Join(declared, ", ")
				}
				// With none declared the agent's tools can only come from a
				// hook (a plugin-tool-only agent), so that is a warning too.
				if hint := suggestion(c.Name, declared); hint != "" {
					d.errorf(cp.name, CodeUnknownTool, "%s calls tool %q, which tools does not declare (%s); the model can only call declared tools, so declare it or fix the name.%s", cpath, c.Name, list, hint)
				} else {
					// Not a typo of a declared tool: a hook may offer it (a PicoClaw
					// before_llm hook injecting a plugin tool, answered by its
					// before_tool respond), so the mock plays the call as scripted.
					d.warnf(cp.name, CodeUnknownTool, "%s calls tool %q, which tools does not declare (%s); the model can call it only if a hook offers it (a PicoClaw plugin tool). Declare it if the agent itself has this tool", cpath, c.Name, list)
				}
			}
			if cp.id != nil && c.ID != "" {
				if prev, dup := ids[c.ID]; dup {
					d.errorf(cp.id, CodeDuplicateCallID, "%s reuses id %q (first at line %d); each tool call of a request needs its own id, or leave id out to get one generated", cpath, c.ID, prev.Line)
				} else {
					ids[c.ID] = cp.id
				}
			}
		}
	}
}

// SkillNames is what an enabled_skills entry may name under a skills root.
type SkillNames struct {
	// Folders are the root's skill folders (seed 000 skills, plugin skill
	// folders): enabling one turns on every hook it holds.
	Folders []string
	// Claude are Claude Code's skills (a SKILL.md): `.claude/skills/<name>`
	// by its name, a plugin's `skills/<name>` as `<plugin>:<name>`.
	Claude []string
	// Why says why a name that is neither cannot be listed, when something
	// of that name is there (a folder that is not a skill, a plugin skill
	// written without its plugin); "" when nothing is. Nil: nothing is.
	Why func(name string) string
}

func (n SkillNames) has(name string) bool {
	return slices.Contains(n.Folders, name) || slices.Contains(n.Claude, name)
}

// available lists the names, or says there are none.
func (n SkillNames) available() string {
	var parts []string
	if len(n.Folders) > 0 {
		parts = append(parts, "skill folders: "+strings.Join(n.Folders, ", "))
	}
	if len(n.Claude) > 0 {
		parts = append(parts, "Claude Code skills: "+strings.Join(n.Claude, ", "))
	}
	if len(parts) == 0 {
		return "the skills root has no skill folder and no Claude Code skill (.claude/skills/<name>/SKILL.md)"
	}
	return strings.Join(parts, "; ")
}

// CheckSkills reports every enabled_skills entry, at the scenario or a
// request level, that names no skill folder and no Claude Code skill of
// names. It runs apart from Parse because the skills are loaded separately.
func CheckSkills(s *Scenario, names SkillNames) []diag.Diagnostic {
	var out []diag.Diagnostic
	report := func(name string, request, index int) {
		if name == "" || names.has(name) {
			return
		}
		dg := diag.Diagnostic{File: s.File, Severity: diag.Error, Code: CodeUnknownSkill}
		if ref, ok := s.findSkillRef(request, index, name); ok {
			dg.Line, dg.Column = ref.line, ref.column
		} else if request >= 0 && s.Requests[request].Line > 0 {
			// Built in code or edited after parsing: point at the request.
			dg.Line, dg.Column = s.Requests[request].Line, 1
		}
		where := "enabled_skills"
		if request >= 0 {
			where = fmt.Sprintf("requests[%d].enabled_skills", request)
		}
		why := ""
		if names.Why != nil {
			why = names.Why(name)
		}
		if why != "" {
			dg.Message = fmt.Sprintf("%s names %q, which is not a skill: %s", where, name, why)
		} else {
			all := append(slices.Clone(names.Folders), names.Claude...)
			dg.Message = fmt.Sprintf("%s names skill %q, but no skill has that name (%s); fix the name or add the skill.%s", where, name, names.available(), suggestion(name, all))
		}
		out = append(out, dg)
	}
	for i, name := range s.EnabledSkills {
		report(name, -1, i)
	}
	for ri, r := range s.Requests {
		for i, name := range r.EnabledSkills {
			report(name, ri, i)
		}
	}
	diag.Sort(out)
	return out
}

func (s *Scenario) findSkillRef(request, index int, name string) (skillRef, bool) {
	for _, ref := range s.skillRefs {
		if ref.request == request && ref.index == index && ref.name == name {
			return ref, true
		}
	}
	return skillRef{}, false
}

// suggestion returns ` Did you mean "x"?` for the candidate nearest to
// name, or "" when none is near enough to be a plausible typo.
func suggestion(name string, candidates []string) string {
	if len(name) > 200 { // no typo is that long; spare the quadratic work
		return ""
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		dist := editDistance(strings.ToLower(name), strings.ToLower(c))
		if bestDist < 0 || dist < bestDist {
			best, bestDist = c, dist
		}
	}
	limit := max(1, len([]rune(name))/3)
	if bestDist < 0 || bestDist > limit || best == name {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// editDistance is the optimal-string-alignment distance over code points:
// Levenshtein plus adjacent transpositions, the commonest typo.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := make([][]int, len(ra)+1)
	for i := range rows {
		rows[i] = make([]int, len(rb)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			rows[i][j] = min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				rows[i][j] = min(rows[i][j], rows[i-2][j-2]+1)
			}
		}
	}
	return rows[len(ra)][len(rb)]
}

// CheckAgentTools checks a scenario played under an agent CLI (who:
// "claude-code 2.1.332") whose tools are tools: a scripted call of a tool
// the agent does not have is an error (the model is never offered it), a
// declared tool it lacks a warning (a run under the agent offers the
// agent's own tools, not the scenario's). Each names the agent's tools.
func CheckAgentTools(s *Scenario, who string, tools []string) []diag.Diagnostic {
	if len(tools) == 0 {
		return nil
	}
	var out []diag.Diagnostic
	list := strings.Join(tools, ", ")
	for _, ref := range s.callRefs {
		if slices.Contains(tools, ref.name) {
			continue
		}
		out = append(out, diag.Diagnostic{File: s.File, Line: ref.line, Column: ref.column, Severity: diag.Error, Code: CodeAgentTool,
			Message: fmt.Sprintf("requests[%d].rounds[%d].tool_calls[%d] calls tool %q, which %s does not have (its tools: %s): the model is never offered it, so script a call of one of them.%s",
				ref.request, ref.round, ref.call, ref.name, who, list, suggestion(ref.name, tools))})
	}
	for _, ref := range s.toolRefs {
		if slices.Contains(tools, ref.name) {
			continue
		}
		out = append(out, diag.Diagnostic{File: s.File, Line: ref.line, Column: ref.column, Severity: diag.Warning, Code: CodeAgentTool,
			Message: fmt.Sprintf("tools[%d] declares %q, which %s does not have (its tools: %s): a run under the agent offers its own tools, so this one is never offered.%s",
				ref.call, ref.name, who, list, suggestion(ref.name, tools))})
	}
	diag.Sort(out)
	return out
}
