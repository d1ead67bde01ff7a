package cmdhook

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"
)

// TestSchemaMatchesValidator keeps schema/hooks-yaml.schema.json equal to
// the parser: the same events, hook fields, filter fields and enums, and a
// description on everything.
func TestSchemaMatchesValidator(t *testing.T) {
	data, err := os.ReadFile("../../../schema/hooks-yaml.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	type prop struct {
		Description string   `json:"description"`
		Enum        []string `json:"enum"`
		Type        any      `json:"type"`
	}
	type object struct {
		Description       string                     `json:"description"`
		Properties        map[string]prop            `json:"properties"`
		PatternProperties map[string]json.RawMessage `json:"patternProperties"`
	}
	var schema struct {
		Schema string `json:"$schema"`
		object
		Defs struct {
			Hook   object `json:"hook"`
			Filter object `json:"filter"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema %q", schema.Schema)
	}
	var events []string
	for _, e := range Events {
		events = append(events, string(e))
	}
	check := func(what string, obj object, want []string) {
		t.Helper()
		got := slices.Sorted(maps.Keys(obj.Properties))
		if !slices.Equal(got, slices.Sorted(slices.Values(want))) {
			t.Errorf("%s: schema %q, parser %q", what, got, want)
		}
		for name, p := range obj.Properties {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", what, name)
			}
		}
		if obj.Description == "" {
			t.Errorf("%s has no description", what)
		}
		if _, ok := obj.PatternProperties["^"+ExtensionPrefix]; !ok {
			t.Errorf("%s does not allow %s fields like the parser", what, ExtensionPrefix)
		}
	}
	check("top level", schema.object, append(events, "$schema"))
	check("hook", schema.Defs.Hook, HookFields())
	check("filter", schema.Defs.Filter, FilterFields())
	if got := schema.Defs.Hook.Properties["type"].Enum; !slices.Equal(got, []string{string(TypeBash), string(TypeLLM)}) {
		t.Errorf("type enum %q", got)
	}
	if got := schema.Defs.Hook.Properties["on_error"].Enum; !slices.Equal(got, []string{string(OnErrorSkip), string(OnErrorAbort)}) {
		t.Errorf("on_error enum %q", got)
	}
	// $schema is the one top-level key that is not an event: the parser
	// must not call it an unknown event.
	if _, ds := Parse("h.yaml", []byte("$schema: ../schema/hooks-yaml.schema.json\n")); len(ds) != 0 {
		t.Errorf("$schema key: %v", ds)
	}
}
