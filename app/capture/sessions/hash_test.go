package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// canonicalSlow is the hash's text made the long way: decoded, then written
// as JSON.stringify writes it with sorted keys.
func canonicalSlow(t *testing.T, role string, content json.RawMessage) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(content))
	d.UseNumber()
	var c any
	if err := d.Decode(&c); err != nil {
		t.Fatal(err)
	}
	if s, ok := c.(string); ok {
		c = []any{map[string]any{"type": "text", "text": s}}
	}
	var buf strings.Builder
	var write func(v any)
	write = func(v any) {
		switch x := v.(type) {
		case nil:
			buf.WriteString("null")
		case bool:
			fmt.Fprint(&buf, x)
		case json.Number:
			buf.WriteString(x.String())
		case string:
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(x)
			buf.WriteString(strings.TrimSuffix(strings.ReplaceAll(strings.ReplaceAll(b.String(), `\u2028`, "\u2028"), `\u2029`, "\u2029"), "\n"))
		case []any:
			buf.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					buf.WriteByte(',')
				}
				write(e)
			}
			buf.WriteByte(']')
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			buf.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					buf.WriteByte(',')
				}
				write(k)
				buf.WriteByte(':')
				write(x[k])
			}
			buf.WriteByte('}')
		}
	}
	write(map[string]any{"role": role, "content": c})
	sum := sha256.Sum256([]byte(buf.String()))
	return hex.EncodeToString(sum[:])
}

// TestMessageHash: the hash made by copying the transcript's bytes in
// sorted order is the hash of the message re-encoded, for every message of
// the fixtures; and it is the name the 2.1.332 transcript's requests give
// the messages they hold.
func TestMessageHash(t *testing.T) {
	names := map[string]bool{}
	for _, fx := range claudeFixtures {
		for _, l := range fixtureLines(t, fx.name) {
			var rec claudeRecord
			if json.Unmarshal([]byte(l), &rec) != nil || rec.Message == nil {
				continue
			}
			got, err := messageHash(rec.Message.Role, rec.Message.Content)
			if err != nil {
				t.Fatal(err)
			}
			if want := canonicalSlow(t, rec.Message.Role, rec.Message.Content); got != want {
				t.Errorf("%s line %.80s: %s, the long way %s", fx.name, l, got, want)
			}
			if rec.Type == "api-request-blob" && got != rec.Hash {
				t.Errorf("blob %s hashes to %s", rec.Hash, got)
			}
			names[got] = true
		}
	}
	// the messages as sent: one record each, or an answer's records together
	im := importFixture(t, "claude-code-2.1.332", Options{})
	for h := range im.r.(*claudeReader).blobs {
		names[h] = true
	}
	for _, l := range fixtureLines(t, "claude-code-2.1.332") {
		var rec claudeRecord
		if json.Unmarshal([]byte(l), &rec) == nil && rec.Type == "api-request" {
			for _, h := range rec.Tail {
				if !names[h] {
					t.Errorf("request %s names %s, which no message hashes to", rec.ID, h)
				}
			}
		}
	}
}

func TestFirstBlock(t *testing.T) {
	for _, tc := range []struct{ content, typ, text string }{
		{`"hello"`, "text", "hello"},
		{`[{"type":"text","text":"a \"b\""},{"type":"text","text":"c"}]`, "text", `a "b"`},
		{`[{"text":"later type","type":"text"}]`, "text", "later type"},
		{`[{"tool_use_id":"t1","type":"tool_result","content":"` + strings.Repeat("x", 1000) + `"}]`, "tool_result", ""},
		{`[{"type":"image","source":{"data":"[]{}"}}]`, "image", ""},
		{`{}`, "", ""},
	} {
		if typ, text := firstBlock(json.RawMessage(tc.content)); typ != tc.typ || text != tc.text {
			t.Errorf("%.40s: %q %q", tc.content, typ, text)
		}
	}
	if got := elements(json.RawMessage(`[{"a":"]"}, [1,2] ,"x"]`)); len(got) != 3 || string(got[1]) != "[1,2]" {
		t.Errorf("elements: %q", got)
	}
}
