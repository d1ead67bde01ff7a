package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchTree writes skills × hooks valid hooks and returns the root and the
// path of every file Load reads.
func benchTree(b *testing.B, skills, hooks int) (string, []string) {
	b.Helper()
	root := b.TempDir()
	var files []string
	for s := range skills {
		dir := filepath.Join(root, fmt.Sprintf("skill-%04d", s), "hooks")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		var entries []string
		for h := range hooks {
			name := fmt.Sprintf("hook-%02d", h)
			md := filepath.Join(dir, name+".md")
			prompt := strings.Repeat("Read the file before editing it. 先读再改。\n", 8)
			if err := os.WriteFile(md, []byte(prompt), 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, md)
			entries = append(entries, fmt.Sprintf(`{"name": %q, "file": %q, "timing": %q, "role": "system", "persistent": false}`,
				name, name+".md", Timings[h%len(Timings)]))
		}
		hj := filepath.Join(dir, "hooks.json")
		if err := os.WriteFile(hj, []byte(doc(entries...)), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, hj)
	}
	return root, files
}

func BenchmarkLoad1000Skills(b *testing.B) {
	root, _ := benchTree(b, 1000, 10)
	set, err := Load(b.Context(), root)
	if err != nil || len(set.Hooks(nil)) != 10000 || len(set.Diagnostics()) != 0 {
		b.Fatalf("load: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(b.Context(), root); err != nil {
			b.Fatal(err)
		}
	}
}

// Sequential shows what the worker pool buys over one goroutine.
func BenchmarkLoad1000SkillsSequential(b *testing.B) {
	root, _ := benchTree(b, 1000, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load(b.Context(), root, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// ReadFiles is the floor: reading the same files with nothing else.
func BenchmarkReadFiles1000Skills(b *testing.B) {
	_, files := benchTree(b, 1000, 10)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := os.ReadFile(f); err != nil {
				b.Fatal(err)
			}
		}
	}
}
