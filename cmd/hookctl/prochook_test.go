package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hookctl simulate runs PicoClaw process hooks only with --trust, through
// app/hooks/hooksets, and puts every JSON-RPC exchange in the trace.
func TestSimulateProcessHooks(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	skills := filepath.Join("..", "..", "skills")
	sc := filepath.Join(skills, "plugin-tools", "scenarios", "plugin-tools.yaml")
	_, stderr, code := runCLI(t, "simulate", "--no-history", "--skills", skills, sc)
	if code != exitNotTrusted || !strings.Contains(stderr, "python3 hook.py") {
		t.Fatalf("untrusted: exit %d, stderr %s", code, stderr)
	}
	out, stderr, code := runCLI(t, "simulate", "--trust", "--json", "--no-history", "--skills", skills, sc)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Steps []struct {
			HookCall *struct {
				System, Event, Hook, Outcome string
				Input                        json.RawMessage
			} `json:"hook_call"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, st := range doc.Steps {
		if c := st.HookCall; c != nil && c.System == "process" && c.Hook == "plugin_tools" {
			var in bytes.Buffer
			json.Compact(&in, c.Input)
			seen[c.Event+" "+c.Outcome] = in.String()
		}
	}
	for _, want := range []string{"process.start ok", "hook.hello ok", "hook.before_llm ok", "hook.before_tool modified", "hook.approve_tool denied", "hook.runtime_event ok", "process.exit ok"} {
		if _, ok := seen[want]; !ok {
			t.Errorf("no %q in the trace; seen %v", want, keys(seen))
		}
	}
	if in := seen["hook.approve_tool denied"]; !strings.Contains(in, `"jsonrpc":"2.0"`) || !strings.Contains(in, "rm -rf /") {
		t.Errorf("approve_tool input %s", in)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// hookctl validate checks picoclaw.json with positioned diagnostics and
// never runs anything.
func TestValidateProcessHooks(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "plug", "hooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"hooks": {"enabled": true, "processes": {"p": {"enabled": true, "transport": "tcp", "command": ["python3", "hook.py"], "intercept": ["before_tools"]}}}}`
	if err := os.WriteFile(filepath.Join(dir, "picoclaw.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hook.py"), []byte("raise SystemExit(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "validate", root, "--json")
	if code != exitProblems {
		t.Fatalf("exit %d: %s", code, out)
	}
	var doc struct {
		Diagnostics []struct {
			File, Code string
			Line       int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, d := range doc.Diagnostics {
		if d.File == "plug/hooks/picoclaw.json" && d.Line == 1 {
			got[d.Code] = true
		}
	}
	if !got["unsupported-transport"] || !got["unknown-intercept"] {
		t.Errorf("diagnostics %+v", doc.Diagnostics)
	}
}
