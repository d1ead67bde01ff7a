// Package diag provides positioned diagnostics shared by every validator
// (hooks.json, scenario files) and the position arithmetic they need.
package diag

import (
	"cmp"
	"fmt"
	"slices"
)

// Severity is how bad a diagnostic is.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Diagnostic is one problem found in a file. File is relative to the skills
// root, with forward slashes; Line and Column are 1-based (Column counts
// Unicode code points); 0 means "the whole file".
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of errors and warnings.
func Count(ds []Diagnostic) (errors, warnings int) {
	for _, d := range ds {
		if d.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// Sort orders diagnostics by file, line, column, then code, so output is
// stable whatever order the validators found them in.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Code, b.Code),
		)
	})
}

// Sink collects one file's diagnostics as a validator finds them, so that
// every problem is reported at once. Validators turn their own positions
// (a YAML node, a JSON offset) into a line and column and add here.
type Sink struct {
	File  string
	Diags []Diagnostic
}

// Add records a problem at line:col (0: the whole file).
func (s *Sink) Add(line, col int, sev Severity, code, format string, args ...any) {
	s.Diags = append(s.Diags, Diagnostic{File: s.File, Line: line, Column: col, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)})
}

// Errorf records an error at line:col.
func (s *Sink) Errorf(line, col int, code, format string, args ...any) {
	s.Add(line, col, Error, code, format, args...)
}

// Warnf records a warning at line:col.
func (s *Sink) Warnf(line, col int, code, format string, args ...any) {
	s.Add(line, col, Warning, code, format, args...)
}
