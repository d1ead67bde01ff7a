package scenario

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/yamlpos"
)

// MaxDepth bounds how deeply tool parameters and call arguments may nest.
// Real JSON Schemas stay far below it; the limit keeps hostile files from
// costing deep recursion in every later consumer of the decoded values.
const MaxDepth = 128

// The alias budget is how many nodes decoding may visit per node in the file,
// plus a floor for tiny files. Aliases make a file expand; a few-fold
// expansion is normal reuse, thousands-fold is an alias bomb.
const (
	aliasRatio = 10
	aliasFloor = 10000
)

const defaultName = "scenario"

// Parse decodes a scenario file (YAML, or JSON, which it accepts as YAML
// with a compatibility pass for the escapes YAML lacks). file is the path
// relative to the skills root with forward slashes; it names the file in
// every diagnostic. Parse always returns a best-effort Scenario and every
// problem it found at once; callers decide with diag.HasErrors whether the
// scenario is usable. Diagnostics come sorted and without duplicates.
func Parse(file string, data []byte) (*Scenario, []diag.Diagnostic) {
	s := &Scenario{Name: baseName(file), File: file, EnableTools: true}
	d := &decoder{file: file, active: map[*yaml.Node]bool{}}
	if root := d.load(data); root != nil {
		var sp scenarioPos
		if d.object(root, "the scenario", d.scenarioFields(s, &sp)) {
			if !sp.hasName {
				d.warnf(root, CodeMissingField, "the scenario has no name; using %q from the file name. Add name: %s to choose one", s.Name, s.Name)
			}
			d.check(s, &sp)
			d.checkExpectations(s)
		}
	}
	s.usesPlaceholders = d.usesPlaceholders
	return s, d.result()
}

// baseName is the default scenario name: the file name without extension.
func baseName(file string) string {
	b := path.Base(file)
	b = strings.TrimSuffix(b, path.Ext(b))
	if b == "" || b == "." || b == "/" {
		return defaultName
	}
	return b
}

// decoder walks a yaml.Node tree by hand, so every diagnostic can carry the
// position of the node it is about.
type decoder struct {
	file  string
	diags []diag.Diagnostic
	// budget counts the node visits left before aliases count as a bomb.
	budget    int
	exhausted bool
	tooDeep   bool
	// active holds the collections being expanded right now: meeting one
	// again means an alias refers to its own ancestor.
	active map[*yaml.Node]bool
	// usesPlaceholders: a scripted text holds a placeholder (placeholders.go)
	usesPlaceholders bool
}

func (d *decoder) add(n *yaml.Node, sev diag.Severity, code, format string, args ...any) {
	dg := diag.Diagnostic{File: d.file, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		dg.Line, dg.Column = n.Line, n.Column
	}
	d.diags = append(d.diags, dg)
}

func (d *decoder) errorf(n *yaml.Node, code, format string, args ...any) {
	d.add(n, diag.Error, code, format, args...)
}

func (d *decoder) warnf(n *yaml.Node, code, format string, args ...any) {
	d.add(n, diag.Warning, code, format, args...)
}

// result sorts the diagnostics and keeps one per node and code: an
// anchored node with a problem is decoded again at every alias that uses
// it, under a different path, but it is one problem to fix.
func (d *decoder) result() []diag.Diagnostic {
	diag.Sort(d.diags)
	type spot struct {
		line, col int
		code      string
	}
	seen := make(map[spot]bool, len(d.diags))
	out := d.diags[:0]
	for _, dg := range d.diags {
		k := spot{dg.Line, dg.Column, dg.Code}
		if !seen[k] {
			seen[k] = true
			out = append(out, dg)
		}
	}
	return out
}

// utf8BOM is stripped before parsing: editors on Windows add it.
const utf8BOM = "\ufeff"

