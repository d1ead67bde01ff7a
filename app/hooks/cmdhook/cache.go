package cmdhook

import (
	"crypto/sha256"
	"hookstudio/app/hooks/process"
	"sync"
)

// Cache keeps hook results between runs, so a re-simulation after an edit
// reruns only the hooks whose input or files changed. A result is reused
// when all of these are byte-for-byte what they were: the hook's identity
// (file, line, event, name, type, command or prompt, model, timeout), its
// exact stdin (or, for an llm hook, its rendered prompt and model), and a
// hash of the hook's files (its hooks.yaml, every file in its folder —
// JCLI_HOOK_DIR —, and the program or script its command names). Failures
// that depend on time (timeouts, cancellations) are never kept. The app
// keeps one Cache for as long as a folder is open; it is safe for
// concurrent use.
type Cache struct {
	mu      sync.Mutex
	entries map[[32]byte]process.Result
	order   [][32]byte
	max     int
}

// DefaultCacheEntries bounds a Cache made by NewCache.
const DefaultCacheEntries = 4096

// NewCache returns an empty cache keeping at most DefaultCacheEntries results.
func NewCache() *Cache {
	return &Cache{entries: map[[32]byte]process.Result{}, max: DefaultCacheEntries}
}

func (c *Cache) get(k [32]byte) (process.Result, bool) {
	if c == nil {
		return process.Result{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.entries[k]
	return r, ok
}

func (c *Cache) put(k [32]byte, r process.Result) {
	if c == nil || r.TimedOut || r.Err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[k] = r
	c.order = append(c.order, k)
}

// Len is the number of results kept.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

func cacheKey(parts ...[]byte) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		var n [8]byte
		for i := range n {
			n[i] = byte(len(p) >> (8 * i))
		}
		h.Write(n[:])
		h.Write(p)
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}
