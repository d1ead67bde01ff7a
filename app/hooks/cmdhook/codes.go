package cmdhook

// Diagnostic codes of hooks.yaml. They are stable identifiers: tests, the
// CLI's JSON output and the editor match on them, never on message text.
const (
	CodeYAMLSyntax     = "yaml-syntax" // the file is not well-formed YAML
	CodeMultipleDocs   = "multiple-documents"
	CodeWrongType      = "wrong-type"        // a value has the wrong YAML type
	CodeDuplicateKey   = "duplicate-key"     // a mapping repeats a key
	CodeUnknownEvent   = "unknown-event"     // a top-level key is not one of Events
	CodeUnknownField   = "unknown-field"     // a hook or filter field jcli does not define (warning)
	CodeUnknownType    = "unknown-type"      // type is neither bash nor llm
	CodeMissingCommand = "missing-command"   // a bash hook without command
	CodeMissingPrompt  = "missing-prompt"    // an llm hook without prompt
	CodeInvalidOnError = "invalid-on-error"  // on_error is neither skip nor abort
	CodeInvalidTimeout = "invalid-timeout"   // timeout is not a positive number of seconds
	CodeFieldIgnored   = "field-ignored"     // a field the hook's type does not use (warning)
	CodeFilterNoTool   = "filter-no-tool"    // tool_name/tool_matcher on an event without a tool (warning)
	CodeEmptyMatcher   = "empty-matcher"     // tool_matcher has an empty alternative (warning)
	CodeEmptyName      = "empty-name"        // name: "" (Hook Studio extension)
	CodeDuplicateName  = "duplicate-name"    // two hooks of one file share a name (warning)
	CodeCommandMissing = "command-not-found" // the command's program does not exist
	CodeNotExecutable  = "command-not-executable"
	CodeScriptMissing  = "script-not-found" // interpreter + script path: the script does not exist
	CodeShellSyntax    = "shell-syntax"     // sh -c cannot read the command
	CodeUnreadable     = "unreadable-file"  // hooks.yaml exists but cannot be read
	CodeFileTooLarge   = "file-too-large"   // hooks.yaml is larger than MaxFileSize
	CodeMissingEvents  = "missing-events"   // a HOOK.yaml without events
	CodeInvalidRetry   = "invalid-retry"    // retry is not a whole number from 0 to 10
)

// Codes lists every diagnostic code this package emits.
func Codes() []string {
	return []string{CodeYAMLSyntax, CodeMultipleDocs, CodeWrongType, CodeDuplicateKey, CodeUnknownEvent,
		CodeUnknownField, CodeUnknownType, CodeMissingCommand, CodeMissingPrompt, CodeInvalidOnError,
		CodeInvalidTimeout, CodeFieldIgnored, CodeFilterNoTool, CodeEmptyMatcher, CodeEmptyName,
		CodeDuplicateName, CodeCommandMissing, CodeNotExecutable, CodeScriptMissing, CodeUnreadable,
		CodeFileTooLarge, CodeMissingEvents, CodeInvalidRetry}
}
