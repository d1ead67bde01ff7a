package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/agentdata/profile"
)

func TestReadRendering(t *testing.T) {
	pre := "The text below is the output of a hook.\n"
	for _, tc := range []struct {
		name, text, words string
		vals              profile.Values
		want              profile.Rendering
	}{
		{"label and words", "PreToolUse:Bash hook additional context: W", "W",
			profile.Values{Event: "PreToolUse", Tool: "Bash", Text: "W"},
			profile.Rendering{Text: "{event}:{tool} hook additional context: {text}"}},
		{"wrapper", "<system-reminder>\nPostToolUse:Bash hook additional context: W\n</system-reminder>\n", "W",
			profile.Values{Event: "PostToolUse", Tool: "Bash", Text: "W"},
			profile.Rendering{Wrapper: &profile.Wrapper{Open: "<system-reminder>\n", Close: "\n</system-reminder>"}, Text: "{event}:{tool} hook additional context: {text}"}},
		{"wrapper and preamble", "<system-reminder>\n" + pre + "Stop hook feedback:\n[./s.sh {x}]: W\n</system-reminder>", "W",
			profile.Values{Event: "Stop", Command: "./s.sh {x}", Text: "W"},
			profile.Rendering{Wrapper: &profile.Wrapper{Open: "<system-reminder>\n", Close: "\n</system-reminder>"}, Preamble: pre, Text: "{event} hook feedback:\n[{command}]: {text}"}},
		{"the CLI's own words", "Hook PreToolUse:Bash asked for confirmation for this tool", "",
			profile.Values{Event: "PreToolUse", Tool: "Bash"},
			profile.Rendering{Text: "Hook {event}:{tool} asked for confirmation for this tool"}},
		{"prompt and braces", "blocked {by hook}:\nW\n\nOriginal prompt: P1", "W",
			profile.Values{Event: "UserPromptSubmit", Text: "W", Prompt: "P1"},
			profile.Rendering{Text: "blocked {{by hook}}:\n{text}\n\nOriginal prompt: {prompt}"}},
		{"words alone", "W", "W", profile.Values{Event: "PreToolUse", Tool: "Bash", Text: "W"}, profile.Rendering{Text: "{text}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readRendering(tc.text, tc.words, tc.vals, false)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(tc.want)
			if string(a) != string(b) {
				t.Errorf("got  %s\nwant %s", a, b)
			}
		})
	}
}

// A probe whose words are in no request is an error naming it, saying
// whether its hook ran.
func TestDeriveNotFound(t *testing.T) {
	probes, runs, _ := claudeProbes("0000")
	body, _ := json.Marshal(map[string]any{"messages": []any{map[string]any{"role": "user", "content": runs[0].prompt}}})
	rr := &ranRun{bodies: []json.RawMessage{body}, ran: []string{"pre-a"}}
	for _, pr := range probes {
		if pr.id != "PreToolUse.context" {
			continue
		}
		_, err := deriveOutcome(pr, rr, runs)
		if !errors.Is(err, ErrTextNotFound) {
			t.Errorf("err = %v", err)
		}
	}
}

// A CLI that never reaches the endpoint is an error naming the run, and
// nothing is returned to save.
func TestNotOffline(t *testing.T) {
	dir := t.TempDir()
	cli := filepath.Join(dir, "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\nif [ \"$1\" = --version ]; then echo '9.9.9 (Claude Code)'; exit 0; fi\necho 'not logged in' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // a CLI given by a relative path is the one in this folder
	res, err := Run(context.Background(), Options{Agent: profile.ClaudeCode, CLI: "claude"})
	var pe *ProbeError
	if res != nil || !errors.Is(err, ErrNotOffline) || !errors.As(err, &pe) || pe.Probe != "main" {
		t.Errorf("res %v err %v", res, err)
	}
	if _, err := Run(context.Background(), Options{Agent: "cursor", CLI: cli}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("cursor: %v", err)
	}
	// another agent's probe runs from its recipe fail the same way
	if res, err := Run(context.Background(), Options{Agent: "codex", CLI: cli}); res != nil || !errors.Is(err, ErrNotOffline) || !errors.As(err, &pe) || pe.Probe != "main" {
		t.Errorf("codex: %v %v", res, err)
	}
	if _, err := Run(context.Background(), Options{Agent: profile.ClaudeCode, CLI: filepath.Join(dir, "none")}); !errors.Is(err, ErrNotOffline) {
		t.Errorf("a missing CLI: %v", err)
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	p, err := profile.NewCatalog("").Get(profile.ClaudeCode, "2.1.332")
	if err != nil {
		t.Fatal(err)
	}
	p.Version = "2.1.400"
	file, err := Save(dir, p)
	if err != nil || file != profile.Path(dir, profile.ClaudeCode, "2.1.400") {
		t.Fatalf("%s %v", file, err)
	}
	got, err := profile.NewCatalog(dir).Get(profile.ClaudeCode, "2.1.400")
	if err != nil || got.Origin != profile.Calibrated {
		t.Errorf("%+v %v", got, err)
	}
}
