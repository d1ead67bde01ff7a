package capture

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestOneMessageReadsAsWhole: each message of a request the agents sent
// (testdata/agents), read on its own with ChatMessage or GeminiContent, is
// read as the whole request reads it.
func TestOneMessageReadsAsWhole(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "agents", "*.json"))
	seen := map[API]bool{}
	for _, file := range files {
		var fx struct {
			API  API             `json:"api"`
			Path string          `json:"path"`
			Body json.RawMessage `json:"body"`
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &fx); err != nil {
			t.Fatal(err)
		}
		var whole *Request
		var one []Message
		switch fx.API {
		case OpenAI:
			whole, _, _ = parseOpenAI(fx.Body)
			gjson.GetBytes(fx.Body, "messages").ForEach(func(_, m gjson.Result) bool {
				one = append(one, ChatMessage(json.RawMessage(m.Raw))...)
				return true
			})
		case Gemini:
			path, _, _ := strings.Cut(fx.Path, "?")
			gp, _ := parseGeminiPath(path)
			whole, _, _ = parseGemini(fx.Body, gp)
			whole.Messages = withoutSystem(whole.Messages)
			gjson.GetBytes(fx.Body, "contents").ForEach(func(_, c gjson.Result) bool {
				ms, _ := GeminiContent(json.RawMessage(c.Raw))
				one = append(one, ms...)
				return true
			})
		default:
			continue
		}
		seen[fx.API] = true
		if len(one) == 0 || !reflect.DeepEqual(one, whole.Messages) {
			t.Errorf("%s: a message at a time\n%+v\nthe whole request\n%+v", filepath.Base(file), one, whole.Messages)
		}
	}
	if !seen[OpenAI] || !seen[Gemini] {
		t.Fatalf("no fixture of each API: %v", seen)
	}
}

// withoutSystem is ms without the system instruction (not a content).
func withoutSystem(ms []Message) []Message {
	var out []Message
	for _, m := range ms {
		if m.Origin != OriginSystem {
			out = append(out, m)
		}
	}
	return out
}
