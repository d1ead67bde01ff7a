package droidhook

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
)

func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// at is a diagnostic's code and position, as a test compares them.
type at struct {
	Code      string
	Line, Col int
}

// TestLoad: every problem of a .factory/hooks.json at once, at its
// position, with Droid's own consequence.
func TestLoad(t *testing.T) {
	ok := `{"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": ".factory/hooks/guard.sh"}]}]}`
	for _, tc := range []struct {
		name  string
		text  string
		hooks int // listed (the ones Droid runs)
		want  []at
	}{
		{"valid", ok, 1, []at{{CodeNotSimulated, 1, 1}}},
		{"no hooks", `{}`, 0, nil},
		{"wrapper", `{
  "hooks": {
    "PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]
  }
}`, 0, []at{{CodeNotSimulated, 1, 1}, {CodeWrapper, 2, 3}}},
		{"wrapper beside top-level events, every problem at once", `{
  "SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}],
  "BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": ".factory/hooks/gone.sh"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": ".factory/hooks/plain.txt"}]}],
  "hooks": {"PostToolUse": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}
}`, 3, []at{{CodeNotSimulated, 1, 1}, {"droid-unknown-event", 3, 3}, {CodePromptInExec, 4, 3},
			{"droid-missing-script", 4, 66}, {"droid-not-executable", 5, 54}, {CodeWrapper, 6, 3}, {"droid-unknown-type", 6, 49}, {"droid-unknown-field", 6, 59}}},
		{"not JSON", `{"PreToolUse": [}`, 0, []at{{"droid-syntax", 1, 17}}},
		{"not an object", `[]`, 0, []at{{"droid-shape", 1, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, map[string]string{HooksFile: tc.text, ".factory/hooks/guard.sh": "#!/bin/sh\nexit 0\n",
				".factory/hooks/plain.txt": "not a program\n"})
			cfg, err := Load(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []at
			for _, d := range cfg.Diagnostics {
				if d.File != HooksFile {
					t.Errorf("%s in %s", d.Code, d.File)
				}
				got = append(got, at{d.Code, d.Line, d.Column})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics\n%v\nwant\n%v", got, tc.want)
			}
			if len(cfg.Hooks) != tc.hooks {
				t.Errorf("%d hooks listed, want %d: %+v", len(cfg.Hooks), tc.hooks, cfg.Hooks)
			}
		})
	}
}

// TestWrapperIsAnError: a wrapped file runs nothing in Droid, so it is an
// error (hookctl validate fails), and a draft is read instead of the file.
func TestWrapperIsAnError(t *testing.T) {
	root := project(t, map[string]string{HooksFile: `{}`})
	cfg, err := Load(root, map[string][]byte{HooksFile: []byte(`{"hooks": {}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !diag.HasErrors(cfg.Diagnostics) || cfg.Diagnostics[0].Code != CodeWrapper {
		t.Errorf("draft's wrapper: %+v", cfg.Diagnostics)
	}
}

// TestRegistration: the hooks are listed and trusted, but a simulated run
// attaches nothing of Droid's.
func TestRegistration(t *testing.T) {
	root := project(t, map[string]string{HooksFile: `{"PostToolUse": [{"matcher": "Edit|Create", "hooks": [{"type": "command", "command": "gofmt -l ."}]}]}`})
	l, err := Registration().Load(context.Background(), registry.LoadRequest{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	hs := l.Hooks()
	if len(hs) != 1 || hs[0].System != System || hs[0].Event != "PostToolUse" || hs[0].Source != HooksFile+":1" {
		t.Errorf("hooks %+v", hs)
	}
	if cs := l.Commands(nil, true); len(cs) != 1 || cs[0].Command != "gofmt -l ." {
		t.Errorf("folder's commands %+v", cs)
	}
	if cs := l.Commands(nil, false); len(cs) != 0 || l.Active(nil) {
		t.Errorf("a simulated run would start %+v", cs)
	}
	r, err := registry.New(Registration())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.TrustPatterns(), HooksFile) || r.Kind(root, HooksFile) != KindHooks {
		t.Errorf("trust %v, kind %s", r.TrustPatterns(), r.Kind(root, HooksFile))
	}
	if _, ok := r.Schema(KindHooks); !ok {
		t.Error("no schema")
	}
	var cfg engine.Config
	if a, err := l.Attach(&cfg, registry.Run{}); a != nil || err != nil || len(cfg.Handlers) != 0 {
		t.Errorf("attach: %v %v %d", a, err, len(cfg.Handlers))
	}
}
