package bind

import (
	"context"
	"errors"
	"sync"

	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// ErrNoHistory is returned when the history database could not be opened.
var ErrNoHistory = errors.New("the run history is not available")

// History is bound as window.go.bind.History: stored runs, their
// comparison and the figures behind the charts.
type History struct {
	store  *history.Store // nil when the database could not be opened
	tokens studio.TokenCounter

	mu  sync.Mutex
	ctx context.Context
}

// NewHistory binds store, which may be nil.
func NewHistory(store *history.Store, tokens studio.TokenCounter) *History {
	return &History{store: store, tokens: tokens, ctx: context.Background()}
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

// Run opens a stored run read-only, as the simulator shows it.
func (h *History) Run(id int64) (studio.TraceView, error) {
	ctx, err := h.context()
	if err != nil {
		return studio.TraceView{}, err
	}
	r, err := h.store.LoadRun(ctx, history.RunID(id))
	if err != nil {
		return studio.TraceView{}, err
	}
	origin, err := h.origin(ctx, r)
	if err != nil {
		return studio.TraceView{}, err
	}
	return studio.RunView(r.Trace, r.ScenarioFile, storedTokens(r, h.tokens), origin), nil
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

// storedTokens counts a stored run's messages from the counts stored with
// it (counted when it was saved), the rest with tokens: a large run's view
// is not made by counting all its text again.
func storedTokens(r *history.Run, tokens studio.TokenCounter) studio.TokenCounter {
	if len(r.MessageTokens) != r.Trace.NumMessages() {
		return tokens
	}
	known := make(map[[2]string]int, len(r.MessageTokens))
	for id, n := range r.MessageTokens {
		m := r.Trace.Message(id)
		known[[2]string{m.Role, m.Content}] = n
	}
	return knownCounts{known: known, rest: tokens}
}

type knownCounts struct {
	known map[[2]string]int
	rest  studio.TokenCounter
}

func (k knownCounts) CountMessage(role, content string) int {
	if n, ok := k.known[[2]string{role, content}]; ok {
		return n
	}
	return k.rest.CountMessage(role, content)
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
