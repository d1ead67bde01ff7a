package convert

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
)

// ErrInvalidSource is wrapped by Read's error for a source with errors:
// nothing is converted from a hook set its own agent would not load whole.
var ErrInvalidSource = errors.New("the source hook set has errors")

// ErrUnknownAgent is wrapped for an agent no table knows.
var ErrUnknownAgent = errors.New("unknown agent")

// SourceError carries a source's diagnostics (errors and warnings).
type SourceError struct {
	Agent       string
	Diagnostics []diag.Diagnostic
}

func (e *SourceError) Error() string {
	n, _ := diag.Count(e.Diagnostics)
	return fmt.Sprintf("%s hooks: %d error(s)", Title(e.Agent), n)
}

func (e *SourceError) Unwrap() error { return ErrInvalidSource }

// ReadOptions say where a source's hooks are besides its folder.
type ReadOptions struct {
	// Drafts are unsaved editor texts by root-relative path.
	Drafts map[string][]byte
}

// reader reads one agent's hooks of a folder through its hook system's
// parsed configuration. It returns the set and the system's diagnostics.
type reader struct {
	Agent string
	// Has says whether the folder holds the agent's hooks.
	Has  func(root string) bool
	Read func(ctx context.Context, root string, opts ReadOptions) (*Set, []diag.Diagnostic, error)
}

var readers = []reader{claudeReader}

// Sources lists the agents a hook set can be read from.
func Sources() []string {
	out := make([]string, len(readers))
	for i, r := range readers {
		out[i] = r.Agent
	}
	return out
}

// Detect is the agent whose hooks root holds ("" none): the first source
// whose files are there.
func Detect(root string) string {
	for _, r := range readers {
		if r.Has(root) {
			return r.Agent
		}
	}
	return ""
}

// Read reads agent's hook set of root. A source with errors is a
// *SourceError; its warnings come back with the set.
func Read(ctx context.Context, agent, root string, opts ReadOptions) (*Set, []diag.Diagnostic, error) {
	i := slices.IndexFunc(readers, func(r reader) bool { return r.Agent == agent })
	if i < 0 {
		return nil, nil, fmt.Errorf("read %s hooks: %w (sources: %s)", agent, ErrUnknownAgent, strings.Join(Sources(), ", "))
	}
	set, ds, err := readers[i].Read(ctx, root, opts)
	if err != nil {
		return nil, nil, err
	}
	if diag.HasErrors(ds) {
		return nil, ds, &SourceError{Agent: agent, Diagnostics: ds}
	}
	return set, ds, nil
}

// matcherSyntax is how an agent reads a matcher: bare names (split into
// names) or a regular expression.
type matcherSyntax struct {
	all   []string                    // what means "every one" ("", "*")
	plain func(string) []string       // the names of a plain matcher, nil when it is no list of names
	regex func(string) (string, bool) // the expression Go's regexp reads as the agent does
}

// readMatcher reads a matcher written for agent at a moment whose matcher
// filters on ("tool", "value" or "": not read).
func readMatcher(agent, on, written string, syn matcherSyntax) Matcher {
	m := Matcher{Written: written}
	if on == "" || slices.Contains(syn.all, strings.TrimSpace(written)) {
		m.All = true
		return m
	}
	if names := syn.plain(written); names != nil {
		for _, n := range names {
			if on == "value" {
				m.Values = append(m.Values, n)
			} else if ts := toolsOf(agent, n); ts != nil {
				m.Tools = appendNew(m.Tools, ts...)
			} else {
				m.Unknown = appendNew(m.Unknown, n)
			}
		}
		return m
	}
	if on == "value" {
		m.Values = []string{written}
		return m
	}
	m.Regex = true
	expr, _ := syn.regex(written)
	if re, err := regexp.Compile(expr); err == nil {
		m.Tools = toolsMatching(agent, re.MatchString)
	}
	if len(m.Tools) == 0 {
		m.Unknown = []string{written}
	}
	return m
}

func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}
