package capture

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"hookstudio/app/agentdata/recipe"
)

// EventState is the app event a session sends after every change.
const EventState = "capture:state"

// SessionOptions configure a capture the app runs.
type SessionOptions struct {
	Port        int    `json:"port"`         // 0: a free one
	AnswersFile string `json:"answers_file"` // the answers file, unless Manual
	// Manual: the user answers each request in the app (the app is the
	// agent's model, each request a breakpoint).
	Manual bool `json:"manual"`
	// Profile: each request is forwarded to this model profile's endpoint
	// with its model and key, and its answer relayed back unchanged.
	Profile string `json:"profile"`
}

// CallSummary is one recorded request as the app lists it.
type CallSummary struct {
	N           int      `json:"n"`
	API         API      `json:"api"`
	Path        string   `json:"path"`
	Status      int      `json:"status"`
	Error       string   `json:"error,omitempty"`
	Messages    int      `json:"messages"`
	InputTokens int      `json:"input_tokens"`
	Hooks       []string `json:"hooks"` // the hooks whose text it carries
	Answer      string   `json:"answer"`
	// Agent is the agent CLI that sent it ("" when it does not tell).
	Agent string `json:"agent,omitempty"`
}

// SessionState is what the app shows of a capture.
type SessionState struct {
	Running bool   `json:"running"`
	BaseURL string `json:"base_url,omitempty"`
	// Lines are what to paste before starting an agent, one per API.
	Lines []string `json:"lines"`
	// Recipes are how to run each agent CLI against this capture (those
	// speaking the forwarded profile's API when forwarding).
	Recipes     []recipe.Recipe `json:"recipes"`
	AnswersFile string          `json:"answers_file,omitempty"`
	Answers     int             `json:"answers"`
	Calls       []CallSummary   `json:"calls"`
	Manual      bool            `json:"manual,omitempty"`
	// Forward is the profile a forwarding capture relays to (never its key).
	Forward *UpstreamCall `json:"forward,omitempty"`
	// Pending is the request waiting for the user's answer (Manual).
	Pending *PendingRequest `json:"pending,omitempty"`
	// RunID is the history run the stopped capture was kept as (0: none).
	RunID int64  `json:"run_id,omitempty"`
	Error string `json:"error,omitempty"`
	// Seq orders the copies (it grows with each one): events are sent
	// after the lock is let go, and answers race them, so the app keeps
	// the newest.
	Seq int64 `json:"seq"`
}

// Session is the app's capture: one endpoint at a time, kept as a history
// run when it stops.
type Session struct {
	emit   func(string, any)
	store  KeepStore // nil: nothing kept
	tokens Counter
	// upstream resolves a profile's endpoint and key (nil: no profiles).
	upstream func(profile string) (*Upstream, error)
	agents   *AgentReader // nil: the bundled profiles

	mu      sync.Mutex
	srv     *Server
	keeper  *Keeper // nil: nothing kept
	manual  *Manual
	state   SessionState
	seq     int64 // the last copy's Seq
	started time.Time
	// the last capture's calls and run: saved as a scenario whole (a run
	// read back from the history lacks a few things, see CallsFromTrace)
	lastCalls []Call
	lastRun   int64
}

// NewSession makes the app's capture; store and tokens may be nil.
func NewSession(emit func(string, any), store KeepStore, tokens Counter) *Session {
	return &Session{emit: emit, store: store, tokens: tokens, state: SessionState{Lines: []string{}, Recipes: []recipe.Recipe{}, Calls: []CallSummary{}}}
}

// WithUpstreams lets the session forward to model profiles: resolve gives
// a profile's endpoint with its key (UpstreamOf over the app's profiles).
func (s *Session) WithUpstreams(resolve func(profile string) (*Upstream, error)) *Session {
	s.upstream = resolve
	return s
}

// WithAgents reads the agent's hook texts with the rendering profiles of
// ar (bundled and calibrated; nil: the bundled ones).
func (s *Session) WithAgents(ar *AgentReader) *Session {
	s.agents = ar
	return s
}

// State is the capture as it is now.
func (s *Session) State() SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.copyLocked()
}

func (s *Session) copyLocked() SessionState {
	s.seq++
	st := s.state
	st.Seq = s.seq
	st.Lines = append([]string{}, st.Lines...)
	st.Recipes = append([]recipe.Recipe{}, st.Recipes...)
	st.Calls = append([]CallSummary{}, st.Calls...)
	return st
}

