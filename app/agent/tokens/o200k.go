package tokens

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// o200kURL is where tiktoken publishes o200k_base's ranks; the offline
// loader maps it to the copy embedded in the binary.
const o200kURL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"

// o200k counts o200k_base tokens of ordinary text: the encoding's
// pre-tokenizer — the alternation below, written out by hand rather than
// run through a backtracking regular-expression engine, which took nine
// tenths of the time — then byte-pair merges of each piece by rank. It
// gives the count tiktoken's EncodeOrdinary gives (TestO200kMatchesTiktoken
// holds the two equal), several times faster; counting a 50 MB session is
// mostly this.
//
// The pre-tokenizer, o200k_base's pattern, tried in order at each place:
//
//	A1 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	A2 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	A3 \p{N}{1,3}
//	A4  ?[^\s\p{L}\p{N}]+[\r\n/]*
//	A5 \s*[\r\n]+
//	A6 \s+(?!\S)
//	A7 \s+
//
// with \s Go's unicode.IsSpace (as the regexp2 engine tiktoken-go uses has
// it) and text that is not UTF-8 read as tiktoken-go reads it: each bad
// byte is U+FFFD.
type o200k struct {
	ranks map[string]int
}

// rune classes of the pattern, as bits
const (
	cUpper  = 1 << iota // \p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}
	cLower              // \p{Ll}\p{Lm}\p{Lo}\p{M}
	cLetter             // \p{L}
	cNumber             // \p{N}
	cSpace              // \s
	cNL                 // \r or \n
)

// asciiClass holds the classes of the first 128 runes: most text is there.
var asciiClass = func() (t [128]uint8) {
	for r := range t {
		t[r] = classOf(rune(r))
	}
	return t
}()

func classOf(r rune) uint8 {
	var c uint8
	switch {
	case unicode.In(r, unicode.Lu, unicode.Lt):
		c |= cUpper | cLetter
	case unicode.Is(unicode.Ll, r):
		c |= cLower | cLetter
	case unicode.In(r, unicode.Lm, unicode.Lo):
		c |= cUpper | cLower | cLetter
	case unicode.Is(unicode.M, r):
		c |= cUpper | cLower
	case unicode.Is(unicode.N, r):
		c |= cNumber
	}
	if unicode.IsSpace(r) {
		c |= cSpace
	}
	if r == '\r' || r == '\n' {
		c |= cNL
	}
	return c
}

func class(r rune) uint8 {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	return classOf(r)
}

// count is the number of tokens EncodeOrdinary makes of text.
func (e *o200k) count(text string) int {
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // each bad byte becomes U+FFFD, as tiktoken-go reads it
	}
	s := scanner{text: text}
	n := 0
	var parts [][2]int
	for s.pos < len(text) {
		end := s.next()
		piece := text[s.pos:end]
		if _, ok := e.ranks[piece]; ok {
			n++
		} else {
			var k int
			k, parts = e.merge(piece, parts)
			n += k
		}
		s.pos = end
	}
	return n
}

// scanner walks text one pre-tokenizer piece at a time.
type scanner struct {
	text string
	pos  int
}

// at is the rune at byte offset i, its size and class (size 0 at the end).
func (s *scanner) at(i int) (rune, int, uint8) {
	if i >= len(s.text) {
		return 0, 0, 0
	}
	if b := s.text[i]; b < utf8.RuneSelf {
		return rune(b), 1, asciiClass[b]
	}
	r, size := utf8.DecodeRuneInString(s.text[i:])
	return r, size, class(r)
}

// run is where the run of runes of class c starting at i ends.
func (s *scanner) run(i int, c uint8) int {
	for {
		_, size, k := s.at(i)
		if size == 0 || k&c == 0 {
			return i
		}
		i += size
	}
}

// contraction is the end of one of 's 't 're 've 'm 'll 'd (any case) at i,
// or i.
func (s *scanner) contraction(i int) int {
	if i >= len(s.text) || s.text[i] != '\'' {
		return i
	}
next:
	for _, c := range [...]string{"s", "t", "re", "ve", "m", "ll", "d"} {
		j := i + 1
		for _, want := range c {
			r, size, _ := s.at(j)
			if size == 0 || unicode.ToLower(r) != want {
				continue next
			}
			j += size
		}
		return j
	}
	return i
}

