package edit

import (
	"fmt"
	"slices"
	"testing"

	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/skills"
)

// fuzzSeed is the example hooks.json with an unknown field on every hook
// that identifies it, and unknown top-level fields.
const fuzzSeed = `{
  "$schema": "../../../schema/hooks.schema.json",
  "x-top": {"keep": [1, 2]},
  "hooks": [
    {
      "name": "tool-etiquette",
      "file": "tool-etiquette.md",
      "timing": "before_first_agent",
      "role": "system",
      "persistent": false,
      "x-id": "h0"
    },
    {"name": "truncated-content-hint", "x-id": "h1", "file": "truncated-content-hint.md", "timing": "after_tool_call", "role": "system", "persistent": false, "tool_filter": ["read_file", "search_text"]},
    {
      "name": "write-safety",
      "file": "write-safety.md",
      "timing": "after_tool_call",
      "role": "system",
      "persistent": false,
      "tool_filter": ["write_file"],
      "x-id": "h2"
    }
  ],
  "x-end": true
}
`

// FuzzOperations applies random sequences of editing operations and checks
// the result is always valid JSON, every hook keeps its unknown field, the
// top-level unknown fields survive, and hooks are where the model says.
func FuzzOperations(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{6, 0, 0, 7, 2, 1, 3, 1, 0})
	f.Add([]byte{3, 0, 3, 0, 3, 0, 0, 0, 0, 2, 2})
	f.Fuzz(func(t *testing.T, prog []byte) {
		d, err := Parse("s/hooks/hooks.json", []byte(fuzzSeed))
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{"h0", "h1", "h2"} // the model: x-id of each hook, "" for new ones
		next := func() int {
			if len(prog) == 0 {
				return 0
			}
			b := int(prog[0])
			prog = prog[1:]
			return b
		}
		for n := 0; len(prog) > 0 && n < 64; n++ {
			kind, a, b := next()%9, next(), next()
			var nd *Document
			idx := 0
			if len(ids) > 0 {
				idx = a % len(ids)
			}
			switch kind {
			case 0:
				nd, err = d.AddHook(Hook{Name: fmt.Sprintf("new-%d", n), File: "n.md", Timing: skills.Timings[b%5], Role: skills.User})
				if err == nil {
					ids = append(ids, "")
				}
			case 1:
				nd, err = d.InsertHook(a%(len(ids)+1), Hook{Name: fmt.Sprintf("ins-%d", n), File: "n.md", Timing: skills.AfterUserInput, Role: skills.System})
				if err == nil {
					ids = slices.Insert(ids, a%(len(ids)+1), "")
				}
			case 2:
				nd, err = d.DeleteHook(idx)
				if err == nil {
					ids = slices.Delete(ids, idx, idx+1)
				}
			case 3:
				if len(ids) > 0 {
					to := b % len(ids)
					nd, err = d.MoveHook(idx, to)
					if err == nil {
						id := ids[idx]
						ids = slices.Insert(slices.Delete(ids, idx, idx+1), to, id)
					}
				}
			case 4:
				nd, err = d.DuplicateHook(idx, "")
				if err == nil {
					ids = slices.Insert(ids, idx+1, ids[idx])
				}
			case 5:
				nd, err = d.RenameHook(idx, fmt.Sprintf("renamed-%d-%d", n, b))
			case 6:
				keys := []string{"timing", "role", "persistent", "tool_filter", "file", "x-extra"}
				values := []any{"after_tool_call", "user", true, []string{"a", "b"}, "x.md", map[string]int{"n": b}}
				nd, err = d.SetField(idx, keys[b%len(keys)], values[b%len(values)])
			case 7:
				keys := []string{"timing", "role", "persistent", "tool_filter", "file"}
				nd, err = d.DeleteField(idx, keys[b%len(keys)])
			case 8:
				nd, err = d.UpdateHook(idx, map[string]any{"role": "user", "tool_filter": nil, "persistent": b%2 == 0})
			}
			if err != nil || nd == nil {
				continue // a refused operation (index, name) changes nothing
			}
			d = nd
			check(t, d, ids)
		}
	})
}

func check(t *testing.T, d *Document, ids []string) {
	t.Helper()
	doc, err := jsondoc.Parse(d.Bytes())
	if err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, d.Bytes())
	}
	if got := compactOf(doc.Root.Get("x-top")); got != `{"keep":[1,2]}` {
		t.Fatalf("x-top lost: %q\n%s", got, d.Bytes())
	}
	if doc.Root.Get("x-end") == nil || doc.Root.Get("$schema") == nil {
		t.Fatalf("top-level field lost:\n%s", d.Bytes())
	}
	hooks := doc.Root.Get("hooks").Children
	if len(hooks) != len(ids) {
		t.Fatalf("%d hooks, model has %d:\n%s", len(hooks), len(ids), d.Bytes())
	}
	for i, h := range hooks {
		got := ""
		if v := h.Get("x-id"); v != nil {
			got = v.Str
		}
		if got != ids[i] {
			t.Fatalf("hook %d has x-id %q, want %q:\n%s", i, got, ids[i], d.Bytes())
		}
	}
}
