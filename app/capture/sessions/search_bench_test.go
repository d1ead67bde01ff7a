package sessions

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hookstudio/app/store/search"
)

// corpus is a generator of Claude Code transcripts whose words follow a
// Zipf law over a vocabulary of made-up words (as words of real text and
// code do), with what the benchmark looks for planted at known places: a
// rare phrase, a file's text that some sessions read, a guard that blocks
// rm -rf now and then.
type corpus struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	vocab []string
}

// needle is the rare phrase; fileLines the file some sessions read.
const needle = "quartz lantern protocol"

var fileLines = []string{
	"func (l *Limiter) Allow(key string) bool {",
	"	l.mu.Lock()",
	"	defer l.mu.Unlock()",
	"	bucket := l.buckets[key]",
	"	return bucket.take(time.Now())",
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	c := &corpus{rng: rng}
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "dor", "fen", "gil", "har", "jus", "ben", "cor", "wex", "yal", "tra", "pli", "sno", "ark"}
	seen := map[string]bool{"quartz": true, "lantern": true, "protocol": true}
	for len(c.vocab) < 40000 {
		n := 1 + rng.IntN(4)
		var b strings.Builder
		for range n {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			c.vocab = append(c.vocab, w)
		}
	}
	c.zipf = rand.NewZipf(rng, 1.07, 2, uint64(len(c.vocab)-1))
	return c
}

func (c *corpus) word() string { return c.vocab[c.zipf.Uint64()] }

// words writes n words of prose.
func (c *corpus) words(b *strings.Builder, n int) {
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.word())
	}
}

// code is a tool's output: numbered lines of code made of the words.
func (c *corpus) code(size int, withFile bool) string {
	var b strings.Builder
	line := 1
	for b.Len() < size {
		fmt.Fprintf(&b, "%6d→", line)
		switch c.rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "func %s%s(%s int) error {", c.word(), strings.ToUpper(c.word()[:1]), c.word())
		case 1:
			fmt.Fprintf(&b, "\t%s := %s.%s(%s, %d)", c.word(), c.word(), c.word(), c.word(), c.rng.IntN(1000))
		case 2:
			b.WriteString("\t// ")
			c.words(&b, 6+c.rng.IntN(8))
		default:
			fmt.Fprintf(&b, "\treturn %s(%q)", c.word(), c.word())
		}
		b.WriteByte('\n')
		line++
		if withFile && line == 20 {
			for _, l := range fileLines {
				fmt.Fprintf(&b, "%6d→%s\n", line, l)
				line++
			}
		}
	}
	return b.String()
}

