package skills

// Diagnostic codes. They are stable identifiers: tests, the CLI's JSON
// output and the editor match on them, never on message text.
const (
	// Problems with a whole hooks.json or hooks/ folder (errors).
	CodeSyntax      = "json-syntax"   // hooks.json is not valid JSON
	CodeTooDeep     = "too-deep"      // nesting beyond jsondoc.DefaultMaxDepth
	CodeEmptyFile   = "empty-file"    // hooks.json is empty or whitespace only
	CodeHooksNotDir = "hooks-not-dir" // <skill>/hooks exists but is not a folder

	// Problems in the structure or in one entry (errors).
	CodeNull           = "null"             // the document or a required field is null
	CodeType           = "wrong-type"       // a value has the wrong JSON type
	CodeMissingField   = "missing-field"    // a required field is absent
	CodeEmptyName      = "empty-name"       // name is "" or whitespace
	CodeDuplicateName  = "duplicate-name"   // two entries of one skill share a name
	CodeUnknownTiming  = "unknown-timing"   // timing is not one of Timings
	CodeUnknownRole    = "unknown-role"     // role is not system or user
	CodeEmptyPath      = "empty-path"       // file is "" or whitespace
	CodeAbsolutePath   = "absolute-path"    // file is absolute
	CodeEscapingPath   = "escaping-path"    // file leaves hooks/ (.. or a symlink)
	CodeMissingFile    = "missing-file"     // file does not exist
	CodeFileIsDir      = "file-is-dir"      // file (or hooks.json) is a directory
	CodeNotRegular     = "not-regular-file" // file is a FIFO, device or socket
	CodeUnreadableFile = "unreadable-file"  // file exists but cannot be read
	CodeFileTooLarge   = "file-too-large"   // file is larger than MaxFileSize

	// Warnings: the hook still loads, but probably not as the author meant.
	CodeUnknownField      = "unknown-field"       // a field the loader ignores
	CodeDuplicateKey      = "duplicate-key"       // a key repeated in one object; the last wins
	CodeEmptyPrompt       = "empty-prompt"        // the .md is empty or blank
	CodeInvalidUTF8       = "invalid-utf8"        // the .md is not valid UTF-8
	CodeEmptyToolName     = "empty-tool-name"     // "" inside tool_filter
	CodeEmptyToolFilter   = "empty-tool-filter"   // tool_filter is [] and matches no call
	CodeToolFilterIgnored = "tool-filter-ignored" // tool_filter on a timing other than after_tool_call
	CodePersistentPileUp  = "persistent-pile-up"  // persistent hook re-injected every round
	CodeNullToolFilter    = "null-tool-filter"    // tool_filter: null, treated as absent
)