// Start listens on 127.0.0.1 and answers from the answers file, or asks
// the user for each answer (Manual).
func (s *Session) Start(opts SessionOptions) (SessionState, error) {
	var answerer Answerer
	var manual *Manual
	var up *Upstream
	answers := 0
	switch {
	case opts.Profile != "" && opts.Manual:
		return s.State(), fmt.Errorf("choose one: forward to profile %s, or answer each request yourself", opts.Profile)
	case opts.Profile != "":
		if s.upstream == nil {
			return s.State(), fmt.Errorf("forward to profile %s: this app has no model profiles", opts.Profile)
		}
		var err error
		if up, err = s.upstream(opts.Profile); err != nil {
			return s.State(), fmt.Errorf("forward to profile %s: %w", opts.Profile, err)
		}
	case opts.Manual:
		manual = &Manual{OnPending: s.onPending}
		answerer = manual
	case opts.AnswersFile == "":
		return s.State(), fmt.Errorf("choose an answers file, a profile to forward to, or answer each request yourself")
	default:
		script, err := LoadScript(opts.AnswersFile)
		if err != nil {
			return s.State(), err
		}
		answerer, answers = script, script.Len()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return s.copyLocked(), fmt.Errorf("a capture is running at %s; stop it first", s.state.BaseURL)
	}
	started := time.Now()
	var keeper *Keeper
	var journal *Journal
	if s.store != nil {
		// kept as calls arrive: an app that dies keeps every call answered
		keeper = NewKeeper(s.store, s.tokens, started)
		journal = keeper.Journal()
	}
	var tokens TokenCounter
	if s.tokens != nil {
		tokens = s.tokens
	}
	srv, err := Listen(Options{Addr: fmt.Sprintf("127.0.0.1:%d", opts.Port), Answerer: answerer, Upstream: up, Tokens: tokens, Journal: journal, OnCall: s.onCall, Agents: s.agents})
	if err != nil {
		if keeper != nil {
			_, _ = keeper.Close()
		}
		return s.copyLocked(), err
	}
	if keeper != nil {
		keeper.OnSaved = s.onSaved // set before the first call; it takes s.mu, so not before Listen's failure path
	}
	s.srv, s.manual, s.started, s.keeper = srv, manual, started, keeper
	url := srv.URL()
	s.state = SessionState{Running: true, BaseURL: url, AnswersFile: opts.AnswersFile, Answers: answers, Manual: opts.Manual, Calls: []CallSummary{},
		Lines: PasteLines(url, up), Recipes: recipe.ForAPI(url, "")}
	if up != nil {
		s.state.AnswersFile = ""
		s.state.Forward = &UpstreamCall{Profile: up.Profile, Host: up.Host(), Model: up.Model}
		s.state.Recipes = recipe.ForAPI(url, string(up.API)) // a forward relays, never translates
	}
	st := s.copyLocked()
	s.emit(EventState, st)
	return st, nil
}

// PasteLines are what to set before starting an agent against url: both
// APIs' lines, or, forwarding, only the line of the API the profile
// speaks (a request in the other one cannot be relayed unchanged).
func PasteLines(url string, up *Upstream) []string {
	anthropic := "ANTHROPIC_BASE_URL=" + url + " ANTHROPIC_API_KEY=capture CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"
	openai := "OPENAI_BASE_URL=" + url + "/v1 OPENAI_API_KEY=capture"
	switch {
	case up == nil:
		return []string{anthropic, openai}
	case up.API == Anthropic:
		return []string{anthropic}
	default:
		return []string{openai}
	}
}

// onCall runs on the server's goroutine, under the server's lock: calls
// arrive in order.
func (s *Session) onCall(c Call) {
	sum := CallSummary{N: c.N, API: c.API, Path: c.Path, Status: c.Status, Error: c.Error, Messages: len(c.Messages), InputTokens: c.InputTokens, Hooks: []string{}}
	if c.Agent != nil {
		sum.Agent = c.Agent.Name
	}
	for _, m := range c.Messages {
		if m.Origin == OriginHook && m.Hook != "" && !slices.Contains(sum.Hooks, m.Hook) {
			sum.Hooks = append(sum.Hooks, m.Hook)
		}
	}
	if c.Answer != nil {
		sum.Answer = c.Answer.Content
		for _, tc := range c.Answer.ToolCalls {
			sum.Answer += fmt.Sprintf(" → %s", tc.Name)
		}
	}
	s.mu.Lock()
	s.state.Calls = append(s.state.Calls, sum)
	if s.keeper != nil {
		s.keeper.Add(c)
	}
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
}

// onSaved tells the app which run the capture is kept as so far.
func (s *Session) onSaved(id int64, err error) {
	s.mu.Lock()
	if err != nil {
		s.state.Error = err.Error()
	} else if s.state.Running {
		s.state.RunID, s.state.Error = id, ""
	}
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
}

// onPending tells the app a request waits for its answer (nil: none now).
func (s *Session) onPending(p *PendingRequest) {
	s.mu.Lock()
	s.state.Pending = p
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
}

// Reply answers the request waiting for the user.
func (s *Session) Reply(n int, a *Answer) (SessionState, error) {
	s.mu.Lock()
	m := s.manual
	s.mu.Unlock()
	if m == nil {
		return s.State(), fmt.Errorf("this capture answers from its answers file: %w", ErrNoPending)
	}
	err := m.Reply(n, a)
	return s.State(), err
}

// Stop closes the endpoint and keeps what it recorded as a history run.
func (s *Session) Stop(ctx context.Context) (SessionState, error) {
	s.mu.Lock()
	srv, keeper, manual := s.srv, s.keeper, s.manual
	s.srv = nil
	s.mu.Unlock()
	if srv == nil {
		return s.State(), fmt.Errorf("no capture is running")
	}
	if manual != nil {
		manual.Stop() // a request waiting for the user is answered with an error, not left hanging
	}
	err := srv.Close() // every call answered is recorded, so kept below
	var id int64
	if keeper != nil {
		var kerr error
		if id, kerr = keeper.Close(); kerr != nil && err == nil {
			err = kerr
		}
	}
	s.mu.Lock()
	s.lastCalls, s.lastRun = srv.Calls(), id
	s.state.Running, s.state.RunID, s.state.Pending, s.manual, s.keeper = false, id, nil, nil, nil
	if err != nil {
		s.state.Error = err.Error()
	}
	st := s.copyLocked()
	s.mu.Unlock()
	s.emit(EventState, st)
	return st, err
}

// LastCalls are the calls of the capture kept as run (nil: it is not the
// last capture this session ran).
func (s *Session) LastCalls(run int64) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	if run == 0 || run != s.lastRun {
		return nil
	}
	return s.lastCalls
}

// Name names a capture: "capture: " and the first words the user typed.
func Name(calls []Call) string {
	for _, c := range calls {
		for _, m := range c.Messages {
			if m.Origin == OriginUser {
				text := []rune(m.Content)
				if len(text) > 48 {
					text = append(text[:47], '…')
				}
				return "capture: " + string(text)
			}
		}
	}
	return "capture"
}
