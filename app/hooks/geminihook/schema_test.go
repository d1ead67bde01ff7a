package geminihook

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"hookstudio/schema"
)

// The schemas ship to editors; the validator runs in the app and hookctl:
// this fails as soon as one knows an event, field or type the other does not.
func TestSchemaMatchesValidator(t *testing.T) {
	type object struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	type doc struct {
		object
		Defs map[string]object `json:"$defs"`
	}
	keys := func(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema %q, validator %q", what, got, want)
		}
	}
	var events []string
	for _, e := range KnownEvents() {
		events = append(events, string(e))
	}
	for name, text := range map[string]string{"settings": schema.GeminiSettings, "extension": schema.GeminiExtensionHooks} {
		var d doc
		if err := json.Unmarshal([]byte(text), &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		check(name+" events", keys(d.Defs["hooks"].Properties), sorted(events))
		check(name+" definition", keys(d.Defs["definition"].Properties), sorted(GroupFields))
		check(name+" hook", keys(d.Defs["hook"].Properties), sorted(HandlerFields))
		var typ struct {
			Enum []string `json:"enum"`
		}
		if err := json.Unmarshal(d.Defs["hook"].Properties["type"], &typ); err != nil {
			t.Fatal(err)
		}
		check(name+" types", typ.Enum, Types)
		if name == "settings" {
			check("hooksConfig", keys(d.Defs["hooksConfig"].Properties), sorted(ConfigFields))
			check("top level", keys(d.Properties), []string{"$schema", "hooks", "hooksConfig"})
		}
	}
}
