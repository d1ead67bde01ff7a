package scenario

// Diagnostic codes. They are part of the tool's output contract (editors and
// CI filter on them), so they never change once published; messages may.
const (
	// CodeYAMLSyntax: the file is not well-formed YAML/JSON.
	CodeYAMLSyntax = "yaml-syntax"
	// CodeEmptyFile: the file holds no document at all.
	CodeEmptyFile = "empty-file"
	// CodeMultipleDocuments: a second YAML document follows the first.
	CodeMultipleDocuments = "multiple-documents"
	// CodeAliasLimit: aliases expand to far more nodes than the file holds
	// (an "alias bomb"); decoding stops expanding them.
	CodeAliasLimit = "alias-limit"
	// CodeAliasCycle: an alias refers to a node that contains it.
	CodeAliasCycle = "alias-cycle"
	// CodeTooDeep: a value nests deeper than MaxDepth.
	CodeTooDeep = "too-deep"
	// CodeWrongType: a value has the wrong YAML type.
	CodeWrongType = "wrong-type"
	// CodeInvalidValue: a value has the right type but cannot be used
	// (NaN, infinity, a malformed explicitly tagged scalar).
	CodeInvalidValue = "invalid-value"
	// CodeMissingField: a required field is absent (a warning for name,
	// which defaults to the file's base name).
	CodeMissingField = "missing-field"
	// CodeUnknownField: a field the format does not define (warning).
	CodeUnknownField = "unknown-field"
	// CodeDuplicateKey: a mapping repeats a key.
	CodeDuplicateKey = "duplicate-key"
	// CodeEmptyValue: a string or list that must not be empty is.
	CodeEmptyValue = "empty-value"
	// CodeDuplicateTool: two tools share a name.
	CodeDuplicateTool = "duplicate-tool"
	// CodeToolName: a tool name real providers reject (warning).
	CodeToolName = "tool-name"
	// CodeUnknownTool: a scripted tool call names an undeclared tool.
	CodeUnknownTool = "unknown-tool"
	// CodeAgentTool: under an agent CLI, a scripted call or a declared
	// tool names a tool the agent does not have.
	CodeAgentTool = "agent-tool"
	// CodeDuplicateCallID: two tool calls of one request share an id.
	CodeDuplicateCallID = "duplicate-call-id"
	// CodeEmptyRound: a round has neither content nor tool calls.
	CodeEmptyRound = "empty-round"
	// CodeUnreachableRounds: rounds are scripted but never play (warning).
	CodeUnreachableRounds = "unreachable-rounds"
	// CodeUnusedReply: reply is set but the request never makes a direct
	// call because tools are active (warning).
	CodeUnusedReply = "unused-reply"
	// CodeUnusedPlanning: planning is set but the request makes a direct
	// call because tools are off or none are declared (warning).
	CodeUnusedPlanning = "unused-planning"
	// CodeNoRounds: planning says a tool is needed but no round is
	// scripted, so the mock ends the loop at once (warning).
	CodeNoRounds = "no-rounds"
	// CodeNoFinalAnswer: the last scripted round calls tools, so the mock
	// ends the loop with its default answer (warning).
	CodeNoFinalAnswer = "no-final-answer"
	// CodeSubagentResult: a call that starts a sub-agent scripts a result
	// or an error too, which the sub-agent's answer stands in for.
	CodeSubagentResult = "subagent-result"
	// CodeDuplicateSkill: enabled_skills lists a skill twice (warning).
	CodeDuplicateSkill = "duplicate-skill"
	// CodeUnknownSkill: enabled_skills names no skill under the root
	// (reported by CheckSkills).
	CodeUnknownSkill = "unknown-skill"
)

// Codes lists every diagnostic code this package emits, for tests and
// documentation generators. It returns a fresh slice on each call.
func Codes() []string {
	return []string{
		CodeYAMLSyntax, CodeEmptyFile, CodeMultipleDocuments, CodeAliasLimit,
		CodeAliasCycle, CodeTooDeep, CodeWrongType, CodeInvalidValue,
		CodeMissingField, CodeUnknownField, CodeDuplicateKey, CodeEmptyValue,
		CodeDuplicateTool, CodeToolName, CodeUnknownTool, CodeAgentTool, CodeDuplicateCallID,
		CodeEmptyRound, CodeUnreachableRounds, CodeUnusedReply,
		CodeUnusedPlanning, CodeNoRounds, CodeNoFinalAnswer,
		CodeDuplicateSkill, CodeUnknownSkill,
		CodeResultAndError,     // hookfields.go
		CodeUnknownPlaceholder, // placeholders.go
		// expect: lists (expect.go)
		CodeUnknownExpectation, CodeEmptyExpectation, CodeExpectAddress, CodeInvalidRegex,
	}
}
