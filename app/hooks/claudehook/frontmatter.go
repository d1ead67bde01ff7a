package claudehook

import (
	"bytes"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/yamlpos"
)

// A SKILL.md's frontmatter as Claude Code reads it (measured on 2.1.197 and
// 2.1.332, --plugin-dir plugins alike): the text between a first line
// "---" and the next "---", parsed as YAML; where strict YAML rejects it,
// once more with each top-level value that holds one of YAML's indicators
// (": ", "#", "[", "{", "*", "&", "!", "|", ">", "%", "@", "`") and is not
// already quoted (nor a flow list) put in double quotes, and with leading
// tabs as two spaces each — so `description: Show the board: the files`
// loads, its description the whole line. A frontmatter that fails both
// reads as empty: the skill loads, without its name, description or hooks.

// frontmatterRe finds the frontmatter as Claude Code does: the closing
// "---" is the first one after the opening line, wherever it stands.
var frontmatterRe = regexp.MustCompile(`(?s)\A---\s*\n(.*?)---\s*\n?`)

// frontmatter is a SKILL.md's frontmatter, read.
type frontmatter struct {
	// doc is the YAML as Claude Code reads it (nil: no frontmatter, or one
	// it reads as empty).
	doc *yaml.Node
	// line is the file's line of the frontmatter's first line.
	line int
	// quoted are the top-level lines Claude Code quoted to read it.
	quoted []quotedLine
	// err is the strict parse's error when Claude Code reads it as empty
	// (then errLine and errCol place it in the file) or had to quote.
	err             error
	problem         string // err's words, without the library's prefix
	errLine, errCol int
	// hooks: the frontmatter has a top-level "hooks:" line.
	hooks bool
}

// quotedLine is a top-level value Claude Code quotes to read the
// frontmatter: its key, the value as written, its line in the file.
type quotedLine struct {
	key, value string
	line       int
}

var (
	topValueRe = regexp.MustCompile(`^([a-zA-Z_-]+):\s+(\S.*)$`)
	// yamlIndicatorRe: a plain value holding one needs quotes in YAML.
	yamlIndicatorRe = regexp.MustCompile("[{}\\[\\]*&#!|>%@`]|: ")
	leadingTabsRe   = regexp.MustCompile(`(?m)^\t+`)
	hooksLineRe     = regexp.MustCompile(`(?m)^hooks\s*:`)
)

// readFrontmatter reads data's frontmatter as Claude Code does.
func readFrontmatter(data []byte) frontmatter {
	m := frontmatterRe.FindSubmatchIndex(data)
	if m == nil {
		return frontmatter{}
	}
	front := data[m[2]:m[3]]
	fm := frontmatter{line: bytes.Count(data[:m[2]], []byte("\n")) + 1, hooks: hooksLineRe.Match(front)}
	var doc yaml.Node
	err := yaml.Unmarshal(front, &doc)
	if err == nil {
		fm.doc = &doc
		return fm
	}
	fm.err = err
	line, col, problem := yamlpos.Locate(err, front)
	fm.problem = problem
	fm.errLine, fm.errCol = fm.line+line-1, col
	lenient, quoted := quoteValues(front, fm.line)
	lenient = leadingTabsRe.ReplaceAllFunc(lenient, func(tabs []byte) []byte { return bytes.Repeat([]byte("  "), len(tabs)) })
	var again yaml.Node
	if yaml.Unmarshal(lenient, &again) == nil {
		fm.doc, fm.quoted = &again, quoted
	}
	return fm
}

// quoteValues puts in double quotes each top-level value of front that
// holds a YAML indicator and is not quoted already, as Claude Code does
// before its second parse; first is the file's line of front's first line.
func quoteValues(front []byte, first int) ([]byte, []quotedLine) {
	lines := strings.Split(string(front), "\n")
	var quoted []quotedLine
	for i, l := range lines {
		body, cr := strings.CutSuffix(l, "\r")
		m := topValueRe.FindStringSubmatch(body)
		if m == nil {
			continue
		}
		key, value := m[1], m[2]
		switch {
		case len(value) >= 2 && (value[0] == '"' && value[len(value)-1] == '"' || value[0] == '\'' && value[len(value)-1] == '\''):
			continue
		case strings.HasPrefix(value, "[") && strings.HasSuffix(value, "]") && isFlowList(value):
			continue
		case !yamlIndicatorRe.MatchString(value):
			continue
		}
		esc := strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
		lines[i] = key + `: "` + esc + `"`
		if cr {
			lines[i] += "\r"
		}
		quoted = append(quoted, quotedLine{key: key, value: value, line: first + i})
	}
	return []byte(strings.Join(lines, "\n")), quoted
}

// isFlowList says whether value is a YAML flow sequence ("[a, b]").
func isFlowList(value string) bool {
	var v any
	if yaml.Unmarshal([]byte(value), &v) != nil {
		return false
	}
	_, ok := v.([]any)
	return ok
}
