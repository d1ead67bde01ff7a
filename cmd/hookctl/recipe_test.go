package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agentdata/recipe"
)

func TestRecipeCmd(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"list", []string{"recipe"}, exitOK, recipe.Agents()},
		{"one", []string{"recipe", "codex", "--url", "http://127.0.0.1:5555/v1/", "--prompt", "fix it"}, exitOK,
			[]string{`base_url = "http://127.0.0.1:5555/v1"`, `--dangerously-bypass-hook-trust "fix it"`, "hook did not run? Codex skips a hook"}},
		{"unknown agent", []string{"recipe", "cursor"}, exitUsage, nil},
		{"two agents", []string{"recipe", "codex", "cline"}, exitUsage, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(context.Background(), tc.args, &out, &errOut); code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("no %q in\n%s", w, out.String())
				}
			}
		})
	}
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{"recipe", "gemini-cli", "--json", "--url", "http://127.0.0.1:5555"}, &out, &errOut); code != exitOK {
		t.Fatal(errOut.String())
	}
	var r recipe.Recipe
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil || r.API != recipe.Gemini || r.Env[0].Value != "http://127.0.0.1:5555" || len(r.Lines) == 0 {
		t.Errorf("%v %+v", err, r)
	}
}

// TestCaptureRecipe: capture --recipe prints the agent's recipe for the
// capture's own URL.
func TestCaptureRecipe(t *testing.T) {
	answers := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - content: hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, wait := startCapture(t, "--answers", answers, "--no-history", "--max-requests", "1", "--json", filepath.Join(t.TempDir(), "c.json"), "--recipe", "qwen-code")
	res, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	code, stderr := wait()
	if code != exitOK || !strings.Contains(stderr, "OPENAI_BASE_URL="+url+"/v1 ") || !strings.Contains(stderr, "qwen --yolo") {
		t.Errorf("exit %d; the recipe is not for %s:\n%s", code, url, stderr)
	}
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{"capture", "--answers", answers, "--recipe", "cursor"}, &out, &errOut); code != exitUsage {
		t.Errorf("an unknown agent: exit %d", code)
	}
}
