package bind

import (
	"context"
	"errors"
	"slices"
	"sync"

	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// ErrNoHistory is returned when the history database could not be opened.
var ErrNoHistory = errors.New("the run history is not available")

// History is bound as window.go.bind.History: stored runs, their
// comparison and the figures behind the charts, and a stored run opened a
// page at a time (docs/trace-view.md, "Pages").
type History struct {
	store    *history.Store // nil when the database could not be opened
	tokens   studio.TokenCounter
	counting *Counting

	mu     sync.Mutex
	ctx    context.Context
	open   []*openRun // oldest first
	handle int64
}

// openRun is a run open in pages under a handle.
type openRun struct {
	handle  int64
	pages   *studio.Pages
	unwatch func()
}

// maxOpen bounds the runs open in pages at once: a page that never closes
// its run (a reload) cannot pile skeletons up.
const maxOpen = 4

// NewHistory binds store, which may be nil; counting counts the runs
// opened before their texts were counted.
func NewHistory(store *history.Store, tokens studio.TokenCounter, counting *Counting) *History {
	return &History{store: store, tokens: tokens, counting: counting, ctx: context.Background()}
}

// StartHistory sets the app's context.
func StartHistory(ctx context.Context, h *History) {
	h.mu.Lock()
	h.ctx = ctx
	h.mu.Unlock()
}

func (h *History) context() (context.Context, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.store == nil {
		return nil, ErrNoHistory
	}
	return h.ctx, nil
}

// Runs lists stored runs, newest first.
func (h *History) Runs(f history.Filter) ([]history.RunSummary, error) {
	ctx, err := h.context()
	if err != nil {
		return nil, err
	}
	if f.Limit <= 0 {
		f.Limit = 200
	}
	runs, err := h.store.ListRuns(ctx, f)
	if runs == nil {
		runs = []history.RunSummary{}
	}
	return runs, err
}

// PagedRun is a stored run opened in pages: the handle the pages are asked
// by, and what the run says of itself at once.
type PagedRun struct {
	Handle int64            `json:"handle"`
	Head   studio.PagesHead `json:"head"`
}

// ErrClosed is returned for a page of a run no longer open (closed, or
// pushed out by newer ones): open it again.
var ErrClosed = errors.New("the run is no longer open")

// Open opens a stored run read-only, a page at a time: its skeleton is
// read (never its texts), a capture's and an imported session's drawn on
// its agent's loop. A run kept before its texts were counted is counted
// in the background (history:tokens).
func (h *History) Open(id int64) (PagedRun, error) {
	ctx, err := h.context()
	if err != nil {
		return PagedRun{}, err
	}
	sk, err := h.store.LoadSkeleton(ctx, history.RunID(id))
	if err != nil {
		return PagedRun{}, err
	}
	origin, err := h.origin(ctx, sk.Run)
	if err != nil {
		return PagedRun{}, err
	}
	p, err := studio.OpenPages(sk, h.store, h.tokens, origin)
	if err != nil {
		return PagedRun{}, err
	}
	h.mu.Lock()
	h.handle++
	o := &openRun{handle: h.handle, pages: p, unwatch: h.counting.watch(history.RunID(id), p)}
	h.open = append(h.open, o)
	var gone []*openRun
	if len(h.open) > maxOpen {
		gone, h.open = h.open[:len(h.open)-maxOpen], slices.Clone(h.open[len(h.open)-maxOpen:])
	}
	h.mu.Unlock()
	for _, g := range gone {
		g.unwatch()
	}
	if sk.TokensPending > 0 {
		h.counting.Count(history.RunID(id))
	}
	return PagedRun{Handle: o.handle, Head: p.Head()}, nil
}

// Close lets the run open under handle go.
func (h *History) Close(handle int64) error {
	h.mu.Lock()
	var gone *openRun
	h.open = slices.DeleteFunc(h.open, func(o *openRun) bool {
		if o.handle == handle {
			gone = o
			return true
		}
		return false
	})
	h.mu.Unlock()
	if gone != nil {
		gone.unwatch()
	}
	return nil
}

func (h *History) pages(handle int64) (*studio.Pages, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, o := range h.open {
		if o.handle == handle {
			return o.pages, nil
		}
	}
	return nil, ErrClosed
}

// Head is the open run's head again, its token figures as they stand.
func (h *History) Head(handle int64) (PagedRun, error) {
	p, err := h.pages(handle)
	if err != nil {
		return PagedRun{}, err
	}
	return PagedRun{Handle: handle, Head: p.Head()}, nil
}

// Steps are steps [from, from+n) of the open run.
func (h *History) Steps(handle int64, from, n int) ([]studio.PageStep, error) {
	p, err := h.pages(handle)
	if err != nil {
		return nil, err
	}
	return p.Steps(from, n), nil
}

// Calls are LLM calls [from, from+n) of the open run.
func (h *History) Calls(handle int64, from, n int) ([]studio.Call, error) {
	p, err := h.pages(handle)
	if err != nil {
		return nil, err
	}
	ctx, err := h.context()
	if err != nil {
		return nil, err
	}
	return p.Calls(ctx, from, n)
}

// List is the message list at step of the open run, without its rows.
func (h *History) List(handle int64, step int) (studio.ListHead, error) {
	p, err := h.pages(handle)
	if err != nil {
		return studio.ListHead{}, err
	}
	return p.List(step), nil
}

// Rows are rows [from, from+n) of the message list at step.
func (h *History) Rows(handle int64, step, from, n int) ([]studio.Row, error) {
	p, err := h.pages(handle)
	if err != nil {
		return nil, err
	}
	ctx, err := h.context()
	if err != nil {
		return nil, err
	}
	return p.Rows(ctx, step, from, n)
}

// RowOf is the row of message id in the list at step (-1: not there).
func (h *History) RowOf(handle int64, step, id int) (int, error) {
	p, err := h.pages(handle)
	if err != nil {
		return 0, err
	}
	return p.RowOf(step, id), nil
}

// Text is message id's whole text (a row carries the start of a long one).
func (h *History) Text(handle int64, id int) (string, error) {
	p, err := h.pages(handle)
	if err != nil {
		return "", err
	}
	ctx, err := h.context()
	if err != nil {
		return "", err
	}
	return p.Text(ctx, id)
}

// Tokens are messages' token counts as they stand (a page's rows brought
// up to date while the run is counted).
func (h *History) Tokens(handle int64, ids []int) ([]studio.Tokens, error) {
	p, err := h.pages(handle)
	if err != nil {
		return nil, err
	}
	return p.MessageTokens(ids), nil
}

// Cells are the visibility matrix's cells of rows [hook, hook+hooks) and
// calls [call, call+calls).
func (h *History) Cells(handle int64, hook, hooks, call, calls int) (studio.Cells, error) {
	p, err := h.pages(handle)
	if err != nil {
		return studio.Cells{}, err
	}
	return p.Cells(hook, hooks, call, calls), nil
}

// Bars are the tokens-per-call chart of the open run in at most n bars.
func (h *History) Bars(handle int64, n int) ([]studio.Bar, error) {
	p, err := h.pages(handle)
	if err != nil {
		return nil, err
	}
	return p.Bars(n), nil
}

// NextStop is where a continue from step from stops at one of breakpoints.
func (h *History) NextStop(handle int64, from int, breakpoints []string) (studio.Stop, error) {
	p, err := h.pages(handle)
	if err != nil {
		return studio.Stop{}, err
	}
	return p.NextStop(from, breakpoints), nil
}

// origin is how a stored run came about and, for a real agent's calls, the
// agent that sent them, so the run is drawn on that agent's loop: a
// capture's told by its calls' headers, an imported session's by its
// transcript (known even when the transcript gives no version).
func (h *History) origin(ctx context.Context, r *history.Run) (studio.RunOrigin, error) {
	origin := studio.RunOrigin{Simulated: r.Source.Simulated()}
	var err error
	switch {
	case r.Source == history.SourceCapture:
		origin.Agent, err = capture.AgentOfRun(ctx, h.store, int64(r.ID))
	case r.Session != nil:
		origin.Agent = sessions.Backend(sessions.Session{Agent: sessions.Agent(r.Session.Agent), Version: r.Session.Version})
	}
	return origin, err
}

// Compare diffs two runs call by call.
func (h *History) Compare(a, b int64) (history.Comparison, error) {
	ctx, err := h.context()
	if err != nil {
		return history.Comparison{}, err
	}
	return h.store.Compare(ctx, history.RunID(a), history.RunID(b))
}

// HookCost is a hook's (skill/name) token cost across its last runs.
func (h *History) HookCost(hook string, limit int) ([]history.HookPoint, error) {
	ctx, err := h.context()
	if err != nil {
		return nil, err
	}
	pts, err := h.store.HookHistory(ctx, hook, limit)
	if pts == nil {
		pts = []history.HookPoint{}
	}
	return pts, err
}

// PromptSizes is a scenario's prompt size over its last runs.
func (h *History) PromptSizes(scenario string, limit int) ([]history.PromptPoint, error) {
	ctx, err := h.context()
	if err != nil {
		return nil, err
	}
	pts, err := h.store.PromptSizeOverTime(ctx, scenario, limit)
	if pts == nil {
		pts = []history.PromptPoint{}
	}
	return pts, err
}
