package reqhook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/format/yamlpos"
	"hookstudio/app/hooks/shellcmd"
)

// Where request hooks are declared, relative to the skills root: the
// project's file, then each skill's (active while the skill is enabled).
const (
	ProjectFile = ".hookstudio/request-hooks.yaml"
	SkillFile   = "hooks/request-hooks.yaml" // under <skill>/
)

// DefaultTimeout bounds a hook that declares none.
const DefaultTimeout = 10 * time.Second

// Diagnostic codes of request-hooks.yaml.
const (
	CodeSyntax       = "request-hooks-syntax"
	CodeWrongType    = "wrong-type"
	CodeUnknownField = "unknown-field"
	CodeMissingField = "missing-field"
	CodeInvalidValue = "invalid-value"
	CodeShellSyntax  = "shell-syntax" // sh -c cannot read the command
)

// Hook is one declared command hook.
type Hook struct {
	Name    string        `json:"name"`
	Command string        `json:"command"`
	Timeout time.Duration `json:"timeout"`
	Event   string        `json:"event"`           // request_start | request_end
	Skill   string        `json:"skill,omitempty"` // "" for the project file
	Source  string        `json:"source"`          // file:line, relative to the root
	Dir     string        `json:"-"`               // the folder holding the file (absolute)
}

// Config is every request hook of a skills root, in chain order.
type Config struct {
	Start, End  []Hook
	Diagnostics []diag.Diagnostic
	// Fingerprint hashes every file read (path and bytes): trust is
	// remembered by it ("" when there are none).
	Fingerprint string
}

// Level is one mapping of the file format (for the schema test).
type Level struct {
	Name     string
	Fields   []string
	Required []string
}

// Levels lists the file format's mappings: the file and one hook.
func Levels() []Level {
	return []Level{
		{Name: "file", Fields: []string{"start", "end"}, Required: []string{}},
		{Name: "hook", Fields: []string{"name", "command", "timeout"}, Required: []string{"command"}},
	}
}

// Load reads the project file and every skill's file under root. A file
// that does not exist is no error; a broken one gives diagnostics and
// none of its hooks.
func Load(root string) (*Config, error) { return LoadDrafts(root, nil) }

// LoadDrafts is Load reading drafts (unsaved editor texts by root-relative
// path, "s/hooks/request-hooks.yaml") instead of those files; a draft may
// stand for a file not written yet.
func LoadDrafts(root string, drafts map[string][]byte) (*Config, error) {
	cfg := &Config{}
	sum := sha256.New()
	files := []struct{ rel, skill string }{{ProjectFile, ""}}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("request hooks: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			files = append(files, struct{ rel, skill string }{e.Name() + "/" + SkillFile, e.Name()})
		}
	}
	for _, f := range files {
		abs := filepath.Join(root, filepath.FromSlash(f.rel))
		data, ok := drafts[f.rel]
		if !ok {
			var err error
			data, err = os.ReadFile(abs)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("request hooks: %w", err)
			}
		}
		fmt.Fprintf(sum, "%s\x00%d\x00", f.rel, len(data))
		sum.Write(data)
		cfg.Fingerprint = hex.EncodeToString(sum.Sum(nil))
		start, end, ds := Parse(f.rel, data, f.skill)
		cfg.Diagnostics = append(cfg.Diagnostics, ds...)
		if diag.HasErrors(ds) {
			continue
		}
		for _, hs := range [][]Hook{start, end} {
			for i := range hs {
				hs[i].Dir = filepath.Dir(abs)
			}
		}
		cfg.Start = append(cfg.Start, start...)
		cfg.End = append(cfg.End, end...)
	}
	diag.Sort(cfg.Diagnostics)
	return cfg, nil
}

// Infos describes the hooks for the skills panel and the trust prompt.
func (c *Config) Infos() []engine.HookInfo {
	out := []engine.HookInfo{}
	for _, hs := range [][]Hook{c.Start, c.End} {
		for _, h := range hs {
			out = append(out, engine.HookInfo{System: System, Event: h.Event, Hook: h.Name, Skill: h.Skill, Source: h.Source, Detail: h.Command})
		}
	}
	return out
}

