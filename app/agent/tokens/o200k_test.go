package tokens

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
)

// setLoaderOnce guards tiktoken.SetBpeLoader. The library keeps its loader
// in a package variable, written without a lock and read whenever an
// encoding is first built; its default loader downloads the ranks over
// HTTP. So the offline loader must be in place before the first
// GetEncoding, and written once only.
var setLoaderOnce sync.Once

// tiktokenEnc is the reference: tiktoken-go's EncodeOrdinary, regular
// expression and all.
var tiktokenEnc = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	setLoaderOnce.Do(func() { tiktoken.SetBpeLoader(offlineLoader()) })
	return tiktoken.GetEncoding(Encoding)
})

func reference(t testing.TB) func(string) int {
	enc, err := tiktokenEnc()
	if err != nil {
		t.Fatal(err)
	}
	return func(s string) int { return len(enc.EncodeOrdinary(s)) }
}

func ours(t testing.TB) *o200k {
	c, err := sharedCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c.bpe
}

var sharedCounter = sync.OnceValues(NewCounter)

// alphabet is every kind of rune the pattern tells apart, and the ones
// that sit on its edges: upper, title and lower case, modifier and other
// letters, combining marks, numbers of every kind, each sort of white
// space (\r and \n among them, the Unicode ones \s takes), apostrophes and
// the letters of contractions, punctuation, '/', emoji, and bytes that are
// not UTF-8.
var alphabet = []string{
	"a", "b", "z", "s", "t", "r", "e", "v", "m", "l", "d", "S", "T", "R", "E", "V", "M", "L", "D", "Q", "é", "É", "ß", "ſ", "ǅ", "ʰ", "ˆ",
	"中", "文", "か", "ア", "한", "ا", "ب", "\u0301", "\u0308", "\u093f", "\u20dd", "0", "7", "9", "٣", "½", "Ⅻ", "²",
	" ", " ", " ", " ", "\t", "\n", "\n", "\r", "\r\n", "\v", "\f", "\u00a0", "\u0085", "\u2028", "\u2029", "\u3000", "\u200b",
	"'", "'", "’", ".", ",", "!", "?", "-", "_", "(", ")", "{", "}", "/", "//", "\\", "\"", "#", "=", "<|endoftext|>", "😀", "👍🏽",
	"\xff", "\xc3", "\xe2\x82", "\x80",
	"'s", "'S", "'re", "'RE", "'ll", "'Ll", "'ve", "'d", "'m", "'t", "'x", "'",
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// TestO200kMatchesTiktoken: the hand-written pre-tokenizer and merges count
// what tiktoken counts, on the edges of its pattern one by one, on random
// text made of every kind of rune it tells apart, and on real text (this
// repository's docs, code and the agents' transcripts).
func TestO200kMatchesTiktoken(t *testing.T) {
	want := reference(t)
	e := ours(t)
	check := func(name, s string) {
		t.Helper()
		if got, w := e.count(s), want(s); got != w {
			t.Fatalf("%s: %d tokens, tiktoken %d, of %q", name, got, w, s)
		}
	}
	for _, s := range []string{
		"", "a", " a", "  a", "   hello world", "Hello", "HELLO", "HELLOworld", "helloWORLD", "don't", "DON'T", "they're", "I'LL", "we've",
		"x'y", "'s", "''s", "\n", "\r\n", " \n", " \n ", "\n\n\n", "a\n\nb", "a  \n  b", "foo  ", "foo   bar", "\t\tx", "x\t", "  ",
		"123", "1234567", "12a", "a12", "٣٤٥٦", "...", " ...", "...\n", ".\n/", "//x", " /x", "a/b", "\u00a0x", "x\u3000y", "\u2028",
		"é\u0301", "\u0301\u0301a", "A\u0301b", "ʰa", "ǅx", "中文文本", " 中文", "😀😀", "<|endoftext|>", "\xff\xfe", "a\xffb", "\xc3",
		"'\u0301s", "HELLO'S", "ſ's", "Ab'c", "\u0085x", "x\u0085\u0085y",
	} {
		check("case", s)
	}
	r := rand.New(rand.NewPCG(35, 1))
	for i := range 4000 {
		check("random", randomText(r, 1+i%120))
	}
	// real text
	var files []string
	_ = filepath.WalkDir(filepath.Join("..", "..", ".."), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "build" || d.Name() == "dist") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".tsx")) {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 50 {
		t.Fatalf("found %d files of text: the walk is wrong", len(files))
	}
	for i, f := range files {
		if i%3 != 0 { // a third of them is plenty, and keeps the test quick
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, string(data))
	}
}

// FuzzO200k: any text, the same count as tiktoken's.
func FuzzO200k(f *testing.F) {
	for _, s := range alphabet {
		f.Add(s + " word's " + s)
	}
	f.Add("func f1() { return 1 } // line of generated code\n")
	want := reference(f)
	e := ours(f)
	f.Fuzz(func(t *testing.T, s string) {
		if got, w := e.count(s), want(s); got != w {
			t.Fatalf("%d tokens, tiktoken %d, of %q (valid UTF-8 %v)", got, w, s, utf8.ValidString(s))
		}
	})
}

// BenchmarkCountLarge: a 24 KB tool output (the synthetic session's), counted
// uncached by the hand-written pre-tokenizer and by tiktoken-go's regular
// expression; MB/s.
func BenchmarkCountLarge(b *testing.B) {
	texts := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("// file%d.go\n", i) + strings.Repeat(fmt.Sprintf("func f%d() { return %d } // line of generated code\n", i, i), 24<<10/52)
		}
		return out
	}
	b.Run("o200k", func(b *testing.B) {
		e, ts := ours(b), texts(b.N)
		b.SetBytes(int64(len(ts[0])))
		b.ResetTimer()
		for i := range b.N {
			e.count(ts[i])
		}
	})
	b.Run("tiktoken-go", func(b *testing.B) {
		ref, ts := reference(b), texts(b.N)
		b.SetBytes(int64(len(ts[0])))
		b.ResetTimer()
		for i := range b.N {
			ref(ts[i])
		}
	})
}
