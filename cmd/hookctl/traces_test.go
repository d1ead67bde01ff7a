package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// traceCase is one scenario whose whole trace is pinned: the folder that
// holds it (copied, because hooks write files), and in it the skills root
// and the scenario file.
type traceCase struct {
	name, base, root, scenario string
}

// traceCases lists every example scenario and every scenario fixture of the
// suite, each with the root it runs in. A refactoring must leave each trace
// byte-identical (volatile fields aside: volatileKeys).
func traceCases(t *testing.T) []traceCase {
	t.Helper()
	var out []traceCase
	add := func(prefix, base, root, pattern string) {
		files, err := filepath.Glob(filepath.Join(base, root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(filepath.Join(base, root), strings.TrimSuffix(f, ".yaml"))
			parts := []string{prefix}
			for _, p := range strings.Split(filepath.ToSlash(rel), "/") {
				if p != "scenarios" && p != ".hookstudio" && p != ".." && p != "scenario" && p != "case" {
					parts = append(parts, p)
				}
			}
			sc, _ := filepath.Rel(base, f)
			out = append(out, traceCase{name: strings.Join(parts, "."), base: base, root: root, scenario: sc})
		}
	}
	add("skills", filepath.Join("..", "..", "skills"), ".", "*/scenarios/*.yaml")
	add("broken-good", filepath.Join("testdata", "broken"), ".", "good/scenarios/*.yaml")
	add("requests", filepath.Join("testdata", "requests"), ".", "*/scenarios/*.yaml")
	projects, _ := filepath.Glob(filepath.Join("testdata", "claude-conformance", "*"))
	for _, p := range projects {
		add("claude-"+filepath.Base(p), p, ".", ".hookstudio/scenarios/*.yaml")
	}
	diagrams, _ := filepath.Glob(filepath.Join("..", "..", "app", "agent", "engine", "testdata", "diagrams", "*"))
	for _, d := range diagrams {
		add("diagram-"+filepath.Base(d), d, "skills", "../scenario.yaml")
	}
	// The shared conformance cases, when the checkout sits beside shared/.
	shared, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "conformance", "*", "scenario.yaml"))
	for _, c := range shared {
		add("shared-"+filepath.Base(filepath.Dir(c)), filepath.Dir(c), "skills", "../scenario.yaml")
	}
	if len(out) < 20 {
		t.Fatalf("found %d trace cases", len(out))
	}
	return out
}

// volatileKeys are the trace fields that measure time: they differ from
// run to run and are replaced by 0 before comparing.
// Claude Code's (and Gemini CLI's, Copilot CLI's camelCase) session and
// prompt ids and transcript paths (a sub-agent's too) are random per run, as the real CLIs' are; a process hook's stderr is read as it arrives,
// so which step a line lands on depends on the scheduler.
var volatileKeys = regexp.MustCompile(`^(duration_ms|.*_ms|.*_at|.*_time|time|timestamp|deadline|pid|session_id|prompt_id|transcript_path|agent_transcript_path|sessionId|transcriptPath|slow)$`)

// randomIDs are Codex's turn and thread ids, random per run as the real
// CLI's (UUIDs); other systems' ids of those names are the scenario's.
var (
	randomIDs = regexp.MustCompile(`^(turn_id|thread_id)$`)
	uuid      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// normalizeTrace zeroes the volatile fields and the machine's paths, and
// indents, so that two runs of one scenario compare byte for byte.
func normalizeTrace(t *testing.T, raw []byte, root string) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	abs, _ := filepath.Abs(root)
	v = scrubTrace(v, abs)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func scrubTrace(v any, root string) any {
	switch x := v.(type) {
	case map[string]any:
		if x["system"] == "process" {
			delete(x, "stderr")
		}
		for k, e := range x {
			if s, ok := e.(string); ok && randomIDs.MatchString(k) && uuid.MatchString(s) {
				x[k] = "T"
				continue
			}
			if volatileKeys.MatchString(k) {
				switch e.(type) {
				case json.Number, bool:
					x[k] = 0
					continue
				case string:
					x[k] = "T"
					continue
				}
			}
			x[k] = scrubTrace(e, root)
		}
	case []any:
		for i := range x {
			x[i] = scrubTrace(x[i], root)
		}
	case string:
		x = strings.ReplaceAll(x, root, "$ROOT")
		return durations.ReplaceAllString(x, "T")
	}
	return v
}

// TestTraceGolden pins the whole JSON trace of every example scenario and
// fixture (go test ./cmd/hookctl -run TestTraceGolden -update rewrites
// testdata/traces after checking the diff).
func TestTraceGolden(t *testing.T) {
	cases := traceCases(t)
	names := make([]string, 0, len(cases))
	for _, c := range cases {
		if slices.Contains(names, c.name) {
			t.Fatalf("two trace cases named %s", c.name)
		}
		names = append(names, c.name)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home, base := t.TempDir(), t.TempDir()
			copyTree(t, c.base, base)
			root := filepath.Join(base, c.root)
			// Claude Code's renderings are pinned to one version (a scenario's
			// agent: still wins), so the CLI installed here never changes a trace
			stdout, stderr, code := runCLIEnv(t, []string{"HOME=" + home, "HOOKSTUDIO_DATA_DIR=" + filepath.Join(home, "data")},
				"simulate", "--json", "--trust", "--agent", "claude-code@2.1.197", "--skills", root, filepath.Join(base, c.scenario))
			if code != exitOK && code != exitProblems {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := normalizeTrace(t, []byte(stdout), root)
			golden := filepath.Join("testdata", "traces", c.name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/hookctl -run TestTraceGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("trace differs from %s:\n%s", golden, firstDifference(string(want), string(got)))
			}
		})
	}
}

// firstDifference shows the lines around where two texts part.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			lo := max(0, i-3)
			return "want:\n" + strings.Join(w[lo:min(len(w), i+4)], "\n") + "\ngot:\n" + strings.Join(g[lo:min(len(g), i+4)], "\n")
		}
	}
	return ""
}