// load parses the YAML stream and returns the root node of its only
// document, or nil when there is nothing to decode.
func (d *decoder) load(data []byte) *yaml.Node {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	if len(bytes.TrimSpace(data)) == 0 {
		d.errorf(nil, CodeEmptyFile, "the file is empty; a scenario needs at least requests, e.g. requests: [{user: Hello}]")
		return nil
	}
	data = jsonCompat(data)
	d2, err := yamlpos.Decode(data)
	if err != nil {
		d.syntax(err, data)
		return nil
	}
	if d2.Node == nil {
		d.errorf(nil, CodeEmptyFile, "the file holds only comments; a scenario needs at least requests, e.g. requests: [{user: Hello}]")
		return nil
	}
	switch {
	case d2.Second != nil:
		d.errorf(d2.Second, CodeMultipleDocuments, "a second YAML document starts here; a scenario file holds one document, so move it to its own file or remove the ---")
	case d2.SecondErr != nil:
		d.syntax(d2.SecondErr, data)
	}
	doc := d2.Node
	d.budget = aliasRatio*countNodes(doc) + aliasFloor
	if len(doc.Content) == 0 {
		d.errorf(nil, CodeEmptyFile, "the file holds no content; a scenario needs at least requests, e.g. requests: [{user: Hello}]")
		return nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" && root.Value == "" {
		d.errorf(nil, CodeEmptyFile, "the document is empty; a scenario needs at least requests, e.g. requests: [{user: Hello}]")
		return nil
	}
	return root
}

// countNodes counts the nodes as written, not following aliases, which is
// the size the alias budget is proportional to.
func countNodes(n *yaml.Node) int {
	count := 0
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		stack = append(stack, top.Content...)
	}
	return count
}

// deref follows an alias to its anchored node and charges the visit to the
// alias budget. It reports false when there is nothing (more) to decode.
func (d *decoder) deref(n *yaml.Node) (*yaml.Node, bool) {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if hops > 100 { // yaml.v3 never chains aliases; guard anyway
			return nil, false
		}
		n = n.Alias
	}
	if n == nil {
		return nil, false
	}
	d.budget--
	if d.budget < 0 {
		if !d.exhausted {
			d.exhausted = true
			d.errorf(n, CodeAliasLimit, "aliases expand this file to far more nodes than it holds (an alias bomb?); decoding stopped expanding them. Reuse anchors less deeply")
		}
		return nil, false
	}
	return n, true
}

// isString reports whether a scalar decodes as a JSON string. Timestamps
// count: YAML 1.2 and JSON Schema tools read 2024-01-01 as a string.
func isString(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode {
		return false
	}
	tag := n.ShortTag()
	return tag == "!!str" || tag == "!!timestamp"
}

// str decodes a string field.
func (d *decoder) str(n *yaml.Node, path string) (string, bool) {
	v, ok := d.deref(n)
	if !ok {
		return "", false
	}
	if isString(v) {
		return v.Value, true
	}
	hint := ""
	switch {
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null":
		hint = `; write "" for an empty string, or remove the field`
	case v.Kind == yaml.ScalarNode:
		hint = fmt.Sprintf("; quote it to keep the text: %q", v.Value)
	case v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode:
		hint = "; for structured text use a block scalar (|) or quote it"
	}
	d.errorf(n, CodeWrongType, "%s must be a string, not %s%s", path, yamlpos.Describe(v), hint)
	return "", false
}

// boolean decodes a true/false field.
func (d *decoder) boolean(n *yaml.Node, path string) (bool, bool) {
	v, ok := d.deref(n)
	if !ok {
		return false, false
	}
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" {
		var b bool
		if err := v.Decode(&b); err == nil {
			return b, true
		}
	}
	d.errorf(n, CodeWrongType, "%s must be true or false, not %s", path, yamlpos.Describe(v))
	return false, false
}

// list decodes a sequence, calling item for every element. It reports
// whether the value was a list at all.
func (d *decoder) list(n *yaml.Node, path string, item func(i int, n *yaml.Node, path string)) bool {
	v, ok := d.deref(n)
	if !ok {
		return false
	}
	if v.Kind != yaml.SequenceNode {
		d.errorf(n, CodeWrongType, "%s must be a list, not %s; write each entry on its own line starting with - ", path, yamlpos.Describe(v))
		return false
	}
	if d.active[v] {
		d.errorf(n, CodeAliasCycle, "%s is an alias of a list that contains it; it would never end", path)
		return false
	}
	d.active[v] = true
	defer delete(d.active, v)
	for i, it := range v.Content {
		item(i, it, fmt.Sprintf("%s[%d]", path, i))
	}
	return true
}

