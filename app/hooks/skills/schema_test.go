package skills

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"
)

// The schema ships to editors, the validator runs in the app and CLI: this
// test fails as soon as one of them learns a field or value the other
// does not know.
func TestSchemaMatchesValidator(t *testing.T) {
	data, err := os.ReadFile("../../../schema/hooks.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	type object struct {
		Type       string                     `json:"type"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	var schema struct {
		Schema string `json:"$schema"`
		object
		Defs struct {
			Hook object `json:"hook"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", schema.Schema)
	}
	hook := schema.Defs.Hook
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: schema has %q, validator has %q", what, got, want)
		}
	}
	check("top-level properties", slices.Sorted(maps.Keys(schema.Properties)), sorted(TopLevelFields()))
	check("top-level required", schema.Required, []string{"hooks"})
	check("hook properties", slices.Sorted(maps.Keys(hook.Properties)), sorted(KnownFields()))
	check("hook required", hook.Required, RequiredFields())

	var enum struct {
		Enum []string `json:"enum"`
	}
	if err := json.Unmarshal(hook.Properties["timing"], &enum); err != nil {
		t.Fatal(err)
	}
	var timings []string
	for _, tm := range Timings {
		timings = append(timings, string(tm))
	}
	check("timing enum", enum.Enum, timings)
	enum.Enum = nil
	if err := json.Unmarshal(hook.Properties["role"], &enum); err != nil {
		t.Fatal(err)
	}
	check("role enum", enum.Enum, []string{string(System), string(User)})

	var typed struct {
		Type string `json:"type"`
	}
	for field, want := range map[string]string{"name": "string", "file": "string", "persistent": "boolean", "tool_filter": "array"} {
		typed.Type = ""
		if err := json.Unmarshal(hook.Properties[field], &typed); err != nil || typed.Type != want {
			t.Errorf("%s type = %q (%v), want %q", field, typed.Type, err, want)
		}
	}
}
