package hookdecl

import (
	"fmt"

	"hookstudio/app/format/diag"
)

// At collects the problems found at one place of a file (a hook's).
type At struct {
	File         string
	Line, Column int
	Diags        []diag.Diagnostic
}

// Warn adds a warning there.
func (a *At) Warn(code, format string, args ...any) {
	a.Diags = append(a.Diags, diag.Diagnostic{File: a.File, Line: a.Line, Column: a.Column, Severity: diag.Warning, Code: code, Message: fmt.Sprintf(format, args...)})
}