// object decodes a mapping level against its field table: unknown keys are
// warnings, missing required ones errors. It reports whether the value was a
// mapping.
func (d *decoder) object(n *yaml.Node, path string, fields []field) bool {
	return d.walk(n, path, fields, func(p pair) {
		d.warnf(p.key, CodeUnknownField, "%s has no field %q, so it is ignored.%s", path, p.name, suggestion(p.name, fieldNames(fields)))
	})
}

// walk decodes a mapping against its field table, handing a key no field
// names (and no extension) to unknown. It reports whether the value was a
// mapping.
func (d *decoder) walk(n *yaml.Node, path string, fields []field, unknown func(pair)) bool {
	v, ok := d.deref(n)
	if !ok {
		return false
	}
	if v.Kind != yaml.MappingNode {
		d.errorf(n, CodeWrongType, "%s must be a mapping (key: value), not %s", path, yamlpos.Describe(v))
		return false
	}
	if d.active[v] {
		d.errorf(n, CodeAliasCycle, "%s is an alias of a mapping that contains it; it would never end", path)
		return false
	}
	d.active[v] = true
	defer delete(d.active, v)
	present := map[string]bool{}
	for _, p := range d.pairs(v) {
		f := lookupField(fields, p.name)
		if f == nil {
			if !isExtension(p.name) {
				unknown(p)
			}
			continue
		}
		present[p.name] = true
		sub := path + "." + p.name
		if path == "the scenario" {
			sub = p.name
		}
		f.decode(p.key, p.val, sub)
	}
	for _, f := range fields {
		if f.required && !present[f.name] {
			d.errorf(n, CodeMissingField, "%s is missing %s; add %s: %s", path, f.name, f.name, f.hint)
		}
	}
	return true
}

type pair struct {
	name     string
	key, val *yaml.Node
}

// pairs lists a mapping's entries with YAML merge keys (<<) applied: keys
// written in the mapping win over merged ones, earlier merge sources over
// later ones. Repeated written keys are errors.
func (d *decoder) pairs(m *yaml.Node) []pair {
	var out []pair
	first := map[string]*yaml.Node{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, val := m.Content[i], m.Content[i+1]
		rk, ok := d.deref(k)
		if !ok {
			continue
		}
		if rk.Kind == yaml.ScalarNode && rk.ShortTag() == "!!merge" {
			merges = append(merges, val)
			continue
		}
		if rk.Kind != yaml.ScalarNode {
			d.errorf(k, CodeWrongType, "a key must be a plain string, not %s", yamlpos.Describe(rk))
			continue
		}
		if prev, dup := first[rk.Value]; dup {
			d.errorf(k, CodeDuplicateKey, "key %q is repeated (first at line %d); keep only one", rk.Value, prev.Line)
			continue
		}
		first[rk.Value] = k
		out = append(out, pair{name: rk.Value, key: k, val: val})
	}
	for _, src := range merges {
		rs, ok := d.deref(src)
		if !ok {
			continue
		}
		var sources []*yaml.Node
		switch rs.Kind {
		case yaml.MappingNode:
			sources = []*yaml.Node{src}
		case yaml.SequenceNode:
			sources = rs.Content
		default:
			d.errorf(src, CodeWrongType, "a merge (<<) takes a mapping or a list of mappings, not %s", yamlpos.Describe(rs))
			continue
		}
		for _, s := range sources {
			sm, ok := d.deref(s)
			if !ok {
				continue
			}
			if sm.Kind != yaml.MappingNode {
				d.errorf(s, CodeWrongType, "a merge (<<) takes a mapping or a list of mappings, not %s", yamlpos.Describe(sm))
				continue
			}
			if d.active[sm] {
				d.errorf(s, CodeAliasCycle, "this merge (<<) pulls in a mapping that contains it; it would never end")
				continue
			}
			d.active[sm] = true
			for _, p := range d.pairs(sm) {
				if _, dup := first[p.name]; !dup {
					first[p.name] = p.key
					out = append(out, p)
				}
			}
			delete(d.active, sm)
		}
	}
	return out
}

