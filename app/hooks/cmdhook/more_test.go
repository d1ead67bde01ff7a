package cmdhook

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
)

// TestDrafts: an unsaved hooks.yaml from the editor is read instead of
// the file, and validated the same way.
func TestDrafts(t *testing.T) {
	root := writeTree(t, map[string]string{"g/hooks/hooks.yaml": "stop:\n  - command: \"true\"\n"})
	cfg, err := Load(root, LoadOptions{Drafts: map[string][]byte{"g/hooks/hooks.yaml": []byte("stop:\n  - command: \"true\"\n  - type: llm\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Diagnostics) != 1 || cfg.Diagnostics[0].Code != CodeMissingPrompt || len(cfg.Hooks) != 1 {
		t.Errorf("draft: %v, %d hooks", cfg.Diagnostics, len(cfg.Hooks))
	}
	// A draft for a skill whose hooks.yaml does not exist yet.
	writeFile(t, filepath.Join(root, "new.txt"), "")
	cfg, err = Load(root, LoadOptions{Drafts: map[string][]byte{ProjectFile: []byte("stop:\n  - command: \"true\"\n")}})
	if err != nil || len(cfg.Hooks) != 2 || cfg.Hooks[0].Level != LevelProject {
		t.Errorf("a draft of a file not written yet: %v %+v", err, cfg.Hooks)
	}
}

// TestSessionHooksRunLast: a registered hook runs after the file hooks of
// its event, and sees their changes.
func TestSessionHooksRunLast(t *testing.T) {
	sc := parseScenario(t, strings.Replace(registering, `hook: {command: "echo '{\"action\": \"skip\"}'", filter: {tool_name: read_file}}`,
		`hook: "{\"command\": \"echo '{}'\"}"`, 1))
	root := writeTree(t, map[string]string{ProjectFile: "pre_tool_execution:\n  - command: \"echo '{}'\"\n"})
	tr, _, err := simulate(t, root, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, hc := range callsOf(tr, "pre_tool_execution") {
		sources = append(sources, hc.Source)
	}
	// register_hook's own call (project hook only), then read_file's: project, session.
	if want := []string{".jcli/hooks.yaml:2", ".jcli/hooks.yaml:2", "session:1"}; !slices.Equal(sources, want) {
		t.Errorf("sources %q, want %q", sources, want)
	}
}

// TestLLMCache: with a real completer an llm hook's answer is reused for
// the same rendered prompt and model, and asked again when either changes.
func TestLLMCache(t *testing.T) {
	root := writeTree(t, map[string]string{ProjectFile: "pre_tool_execution:\n  - {name: r, type: llm, prompt: \"check {{tool_name}} {{tool_arguments}}\"}\n"})
	cache := NewCache()
	f := &fakeCompleter{answers: []string{"{}"}}
	runOnce := func(sc string) []engine.HookCall {
		tr, _, err := simulate(t, root, parseScenario(t, sc), func(o *Options) { o.Completer, o.Cache = f, cache })
		if err != nil {
			t.Fatal(err)
		}
		return callsOf(tr, "pre_tool_execution")
	}
	first := runOnce(full)
	asked := len(f.asked)
	second := runOnce(full)
	if len(f.asked) != asked {
		t.Errorf("asked again: %d → %d", asked, len(f.asked))
	}
	for i := range second {
		if !second[i].Reused || first[i].Reused {
			t.Errorf("call %d: reused %v then %v", i, first[i].Reused, second[i].Reused)
		}
	}
	runOnce(strings.Replace(full, "notes.txt", "other-notes.txt", 1))
	if len(f.asked) != asked+1 {
		t.Errorf("a changed prompt: asked %d times, want %d", len(f.asked), asked+1)
	}
}

// TestHooksInfo describes hooks for the skills panel.
func TestHooksInfo(t *testing.T) {
	root := writeTree(t, map[string]string{"g/hooks/hooks.yaml": "stop:\n  - command: \"echo '{}'\"\npre_tool_execution:\n  - {name: r, type: llm, prompt: \"first line\\nsecond\"}\n"})
	h, err := New(Options{Root: root, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	infos := h.Hooks()
	if len(infos) != 2 || infos[0].Skill != "g" || infos[0].Source != "g/hooks/hooks.yaml:2" || infos[0].Detail != "echo '{}'" || infos[1].Detail != "llm: first line" || infos[1].Hook != "r" {
		t.Errorf("infos %+v", infos)
	}
	if cmds := h.Commands(); len(cmds) != 1 || cmds[0].Dir != filepath.Join(root, "g", "hooks") {
		t.Errorf("commands %+v", cmds)
	}
}