// writeSession writes one transcript of about size bytes; plant puts the
// rare phrase in its prompt, withFile the file in a tool's output.
func (c *corpus) writeSession(t testing.TB, path string, size int, started time.Time, project string, plant, withFile bool) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	written := 0
	uuid := 0
	parent := ""
	at := started
	emit := func(fields map[string]any) {
		uuid++
		u := "u" + strconv.Itoa(uuid)
		rec := map[string]any{"uuid": u, "sessionId": id, "version": "2.1.197", "cwd": project, "timestamp": at.Format(time.RFC3339Nano),
			"isSidechain": false, "userType": "external", "entrypoint": "cli"}
		if parent != "" {
			rec["parentUuid"] = parent
		} else {
			rec["parentUuid"] = nil
		}
		for k, v := range fields {
			rec[k] = v
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := w.Write(append(data, '\n'))
		written += n
		parent = u
		at = at.Add(time.Duration(1+c.rng.IntN(20)) * time.Second)
	}
	var prompt strings.Builder
	c.words(&prompt, 12)
	if plant {
		prompt.WriteString(" then check the " + needle + " handshake")
	}
	emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt.String()}})
	fileAt := -1
	if withFile {
		fileAt = 3
	}
	for i := 0; written < size; i++ {
		var say strings.Builder
		c.words(&say, 10+c.rng.IntN(30))
		block := c.rng.IntN(50) == 0 && i != fileAt
		var use map[string]any
		switch {
		case block:
			use = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": "Bash", "input": map[string]any{"command": "rm -rf " + c.word()}}
		case i == fileAt || c.rng.IntN(2) == 0:
			use = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": "Read", "input": map[string]any{"file_path": project + "/" + c.word() + ".go"}}
		default:
			use = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": "Bash", "input": map[string]any{"command": "grep -rn " + c.word() + " ."}}
		}
		emit(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%d", i), "role": "assistant", "model": "claude-opus-5-5",
			"content": []any{map[string]any{"type": "text", "text": say.String()}, use}}})
		result := map[string]any{"type": "tool_result", "tool_use_id": use["id"], "is_error": false}
		if block {
			result["content"] = "PreToolUse:Bash hook error: [./hooks/guard.sh]: Blocked: rm -rf deletes for good; ask before removing " + c.word()
			result["is_error"] = true
		} else {
			result["content"] = c.code(1000+c.rng.IntN(7000), i == fileAt)
		}
		emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{result}}})
		if !block && c.rng.IntN(8) == 0 {
			var ctx strings.Builder
			ctx.WriteString("lint: ")
			c.words(&ctx, 8)
			emit(map[string]any{"type": "attachment", "attachment": map[string]any{"type": "hook_success", "hookName": "PostToolUse:" + use["name"].(string),
				"hookEvent": "PostToolUse", "toolUseID": use["id"], "content": "", "stdout": `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"` + ctx.String() + `"}}`,
				"stderr": "", "exitCode": 0, "command": "./hooks/lint.sh", "durationMs": 40}})
			emit(map[string]any{"type": "attachment", "attachment": map[string]any{"type": "hook_additional_context", "hookName": "PostToolUse:" + use["name"].(string),
				"hookEvent": "PostToolUse", "toolUseID": use["id"], "content": []string{ctx.String()}}})
		}
	}
	var end strings.Builder
	c.words(&end, 20)
	emit(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_end", "role": "assistant", "model": "claude-opus-5-5",
		"content": []any{map[string]any{"type": "text", "text": end.String()}}}})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// corpusPlan is what a corpus of total bytes holds.
type corpusPlan struct {
	sessions  int
	planted   []int // sessions with the rare phrase
	withFile  []int // sessions that read the file
	size      int   // bytes a session
	locations Locations
}

// writeCorpus writes about total bytes of sessions under dir, 5 MB each
// over 20 projects and half a year, and says where the needles are.
func writeCorpus(t testing.TB, dir string, total int64) corpusPlan {
	t.Helper()
	c := newCorpus(1)
	p := corpusPlan{size: 5 << 20, locations: Locations{Claude: filepath.Join(dir, "claude", "projects"), Codex: filepath.Join(dir, "codex", "sessions")}}
	p.sessions = max(int(total/int64(p.size)), 10)
	p.planted = []int{1, p.sessions / 2, p.sessions - 2}
	p.withFile = []int{0, 3, p.sessions / 3, p.sessions / 2, p.sessions - 1}
	t0 := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	for i := range p.sessions {
		project := fmt.Sprintf("/home/user/src/project%02d", i%20)
		path := filepath.Join(p.locations.Claude, strings.ReplaceAll(project, "/", "-"), fmt.Sprintf("session-%04d.jsonl", i))
		started := t0.Add(time.Duration(i) * 180 * 24 * time.Hour / time.Duration(p.sessions))
		c.writeSession(t, path, p.size, started, project, containsInt(p.planted, i), containsInt(p.withFile, i))
	}
	return p
}

func containsInt(l []int, x int) bool {
	for _, y := range l {
		if y == x {
			return true
		}
	}
	return false
}

