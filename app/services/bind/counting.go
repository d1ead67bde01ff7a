package bind

import (
	"sync"

	"hookstudio/app/services/studio"
	"hookstudio/app/services/tokenjobs"
	"hookstudio/app/store/history"
)

// EventTokens is a stored run's token count going on in the background:
// TokensProgress.
const EventTokens = "history:tokens"

// TokensProgress is what the page hears of a run's count: how many texts
// are counted and still to count, and Done once the run's figures are
// settled (its row in the runs list has its final tokens).
type TokensProgress struct {
	Run     int64  `json:"run"`
	Counted int    `json:"counted"`
	Pending int    `json:"pending"`
	Done    bool   `json:"done"`
	Error   string `json:"error,omitempty"`
}

// Counting is the app's background token counts (tokenjobs.Runner): the
// sessions binding asks for a run kept before its texts were counted, the
// history binding for a run opened so; the counts go to the runs open in
// pages as they arrive and to the page as history:tokens. Not bound.
type Counting struct {
	emit   func(string, any)
	runner *tokenjobs.Runner // nil without a history

	mu    sync.Mutex
	pages map[history.RunID]map[*studio.Pages]bool
}

// NewCounting counts into store (nil: nothing is counted) with tokens.
func NewCounting(emit func(string, any), store *history.Store, tokens history.ContentCounter) *Counting {
	c := &Counting{emit: emit, pages: map[history.RunID]map[*studio.Pages]bool{}}
	if store != nil && tokens != nil {
		c.runner = tokenjobs.NewRunner(store, tokens, 0, c.progress)
	}
	return c
}

// StopCounting cancels the counts going on and waits for them.
func StopCounting(c *Counting) {
	if c != nil && c.runner != nil {
		c.runner.Stop()
	}
}

// Count asks for run id's texts to be counted.
func (c *Counting) Count(id history.RunID) {
	if c != nil && c.runner != nil {
		c.runner.Count(id)
	}
}

// watch gives p the counts of its run as they arrive, until the returned
// function is called.
func (c *Counting) watch(id history.RunID, p *studio.Pages) func() {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages[id] == nil {
		c.pages[id] = map[*studio.Pages]bool{}
	}
	c.pages[id][p] = true
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.pages[id], p)
		if len(c.pages[id]) == 0 {
			delete(c.pages, id)
		}
	}
}

func (c *Counting) progress(p tokenjobs.Progress) {
	c.mu.Lock()
	open := make([]*studio.Pages, 0, len(c.pages[p.Run]))
	for pg := range c.pages[p.Run] {
		open = append(open, pg)
	}
	c.mu.Unlock()
	for _, pg := range open {
		if len(p.Counts) > 0 || p.Done {
			pg.Counted(p.Counts, p.Pending)
		}
	}
	c.emit(EventTokens, TokensProgress{Run: int64(p.Run), Counted: p.Counted, Pending: p.Pending, Done: p.Done, Error: p.Err})
}
