package hookdecl

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// interpreters run the script their first argument names: a hook is
// named by that script.
var interpreters = []string{"sh", "bash", "python3", "python", "node"}

// Title is how traces and panels name a hook: its name when it has one,
// else a script its command runs by path (directly or through sh, bash,
// python or node) by its file name, else the command cut short.
func Title(name, command string) string {
	if name != "" {
		return name
	}
	if first := strings.Fields(command); len(first) > 0 {
		w := strings.Trim(first[0], `"'`)
		if slices.Contains(interpreters, w) && len(first) > 1 {
			w = strings.Trim(first[1], `"'`)
		}
		if strings.Contains(w, "/") && !strings.ContainsAny(command, "|;&><") {
			return path.Base(w)
		}
	}
	return Cut(command, 48)
}

// Cut is s on one line, cut to n runes with an ellipsis.
func Cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Source is file:line.
func Source(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

// Names are event names as strings (for suggestions, a dialect's lists).
func Names[E ~string](es []E) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = string(e)
	}
	return out
}

// NameMap is a map of names to event names, as strings.
func NameMap[E ~string](m map[string]E) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}
