package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Change is one difference between two profiles of an agent.
type Change struct {
	Outcome string `json:"outcome"`
	// Field is what changed: "outcome" (added or removed), "renderings"
	// (how many), "join", or a rendering's field ("renderings[1].preamble").
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// Diff lists what changes from a to b, by outcome id.
func Diff(a, b *Profile) []Change {
	ids := []string{}
	for id := range a.Outcomes {
		ids = append(ids, id)
	}
	for id := range b.Outcomes {
		if _, ok := a.Outcomes[id]; !ok {
			ids = append(ids, id)
		}
	}
	order := Outcomes(b.Agent)
	rank := func(id string) int {
		if i := slices.IndexFunc(order, func(s Spec) bool { return s.ID == id }); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortFunc(ids, func(x, y string) int {
		if d := rank(x) - rank(y); d != 0 {
			return d
		}
		if x < y {
			return -1
		}
		return 1
	})
	out := []Change{} // never null in JSON: the app lists it
	for _, id := range ids {
		oa, ob := a.Outcomes[id], b.Outcomes[id]
		switch {
		case oa == nil:
			out = append(out, Change{Outcome: id, Field: "outcome", From: "", To: "added"})
			continue
		case ob == nil:
			out = append(out, Change{Outcome: id, Field: "outcome", From: "present", To: "removed"})
			continue
		}
		if ja, jb := show(oa.Join), show(ob.Join); ja != jb {
			out = append(out, Change{Outcome: id, Field: "join", From: ja, To: jb})
		}
		if len(oa.Renderings) != len(ob.Renderings) {
			out = append(out, Change{Outcome: id, Field: "renderings", From: fmt.Sprint(len(oa.Renderings)), To: fmt.Sprint(len(ob.Renderings))})
		}
		for i := range min(len(oa.Renderings), len(ob.Renderings)) {
			ra, rb := &oa.Renderings[i], &ob.Renderings[i]
			for _, f := range []struct {
				name string
				a, b any
			}{
				{"place", ra.Place, rb.Place}, {"role", ra.Role, rb.Role}, {"anchor", ra.Anchor, rb.Anchor},
				{"wrapper", ra.Wrapper, rb.Wrapper}, {"preamble", ra.Preamble, rb.Preamble}, {"text", ra.Text, rb.Text},
				{"is_error", ra.IsError, rb.IsError}, {"escape", ra.Escape, rb.Escape}, {"separator", ra.Separator, rb.Separator},
			} {
				if x, y := show(f.a), show(f.b); x != y {
					out = append(out, Change{Outcome: id, Field: fmt.Sprintf("renderings[%d].%s", i, f.name), From: x, To: y})
				}
			}
		}
	}
	if !slices.Equal(a.AgentParagraphs, b.AgentParagraphs) {
		out = append(out, Change{Field: "agent_paragraphs", From: fmt.Sprint(len(a.AgentParagraphs)), To: fmt.Sprint(len(b.AgentParagraphs))})
	}
	return out
}

func show(v any) string {
	b, _ := json.Marshal(v)
	if s := string(b); s != "null" && s != `""` && s != "false" {
		return s
	}
	return ""
}

// Nearest is the profile of ps whose version is closest to version: the
// same, else the newest older one, else the oldest newer one; nil when ps
// is empty.
func Nearest(ps []*Profile, version string) *Profile {
	var older, newer *Profile
	for _, p := range ps {
		switch c := CompareVersions(p.Version, version); {
		case c == 0:
			return p
		case c < 0 && (older == nil || CompareVersions(p.Version, older.Version) > 0):
			older = p
		case c > 0 && (newer == nil || CompareVersions(p.Version, newer.Version) < 0):
			newer = p
		}
	}
	if older != nil {
		return older
	}
	return newer
}

// Encode writes a profile as its file holds it: indented JSON, outcomes by
// id, a final newline (a calibration writes the same bytes every time).
func Encode(p *Profile) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // <system-reminder> as the agent writes it
	enc.SetIndent("", "  ")
	_ = enc.Encode(p) // a Profile always encodes
	return b.Bytes()
}
