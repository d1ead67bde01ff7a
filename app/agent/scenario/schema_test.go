package scenario

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// schemaObject is the part of a JSON Schema object definition the parser
// and the schema must agree on.
type schemaObject struct {
	Description       string                     `json:"description"`
	Properties        map[string]map[string]any  `json:"properties"`
	Required          []string                   `json:"required"`
	PatternProperties map[string]map[string]any  `json:"patternProperties"`
	Defs              map[string]json.RawMessage `json:"$defs"`
}

// TestSchemaMatchesParser keeps schema/scenario.schema.json and the
// decoder's field tables in step: same fields, same required ones, a
// description on each, at every level.
func TestSchemaMatchesParser(t *testing.T) {
	data, err := os.ReadFile("../../../schema/scenario.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var root schemaObject
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatalf("parse schema: %v", err)
	}
	for _, lv := range Levels() {
		obj := root
		where := "the schema root"
		if lv.Name != "scenario" {
			where = "$defs/" + lv.Name
			raw, ok := root.Defs[lv.Name]
			if !ok {
				t.Errorf("schema has no %s", where)
				continue
			}
			obj = schemaObject{}
			if err := json.Unmarshal(raw, &obj); err != nil {
				t.Fatalf("parse %s: %v", where, err)
			}
		}
		var props []string
		for name, p := range obj.Properties {
			props = append(props, name)
			if d, _ := p["description"].(string); d == "" {
				t.Errorf("%s property %s has no description", where, name)
			}
		}
		slices.Sort(props)
		fields := slices.Sorted(slices.Values(lv.Fields))
		if !slices.Equal(props, fields) {
			t.Errorf("%s properties %v, parser fields %v", where, props, fields)
		}
		req := slices.Sorted(slices.Values(obj.Required))
		if want := slices.Sorted(slices.Values(lv.Required)); !slices.Equal(req, want) {
			t.Errorf("%s required %v, parser requires %v", where, req, want)
		}
		if _, ok := obj.PatternProperties["^"+ExtensionPrefix]; !ok {
			t.Errorf("%s does not allow %s extension fields like the parser", where, ExtensionPrefix)
		}
		if obj.Description == "" {
			t.Errorf("%s has no description", where)
		}
	}
}