// mapping decodes a free-form JSON object (tool parameters, call arguments).
func (d *decoder) mapping(n *yaml.Node, path string) map[string]any {
	v, ok := d.deref(n)
	if !ok {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		d.errorf(n, CodeWrongType, "%s must be a mapping (a JSON object), not %s", path, yamlpos.Describe(v))
		return nil
	}
	m, _ := d.value(n, path, 0).(map[string]any)
	return m
}

// value converts any node to the types encoding/json produces: maps with
// string keys, []any, string, float64, bool and nil.
func (d *decoder) value(n *yaml.Node, path string, depth int) any {
	v, ok := d.deref(n)
	if !ok {
		return nil
	}
	if depth > MaxDepth {
		if !d.tooDeep {
			d.tooDeep = true
			d.errorf(n, CodeTooDeep, "%s nests deeper than %d levels; flatten it", path, MaxDepth)
		}
		return nil
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if d.active[v] {
			d.errorf(n, CodeAliasCycle, "%s is an alias of a value that contains it; it would never end", path)
			return nil
		}
		d.active[v] = true
		defer delete(d.active, v)
		if v.Kind == yaml.SequenceNode {
			out := make([]any, 0, len(v.Content))
			for i, it := range v.Content {
				out = append(out, d.value(it, fmt.Sprintf("%s[%d]", path, i), depth+1))
			}
			return out
		}
		out := map[string]any{}
		for _, p := range d.pairs(v) {
			out[p.name] = d.value(p.val, path+"."+p.name, depth+1)
		}
		return out
	case yaml.ScalarNode:
		return d.scalar(v, n, path)
	}
	return nil
}

// scalar converts a scalar by its resolved tag. Numbers become float64, as
// encoding/json would decode them; NaN and infinities have no JSON form.
func (d *decoder) scalar(v, at *yaml.Node, path string) any {
	switch v.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if err := v.Decode(&b); err == nil {
			return b
		}
	case "!!int":
		var i int64
		if err := v.Decode(&i); err == nil {
			return float64(i)
		}
		var u uint64
		if err := v.Decode(&u); err == nil {
			return float64(u)
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64); err == nil && !math.IsInf(f, 0) {
			return f
		}
	case "!!float":
		var f float64
		if err := v.Decode(&f); err == nil {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				d.errorf(at, CodeInvalidValue, "%s is %s, which JSON cannot represent; use a finite number or a string", path, v.Value)
				return nil
			}
			return f
		}
	default:
		// Strings, timestamps, binary and custom tags keep their text.
		return v.Value
	}
	d.errorf(at, CodeInvalidValue, "%s: %q is not a valid %s; fix the value or drop the explicit tag", path, v.Value, strings.TrimPrefix(v.ShortTag(), "!!"))
	return nil
}

// skillList decodes an enabled_skills list and records where each entry
// is, for CheckSkills. request is -1 at the scenario level.
func (d *decoder) skillList(n *yaml.Node, path string, request int, refs *[]skillRef) []string {
	out := []string{}
	seen := map[string]bool{}
	ok := d.list(n, path, func(i int, item *yaml.Node, p string) {
		name, ok := d.str(item, p)
		if !ok {
			return
		}
		if name == "" {
			d.errorf(item, CodeEmptyValue, "%s is empty; name a skill folder", p)
			return
		}
		if seen[name] {
			d.warnf(item, CodeDuplicateSkill, "%s lists skill %q again; remove the repeat", p, name)
			return
		}
		seen[name] = true
		*refs = append(*refs, skillRef{request: request, index: len(out), name: name, line: item.Line, column: item.Column})
		out = append(out, name)
	})
	if !ok {
		return nil
	}
	return out
}

// request decodes one request and fills in what its fields imply.
func (d *decoder) request(n *yaml.Node, path string, r *Request, rp *requestPos, index int, refs *[]skillRef) {
	rp.index = index
	rp.skillRefs = refs
	d.object(n, path, d.requestFields(r, rp))
	// An omitted need_tool means what an omitted planning means: the loop
	// runs exactly when rounds are scripted.
	if r.Planning != nil && rp.needTool == nil {
		r.Planning.NeedTool = len(r.Rounds) > 0
	}
}