// next is the end of the piece that starts at s.pos.
func (s *scanner) next() int {
	i := s.pos
	r0, size0, c0 := s.at(i)
	// the optional prefix of A1 and A2: one rune not \r \n, a letter or a number
	starts := [2]int{-1, i}
	if c0&(cNL|cLetter|cNumber) == 0 {
		starts[0] = i + size0
	}
	// A1: upper-ish* lower-ish+ contraction? — the upper run given back a
	// rune at a time until a lower-ish one starts the lower run
	for _, j := range starts {
		if j < 0 {
			continue
		}
		if end := s.upperLower(j); end >= 0 {
			return s.contraction(end)
		}
	}
	// A2: upper-ish+ lower-ish* contraction?
	for _, j := range starts {
		if j < 0 {
			continue
		}
		if _, size, c := s.at(j); size > 0 && c&cUpper != 0 {
			return s.contraction(s.run(s.run(j, cUpper), cLower))
		}
	}
	// A3: one to three numbers
	if c0&cNumber != 0 {
		end := i
		for k := 0; k < 3; k++ {
			_, size, c := s.at(end)
			if size == 0 || c&cNumber == 0 {
				break
			}
			end += size
		}
		return end
	}
	// A4: an optional space, punctuation and the like, then \r \n /
	j := i
	if r0 == ' ' {
		j = i + size0
	}
	for _, from := range []int{j, i} {
		if _, size, c := s.at(from); size > 0 && c&(cSpace|cLetter|cNumber) == 0 {
			end := from
			for {
				_, size, c := s.at(end)
				if size == 0 || c&(cSpace|cLetter|cNumber) != 0 {
					break
				}
				end += size
			}
			for {
				r, size, _ := s.at(end)
				if size == 0 || (r != '\r' && r != '\n' && r != '/') {
					break
				}
				end += size
			}
			return end
		}
		if from == i {
			break
		}
	}
	// whitespace from here on
	spaceEnd := s.run(i, cSpace)
	// A5: whitespace up to and including its last \r or \n
	lastNL := -1
	for k := i; k < spaceEnd; {
		r, size, _ := s.at(k)
		if r == '\r' || r == '\n' {
			lastNL = k + size
		}
		k += size
	}
	if lastNL >= 0 {
		return lastNL
	}
	// A6: whitespace not followed by a non-space (the last one is left to
	// the word after it); A7: whitespace
	if spaceEnd > i {
		if spaceEnd == len(s.text) {
			return spaceEnd
		}
		_, last := utf8.DecodeLastRuneInString(s.text[i:spaceEnd])
		if spaceEnd-last > i {
			return spaceEnd - last
		}
		return spaceEnd
	}
	// every rune is one of the above; a lone one that is not ends here
	return i + max(size0, 1)
}

// upperLower matches [U]*[W]+ at j (U upper-ish, W lower-ish) the way a
// backtracking engine does and returns its end, or -1.
func (s *scanner) upperLower(j int) int {
	uEnd := s.run(j, cUpper)
	// the W run starts at the rightmost place in [j, uEnd] holding a W rune
	for k := uEnd; ; {
		if _, size, c := s.at(k); size > 0 && c&cLower != 0 {
			return s.run(k, cLower)
		}
		if k == j {
			return -1
		}
		_, size := utf8.DecodeLastRuneInString(s.text[j:k])
		k -= size
	}
}

// merge counts the tokens byte-pair merging makes of piece (tiktoken's
// _byte_pair_merge: the lowest-ranked adjacent pair first, the leftmost of
// equals), reusing parts.
func (e *o200k) merge(piece string, parts [][2]int) (int, [][2]int) {
	if len(piece) == 1 {
		return 1, parts
	}
	parts = parts[:0]
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, [2]int{i, math.MaxInt})
	}
	rank := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := e.ranks[piece[parts[i][0]:parts[i+skip+2][0]]]; ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i][1] = rank(i, 0)
	}
	for len(parts) > 1 {
		minRank, minIdx := math.MaxInt, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i][1] < minRank {
				minRank, minIdx = parts[i][1], i
			}
		}
		if minIdx < 0 {
			break
		}
		i := minIdx
		parts[i][1] = rank(i, 1)
		if i > 0 {
			parts[i-1][1] = rank(i-1, 1)
		}
		parts = append(parts[:i+1], parts[i+2:]...)
	}
	return len(parts) - 1, parts
}
