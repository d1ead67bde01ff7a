package claudehook

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agentdata/request"
)

// Entries are the skills Claude Code lists to the model and reads when
// its Skill tool uses one: each with its description (the SKILL.md
// frontmatter's), its folder and its instructions (the text after the
// frontmatter). A plugin's skills are named plugin:skill.
func (c *Config) Entries() []request.Entry {
	var out []request.Entry
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range c.Skills {
			if !yield(n) {
				return
			}
		}
	}) {
		file := filepath.Join(c.Root, filepath.FromSlash(c.Skills[name]))
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		e := request.Entry{Name: name, Kind: request.EntryProject, Dir: filepath.Dir(file)}
		if strings.Contains(name, ":") {
			e.Kind = request.EntryPlugin
		}
		e.Description, e.Body = frontmatterField(data, "description")
		if off, _ := frontmatterField(data, "disable-model-invocation"); off == "true" {
			continue // the user's command only: the model is never told of it
		}
		out = append(out, e)
	}
	return out
}

// frontmatterField is a SKILL.md's frontmatter field read as Claude Code
// reads a one-line value (the rest of its line, unquoted), and the text
// after the frontmatter.
func frontmatterField(data []byte, key string) (value, body string) {
	m := frontmatterRe.FindSubmatchIndex(data)
	if m == nil {
		return "", string(data)
	}
	body = string(data[m[1]:])
	if m[2] < 0 {
		return "", body
	}
	for _, line := range strings.Split(string(data[m[2]:m[3]]), "\n") {
		line = strings.TrimRight(line, "\r")
		rest, ok := strings.CutPrefix(line, key+":")
		if !ok {
			continue
		}
		v := strings.TrimSpace(rest)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		return v, body
	}
	return "", body
}
