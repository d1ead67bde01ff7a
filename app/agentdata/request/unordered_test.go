package request

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestCanonicalOrder: two texts that list the same skills in other orders
// are one text in canonical order; other texts are left as they are.
func TestCanonicalOrder(t *testing.T) {
	a := "Skills:\n<available_skills>\n  <skill>\n    <name>b</name>\n  </skill>\n  <skill>\n    <name>a</name>\n  </skill>\n</available_skills>\nActivate one (Available: 'b', 'a')."
	b := "Skills:\n<available_skills>\n  <skill>\n    <name>a</name>\n  </skill>\n  <skill>\n    <name>b</name>\n  </skill>\n</available_skills>\nActivate one (Available: 'a', 'b')."
	if CanonicalOrder(a) != CanonicalOrder(b) {
		t.Errorf("not one text:\n%s\n---\n%s", CanonicalOrder(a), CanonicalOrder(b))
	}
	if CanonicalOrder(b) != b {
		t.Errorf("a text in canonical order changed:\n%s", CanonicalOrder(b))
	}
	for _, s := range []string{
		"no list here",
		"<available_skills>\n  <skill>x</skill>\n  a line of its own\n  <skill>w</skill>\n</available_skills>", // not only entries: kept
	} {
		if got := CanonicalOrder(s); got != s {
			t.Errorf("%q changed to %q", s, got)
		}
	}
}

// TestCanonicalToolOrder: a tool whose enum and description list the same
// names in another order is the same tool; a number enum keeps its order.
func TestCanonicalToolOrder(t *testing.T) {
	dec := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := dec(`{"name":"activate_skill","description":"Activates (Available: 'z', 'a')","parameters":{"properties":{"name":{"enum":["z","a"]},"n":{"enum":[2,1]}}}}`)
	b := dec(`{"name":"activate_skill","description":"Activates (Available: 'a', 'z')","parameters":{"properties":{"name":{"enum":["a","z"]},"n":{"enum":[2,1]}}}}`)
	if !reflect.DeepEqual(CanonicalToolOrder(a), CanonicalToolOrder(b)) {
		t.Errorf("not one tool: %v\n%v", CanonicalToolOrder(a), CanonicalToolOrder(b))
	}
	c := dec(`{"parameters":{"properties":{"n":{"enum":[1,2]}}}}`)
	if reflect.DeepEqual(CanonicalToolOrder(c), CanonicalToolOrder(dec(`{"parameters":{"properties":{"n":{"enum":[2,1]}}}}`))) {
		t.Error("a number enum's order was dropped")
	}
}
