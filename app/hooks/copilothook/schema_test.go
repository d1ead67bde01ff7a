package copilothook

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"hookstudio/schema"
)

// The schema ships to editors; the validator runs in the app and hookctl:
// this fails as soon as one knows an event, field or type the other does not.
func TestSchemaMatchesValidator(t *testing.T) {
	var d struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       struct {
			Hook struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"hook"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal([]byte(schema.CopilotHooks), &d); err != nil {
		t.Fatal(err)
	}
	var hooks struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(d.Properties["hooks"], &hooks); err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, e := range append(KnownEvents(), CompatEvents()...) {
		events = append(events, string(e))
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema %q, validator %q", what, got, want)
		}
	}
	keys := func(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }
	check("events", keys(hooks.Properties), slices.Sorted(slices.Values(events)))
	check("hook", keys(d.Defs.Hook.Properties), slices.Sorted(slices.Values(HandlerFields)))
	check("top level", keys(d.Properties), slices.Sorted(slices.Values(append([]string{"$schema"}, TopFields...))))
	var typ struct {
		Enum []string `json:"enum"`
	}
	if err := json.Unmarshal(d.Defs.Hook.Properties["type"], &typ); err != nil {
		t.Fatal(err)
	}
	check("types", typ.Enum, Types)
}