// Parse decodes one request-hooks.yaml: start and end hooks in order, and
// every problem at once with its position.
func Parse(file string, data []byte, skill string) (start, end []Hook, ds []diag.Diagnostic) {
	p := &parser{Sink: diag.Sink{File: file}}
	doc, err := yamlpos.Decode(data)
	if err != nil {
		line, _ := yamlpos.Line(err)
		p.Errorf(line, 0, CodeSyntax, "%s is not valid YAML: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
		return nil, nil, p.Diags
	}
	if doc.Node == nil || len(doc.Node.Content) == 0 {
		return nil, nil, nil // an empty file declares nothing
	}
	root := doc.Node.Content[0]
	if root.Kind != yaml.MappingNode {
		p.errorf(root, CodeWrongType, "the file must be a mapping with start: and end: lists, e.g. start: [{command: ./check.sh}]")
		return nil, nil, p.Diags
	}
	p.fields(root, "the file", Levels()[0].Fields, func(key string, v *yaml.Node) {
		event := EventStart
		if key == "end" {
			event = EventEnd
		}
		if v.Kind != yaml.SequenceNode {
			p.errorf(v, CodeWrongType, "%s must be a list of hooks, e.g. %s: [{command: ./audit.sh, timeout: 5}]", key, key)
			return
		}
		for i, item := range v.Content {
			if h, ok := p.hook(item, fmt.Sprintf("%s[%d]", key, i), event, skill); ok {
				if event == EventStart {
					start = append(start, h)
				} else {
					end = append(end, h)
				}
			}
		}
	})
	return start, end, p.Diags
}

type parser struct{ diag.Sink }

func (p *parser) errorf(n *yaml.Node, code, format string, args ...any) {
	p.Errorf(n.Line, n.Column, code, format, args...)
}

// fields walks a mapping: known keys go to fn, x- keys are ignored,
// others are warnings naming the known ones.
func (p *parser) fields(n *yaml.Node, where string, known []string, fn func(key string, v *yaml.Node)) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case slices.Contains(known, k.Value):
			fn(k.Value, v)
		case strings.HasPrefix(k.Value, "x-"):
		default:
			p.Warnf(k.Line, k.Column, CodeUnknownField, "%s has no field %q; it is ignored (known: %s)", where, k.Value, strings.Join(known, ", "))
		}
	}
}

func (p *parser) hook(n *yaml.Node, where, event, skill string) (Hook, bool) {
	h := Hook{Event: event, Skill: skill, Timeout: DefaultTimeout, Source: fmt.Sprintf("%s:%d", p.File, n.Line)}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, CodeWrongType, "%s must be a mapping like {command: ./check.sh, timeout: 5}", where)
		return h, false
	}
	ok, hasCommand := true, false
	str := func(v *yaml.Node, field string) (string, bool) {
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			p.errorf(v, CodeWrongType, "%s.%s must be a string", where, field)
			ok = false
			return "", false
		}
		return v.Value, true
	}
	p.fields(n, where, Levels()[1].Fields, func(key string, v *yaml.Node) {
		switch key {
		case "name":
			h.Name, _ = str(v, key)
		case "command":
			hasCommand = true
			if s, good := str(v, key); good {
				var pe *shellcmd.ParseError
				if strings.TrimSpace(s) == "" {
					p.errorf(v, CodeInvalidValue, "%s.command is empty; give the command to run, e.g. command: ./check.sh", where)
					ok = false
				} else if _, err := shellcmd.Parse(s); errors.As(err, &pe) {
					p.errorf(v, CodeShellSyntax, "%s.command: sh -c cannot read it (at %d:%d of it: %s); fix its quoting or syntax", where, pe.Line, pe.Col, pe.Msg)
					ok = false
				}
				h.Command = s
			}
		case "timeout":
			var secs float64
			if v.Kind != yaml.ScalarNode || (v.ShortTag() != "!!int" && v.ShortTag() != "!!float") || v.Decode(&secs) != nil {
				p.errorf(v, CodeWrongType, "%s.timeout must be a number of seconds, e.g. timeout: 5", where)
				ok = false
				return
			}
			if secs <= 0 || secs > 600 {
				p.errorf(v, CodeInvalidValue, "%s.timeout must be between 0 and 600 seconds, got %v", where, secs)
				ok = false
				return
			}
			h.Timeout = time.Duration(secs * float64(time.Second))
		}
	})
	if !hasCommand {
		p.errorf(n, CodeMissingField, "%s has no command; add command: ./check.sh", where)
		ok = false
	}
	if c, err := shellcmd.Parse(h.Command); h.Name == "" && err == nil && len(c.Programs) > 0 {
		h.Name = path.Base(c.Programs[0].Text) // "(sleep 1 &); x" is named sleep, as sh runs it
	}
	return h, ok
}
