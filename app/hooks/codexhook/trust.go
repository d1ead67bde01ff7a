package codexhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/format/tomlpos"
)

// trustState is what the user's config.toml says Codex trusts: each hook's
// state by its key ([hooks.state."<key>"]: enabled, trusted_hash) and each
// project's trust level ([projects."<path>"] trust_level).
type trustState struct {
	file, abs string
	hooks     map[string]hookState
	projects  map[string]string
}

type hookState struct {
	enabled *bool
	hash    string
}

func (t *trustState) read(doc *tomlpos.Doc) {
	if js, _, ok := doc.JSON("hooks", "state"); ok {
		if d, err := jsondoc.Parse(js); err == nil {
			for _, k := range d.Root.Get("state").Children {
				var s hookState
				if e := k.Get("enabled"); e != nil && e.Kind == jsondoc.Bool {
					s.enabled = &e.Bool
				}
				if h := k.Get("trusted_hash"); h != nil && h.Kind == jsondoc.String {
					s.hash = h.Str
				}
				t.hooks[k.Key] = s
			}
		}
	}
	if js, _, ok := doc.JSON("projects"); ok {
		if d, err := jsondoc.Parse(js); err == nil {
			for _, p := range d.Root.Get("projects").Children {
				if l := p.Get("trust_level"); l != nil && l.Kind == jsondoc.String {
					t.projects[filepath.Clean(p.Key)] = l.Str
				}
			}
		}
	}
}

// trust says, for each hook, whether Codex will run it: a hook Codex has
// not trusted (by its hash) it skips without a word, a disabled one it
// does not run, and a project's .codex/ it loads only in a trusted project.
// Without the user's config (state nil) Codex's trust is not known: every
// hook is said to need it. The hooks are l.c.Hooks[from:to], of the
// project in root ("" the user's own).
func (l *loader) trust(state *trustState, from, to int, root string) {
	how := "review and trust it in /hooks in the interactive codex, or run codex exec --dangerously-bypass-hook-trust"
	for i := from; i < to; i++ {
		h := &l.c.Hooks[i]
		if h.Type != "command" {
			continue
		}
		warn := func(code, format string, args ...any) {
			l.c.Diagnostics = append(l.c.Diagnostics, diag.Diagnostic{File: h.File, Line: h.Line, Column: h.Column, Severity: diag.Warning, Code: code,
				Message: fmt.Sprintf(format, args...)})
		}
		if state == nil {
			warn(CodeUntrusted, "Codex skips this hook without a word until you trust it (by the hash of its definition): %s; set Codex's user config.toml in Settings to see which hooks it trusts", how)
			continue
		}
		s, ok := state.hooks[h.Key]
		switch {
		case s.enabled != nil && !*s.enabled:
			warn(CodeDisabled, "this hook is disabled in %s ([hooks.state] enabled = false): Codex does not run it, even with --dangerously-bypass-hook-trust", state.file)
		case !ok || s.hash == "":
			warn(CodeUntrusted, "Codex skips this hook, without a word, until you trust it: %s has no trusted hash for %s; %s", state.file, h.Key, how)
		case s.hash != h.Hash:
			warn(CodeModified, "this hook changed since you trusted it (%s holds another hash): Codex skips it, without a word, until you trust it again; %s", state.file, how)
		}
	}
	if state == nil || root == "" || from >= to {
		return
	}
	if level := state.projects[filepath.Clean(root)]; level != "trusted" {
		h := l.c.Hooks[from]
		l.c.Diagnostics = append(l.c.Diagnostics, diag.Diagnostic{File: h.File, Line: h.Line, Column: h.Column, Severity: diag.Warning, Code: CodeProjectUntrusted,
			Message: fmt.Sprintf("%s does not trust this project ([projects.%q] trust_level = %q): Codex does not load its .codex/ at all (one warning: \"Untrusted project-local configuration is disabled\"); run codex exec --trust once, or trust the folder when the interactive codex asks", state.file, root, level)})
	}
}

// canonicalJSON is v as serde_json writes it: object keys sorted, no
// spaces, nothing escaped that need not be.
func canonicalJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // maps of strings, numbers, bools: never fails
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
