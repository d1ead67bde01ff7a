// Package tokens counts tokens the way OpenAI's models do, so the app can show
// what each hook costs in every LLM call.
//
// It counts in the o200k_base encoding (GPT-4o, GPT-4.1, o-series) with the
// BPE ranks tiktoken-go-loader embeds in the binary — counting never touches
// the network, which the app may not have — and the encoding's pre-tokenizer
// written out by hand (o200k.go), which gives tiktoken-go's counts several
// times faster; tiktoken-go is the reference the tests hold it to.
package tokens

import (
	"container/list"
	"crypto/sha256"
	"fmt"
	"sync"

	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding is the tiktoken encoding used by Counter.
const Encoding = "o200k_base"

// Chat-format overheads, from OpenAI's "How to count tokens with tiktoken"
// (openai-cookbook): every message is framed as
// <|start|>{role}<|message|>{content}<|end|>, i.e. 3 tokens of framing plus
// the role's tokens; every reply is primed with <|start|>assistant<|message|>,
// 3 more tokens per request. These are the documented figures for the
// gpt-3.5-turbo-0613 / gpt-4 / gpt-4o families; providers may differ by a few.
const (
	MessageOverhead = 3
	ReplyOverhead   = 3
)

// defaultCacheSize bounds the count cache. Hook texts are a few KB and few
// in number but counted thousands of times (every LLM call of every
// re-simulation); 4096 entries of ~100 bytes each is a few hundred KB.
const defaultCacheSize = 4096

// Counter counts tokens. It is safe for concurrent use. Building one parses
// the encoding's ranks (a few hundred ms), so build one and share it.
type Counter struct {
	bpe *o200k

	mu    sync.Mutex
	cache *lru
}

// NewCounter returns a Counter for Encoding, loading its ranks from the
// embedded copy.
func NewCounter() (*Counter, error) {
	return newCounter(defaultCacheSize)
}

func newCounter(cacheSize int) (*Counter, error) {
	ranks, err := offlineLoader().LoadTiktokenBpe(o200kURL)
	if err != nil {
		return nil, fmt.Errorf("load %s encoding: %w", Encoding, err)
	}
	return &Counter{bpe: &o200k{ranks: ranks}, cache: newLRU(cacheSize)}, nil
}

// offlineLoader reads the ranks embedded in the binary, never the network.
func offlineLoader() *tiktokenloader.OfflineLoader { return tiktokenloader.NewOfflineLoader() }

// Count returns the number of tokens in text. Text that looks like a special
// token ("<|endoftext|>") is counted as plain text, as the chat API does with
// message content.
func (c *Counter) Count(text string) int {
	if text == "" {
		return 0
	}
	key := sha256.Sum256([]byte(text))
	c.mu.Lock()
	n, ok := c.cache.get(key)
	c.mu.Unlock()
	if ok {
		return n
	}
	// Count outside the lock: it is the slow part, and concurrent callers
	// counting different texts should not queue behind each other. Two
	// callers may count the same new text at once; both get the same answer.
	n = c.bpe.count(text)
	c.mu.Lock()
	c.cache.add(key, n)
	c.mu.Unlock()
	return n
}

// Encoding names the encoding the counts are in (Encoding), so a count
// kept with its text says what it counts.
func (c *Counter) Encoding() string { return Encoding }

// CountMessage returns what one chat message costs in a request:
// MessageOverhead + Count(role) + Count(content). A request's total is the
// sum over its messages plus ReplyOverhead.
func (c *Counter) CountMessage(role, content string) int {
	return MessageOverhead + c.Count(role) + c.Count(content)
}

// lru is a bounded least-recently-used map from content hash to token count.
// Keying by hash keeps the cache's memory independent of text sizes; at 256
// bits collisions are not a practical concern. Not safe for concurrent use.
type lru struct {
	max   int
	order *list.List // front is most recent; values are *lruEntry
	items map[[sha256.Size]byte]*list.Element
}

type lruEntry struct {
	key [sha256.Size]byte
	n   int
}

func newLRU(size int) *lru {
	return &lru{max: size, order: list.New(), items: make(map[[sha256.Size]byte]*list.Element, size)}
}

func (l *lru) get(key [sha256.Size]byte) (int, bool) {
	e, ok := l.items[key]
	if !ok {
		return 0, false
	}
	l.order.MoveToFront(e)
	return e.Value.(*lruEntry).n, true
}

func (l *lru) add(key [sha256.Size]byte, n int) {
	if e, ok := l.items[key]; ok {
		l.order.MoveToFront(e)
		return
	}
	l.items[key] = l.order.PushFront(&lruEntry{key: key, n: n})
	if l.order.Len() > l.max {
		oldest := l.order.Back()
		l.order.Remove(oldest)
		delete(l.items, oldest.Value.(*lruEntry).key)
	}
}

func (l *lru) len() int { return l.order.Len() }