// BenchmarkSearch1GB: about 1 GB of Claude Code sessions on disk
// (HOOKSTUDIO_SEARCH_CORPUS_MB changes it), indexed as the app indexes
// the sessions it has not imported (Sync over the transcripts: each read
// by the importer, its items put in the index), then searched as users
// search. Reports the index's time, size and each query's time; the
// corpus and its index stay in HOOKSTUDIO_SEARCH_CORPUS_DIR when set, so
// a second run measures the queries only.
func BenchmarkSearch1GB(b *testing.B) {
	mb := int64(1024)
	if s := os.Getenv("HOOKSTUDIO_SEARCH_CORPUS_MB"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		mb = n
	}
	dir := os.Getenv("HOOKSTUDIO_SEARCH_CORPUS_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	ctx := context.Background()
	planFile := filepath.Join(dir, "plan.json")
	var p corpusPlan
	if data, err := os.ReadFile(planFile); err == nil {
		var saved struct {
			Sessions          int
			Planted, WithFile []int
			Claude, Codex     string
		}
		if err := json.Unmarshal(data, &saved); err != nil {
			b.Fatal(err)
		}
		p = corpusPlan{sessions: saved.Sessions, planted: saved.Planted, withFile: saved.WithFile, locations: Locations{Claude: saved.Claude, Codex: saved.Codex}}
	} else {
		t0 := time.Now()
		p = writeCorpus(b, dir, mb<<20)
		b.Logf("wrote %d sessions (%d MB) in %s", p.sessions, mb, time.Since(t0).Round(time.Second))
		data, _ := json.Marshal(map[string]any{"Sessions": p.sessions, "Planted": p.planted, "WithFile": p.withFile, "Claude": p.locations.Claude, "Codex": p.locations.Codex})
		if err := os.WriteFile(planFile, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var corpusBytes int64
	filepath.Walk(p.locations.Claude, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			corpusBytes += fi.Size()
		}
		return nil
	})
	ix, err := search.Open(ctx, filepath.Join(dir, search.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	wall, cpu := measure(func() {
		if err := search.Sync(ctx, ix, SearchSources(nil, func() Locations { return p.locations }, Options{}), nil); err != nil {
			b.Fatal(err)
		}
	})
	b.Logf("corpus %.0f MB in %d sessions; indexed in %s (CPU %s, %.1f MB/s); index %.0f MB (%.2f× the corpus)",
		float64(corpusBytes)/(1<<20), p.sessions, wall.Round(time.Second), cpu.Round(time.Second), float64(corpusBytes)/(1<<20)/wall.Seconds(),
		float64(ix.Size())/(1<<20), float64(ix.Size())/float64(corpusBytes))

	// the most frequent made-up word, and one of middling frequency
	c := newCorpus(1)
	common, middling := c.vocab[2], c.vocab[2000]
	for _, q := range []struct {
		name string
		q    search.Query
		min  int // hits at least: the needle is found
	}{
		{"rare-phrase", search.Query{Text: `"` + needle + `"`}, len(p.planted)},
		{"common-word", search.Query{Text: common}, 1},
		{"middling-word", search.Query{Text: middling}, 1},
		{"two-words", search.Query{Text: middling + " " + c.vocab[3000]}, 0},
		{"prefix", search.Query{Text: c.vocab[500][:4] + "*"}, 1},
		{"guard-blocks", search.Query{Text: "outcome:blocked"}, 1},
		{"guard-blocks-rm", search.Query{Text: "rm -rf", Outcome: "blocked", Event: "PreToolUse"}, 1},
		{"file-text-pasted", search.Query{Text: strings.Join(fileLines, "\n")}, len(p.withFile)},
		{"common-word-page-5", search.Query{Text: common, Offset: 80}, 1},
		{"project-and-month", search.Query{Text: middling + " project:/home/user/src/project07 since:2026-08-01 until:2026-08-31"}, 0},
	} {
		b.Run(q.name, func(b *testing.B) {
			var res search.Results
			_, cpu := measure(func() {
				for range b.N {
					if res, err = ix.Search(ctx, q.q); err != nil {
						b.Fatal(err)
					}
				}
			})
			// the machine is shared: the process's CPU time beside the wall time
			b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/op")
			if res.Total < q.min {
				b.Fatalf("%d hits, want at least %d", res.Total, q.min)
			}
			b.ReportMetric(float64(res.Total), "hits")
		})
	}
	b.ReportMetric(wall.Seconds(), "index-s")
	b.ReportMetric(float64(ix.Size())/(1<<20), "index-MB")
}
