package tokens

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestMain makes any attempt to download ranks fail loudly: HTTP goes to a
// closed loopback port and tiktoken's download cache points at an empty
// directory. The encoding is built once per process, in whichever test runs
// first, so this has to be set before any test rather than in one of them.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tiktoken-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for k, v := range map[string]string{
		"TIKTOKEN_CACHE_DIR": dir,
		"HTTP_PROXY":         "http://127.0.0.1:1",
		"HTTPS_PROXY":        "http://127.0.0.1:1",
		"NO_PROXY":           "",
	} {
		os.Setenv(k, v)
	}
	code := m.Run()
	entries, _ := os.ReadDir(dir)
	os.RemoveAll(dir)
	if code == 0 && len(entries) > 0 {
		fmt.Fprintf(os.Stderr, "tiktoken wrote %d files to its download cache: it tried to download\n", len(entries))
		code = 1
	}
	os.Exit(code)
}

func newTestCounter(t testing.TB) *Counter {
	t.Helper()
	c, err := NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Expected counts are from js-tiktoken's o200k_base, an independent
// implementation of the same encoding.
func TestCount(t *testing.T) {
	c := newTestCounter(t)
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"tiktoken is great!", 6},
		{"Hello, world!", 4},
		{"你好，世界！", 4},
		{"请在回答前先阅读文件，并保持简洁。", 12},
		{"数据库连接池的最大连接数应该设置为多少？", 12},
		{"  indented\n\tcode();\n", 6},
		{"😀 emoji", 2},
		// Special-token text in content is counted as plain text.
		{"<|endoftext|>", 7},
	}
	for _, tt := range tests {
		// Twice: the second answer comes from the cache.
		for range 2 {
			if got := c.Count(tt.text); got != tt.want {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
		}
	}
}

func TestCountMessage(t *testing.T) {
	c := newTestCounter(t)
	tests := []struct {
		role, content string
		want          int
	}{
		// 3 framing + 1 role + content
		{"system", "", 4},
		{"user", "hello world", 6},
		{"assistant", "你好，世界！", 8},
		{"tool", "tiktoken is great!", 10},
	}
	for _, tt := range tests {
		if got := c.CountMessage(tt.role, tt.content); got != tt.want {
			t.Errorf("CountMessage(%q, %q) = %d, want %d", tt.role, tt.content, got, tt.want)
		}
	}
}

func TestConcurrentCount(t *testing.T) {
	c := newTestCounter(t)
	texts := []string{english2K(), chinese2K(), "hello world", "你好，世界！"}
	want := make([]int, len(texts))
	ref := reference(t)
	for i, s := range texts {
		want[i] = ref(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*100)
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				k := (g + i) % len(texts)
				// Unique texts too, so the cache adds and evicts
				// while others read.
				if n := c.Count(texts[k]); n != want[k] {
					errs <- fmt.Sprintf("Count(text %d) = %d, want %d", k, n, want[k])
				}
				c.Count(fmt.Sprintf("goroutine %d line %d", g, i))
				c.CountMessage("user", texts[k])
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestCacheBounded(t *testing.T) {
	c, err := newCounter(8)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		c.Count(fmt.Sprintf("text number %d", i))
	}
	if n := c.cache.len(); n != 8 {
		t.Errorf("cache holds %d entries, want 8", n)
	}
	// The most recent entries survive and still give right answers.
	if got, want := c.Count("text number 99"), reference(t)("text number 99"); got != want {
		t.Errorf("cached count = %d, want %d", got, want)
	}
}

func english2K() string {
	const para = "When the user asks to read a file, always check that the path is inside the workspace first. " +
		"Prefer small, focused edits over rewriting whole files, and explain each change in one sentence. "
	return strings.Repeat(para, 2048/len(para)+1)[:2048]
}

func chinese2K() string {
	// 3 bytes per rune: about 2 KB.
	const para = "当用户要求读取文件时，先确认路径位于工作区之内。尽量做小而集中的修改，不要重写整个文件，并用一句话解释每处改动。"
	r := []rune(strings.Repeat(para, 20))
	return string(r[:2048/3])
}

// BenchmarkCount measures Count without a cache (what a hook pays the first
// time and after every edit) and with one (every later LLM call).
func BenchmarkCount(b *testing.B) {
	cached := newTestCounter(b)
	uncached, err := newCounter(0) // every entry evicted as soon as added
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, text string }{
		{"english-2KB", english2K()},
		{"chinese-2KB", chinese2K()},
	} {
		b.Run(tc.name+"/uncached", func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				uncached.Count(tc.text)
			}
			b.ReportMetric(float64(uncached.Count(tc.text)), "tokens")
		})
		b.Run(tc.name+"/cached", func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			cached.Count(tc.text)
			for b.Loop() {
				cached.Count(tc.text)
			}
		})
	}
}

func BenchmarkNewCounter(b *testing.B) {
	for b.Loop() {
		if _, err := NewCounter(); err != nil {
			b.Fatal(err)
		}
	}
}
