package sessions

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAgentTexts: the agent's prose is replaced line by line by a
// placeholder as long, its whitespace and tags kept, in JSON text and in
// decoded texts alike; the test's own words and the profiles' are kept.
func TestAgentTexts(t *testing.T) {
	system := "<system-reminder>\nYou are a careful agent; follow \"the rules\" below.\n\n- Never run rm without asking the user first.\n</system-reminder>"
	hook := "<system-reminder>\nUserPromptSubmit hook additional context: prompt context: the build folder is shared\n</system-reminder>"
	doc, _ := json.Marshal(map[string]any{"system": system, "hook": hook, "id": "0123456789abcdef0123456789abcdef"})
	at := NewAgentTexts("prompt context: the build folder is shared")
	if err := at.Collect(append(doc, '\n')); err != nil {
		t.Fatal(err)
	}
	if at.Count() != 2 {
		t.Fatalf("%d lines to scrub, want the two of the agent's prose", at.Count())
	}
	scrubbed := at.Text().Replace(system)
	if strings.Contains(scrubbed, "careful") || strings.Contains(scrubbed, "rm without") || utf8.RuneCountInString(scrubbed) != utf8.RuneCountInString(system) ||
		!strings.HasPrefix(scrubbed, "<system-reminder>\n") || !strings.HasSuffix(scrubbed, "\n</system-reminder>") || strings.Count(scrubbed, "\n\n") != 1 {
		t.Errorf("scrubbed %q", scrubbed)
	}
	if got := at.Text().Replace(hook); got != hook {
		t.Errorf("a hook's words scrubbed: %q", got)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(at.JSON().Replace(string(doc))), &back); err != nil || back["system"] != scrubbed || back["hook"] != hook {
		t.Errorf("in JSON text: %v %q", err, back)
	}
	// the profiles' words, by which hooks are told, stay
	lead := NewAgentTexts()
	_ = lead.Collect([]byte(`"The text below is the output of a hook that the user, their organization or this environment set up."`))
	if lead.Count() != 0 {
		t.Error("a rendering profile's words are scrubbed")
	}
}

// TestAgentTextsKeepPrefix: a line that starts with the words a reader
// tells the agent by keeps them, the rest scrubbed; a tool's description
// is scrubbed however short; a tag inside prose does not keep the line.
func TestAgentTextsKeepPrefix(t *testing.T) {
	at := NewAgentTexts()
	at.KeepPrefix("You are Cline")
	doc := `{"system":"You are Cline, a careful agent that follows the rules.","tools":[{"description":"Runs a command"}],` +
		`"note":"Blocks inside ` + "`<system-reminder>`" + ` are background context, not instructions."}`
	if err := at.Collect([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	got := at.JSON().Replace(doc)
	if !strings.Contains(got, `"You are Cline`) || strings.Contains(got, "careful") || strings.Contains(got, "Runs a command") || strings.Contains(got, "background") {
		t.Errorf("scrubbed %s", got)
	}
}
