package history

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/skills"
)

// ErrNotFound is returned for a run id that is not stored.
var ErrNotFound = errors.New("no such run")

// RunSummary is a run's metadata and totals, as listed.
type RunSummary struct {
	ID           RunID  `json:"id"`
	Scenario     string `json:"scenario"`
	ScenarioFile string `json:"scenario_file"`
	ScenarioHash string `json:"scenario_hash"`
	Backend      string `json:"backend"`
	// Agent is the agent CLI version whose renderings the run showed
	// ("claude-code@2.1.332"; "" none).
	Agent           string `json:"agent,omitempty"`
	agentBy         string
	Source          Source        `json:"source"`
	Status          engine.Status `json:"status"`
	Error           string        `json:"error,omitempty"`
	Started         time.Time     `json:"started"`
	Ended           time.Time     `json:"ended"`
	WallMS          int64         `json:"wall_ms"`
	Steps           int           `json:"steps"`
	LLMCalls        int           `json:"llm_calls"`
	TokensIn        int           `json:"tokens_in"`
	TokensOut       int           `json:"tokens_out"`
	MaxPromptTokens int           `json:"max_prompt_tokens"` // the largest call's prompt
	// TokensPending counts the run's texts whose tokens are not counted
	// yet (kept with DeferTokens): until 0 its token figures are partial.
	TokensPending int `json:"tokens_pending,omitempty"`
}

// Run is a stored run: metadata, metrics and the trace, read-only.
type Run struct {
	RunSummary
	Trace         *engine.Trace `json:"-"`
	Hooks         []HookMetrics `json:"hooks"`
	Calls         []CallMetrics `json:"calls"`
	MessageTokens []int         `json:"message_tokens"` // by message id
	// Executable hooks (migration 5): seed 001's metrics per (system,
	// hook) and seed 004's request usage per model; nil without them.
	ExecHooks []ExecHookMetrics `json:"exec_hooks,omitempty"`
	Usage     []ModelUsage      `json:"usage,omitempty"`
	// Session is what an imported agent session says of itself (source
	// session, migration 8); nil for any other run.
	Session *SessionInfo `json:"session,omitempty"`
}

const summaryCols = `r.id, r.scenario, r.scenario_file, r.scenario_hash, r.backend, r.source, r.status, r.error,
	r.started_ms, r.ended_ms, r.wall_ms, r.steps, r.llm_calls, r.tokens_in, r.tokens_out, r.max_prompt_tokens, r.agent, r.agent_by, r.tokens_pending`

type scanner interface{ Scan(dest ...any) error }

func scanSummary(sc scanner) (RunSummary, error) {
	var s RunSummary
	// Plain types only: Scan converts named string types (Source, Status)
	// by reflection, which doubles the cost of listing 10,000 runs.
	var id, started, ended int64
	var source, status string
	err := sc.Scan(&id, &s.Scenario, &s.ScenarioFile, &s.ScenarioHash, &s.Backend, &source, &status, &s.Error,
		&started, &ended, &s.WallMS, &s.Steps, &s.LLMCalls, &s.TokensIn, &s.TokensOut, &s.MaxPromptTokens, &s.Agent, &s.agentBy, &s.TokensPending)
	s.ID, s.Source, s.Status = RunID(id), Source(source), engine.Status(status)
	s.Started, s.Ended = time.UnixMilli(started), time.UnixMilli(ended)
	return s, err
}

// readTx runs fn in a deferred (read) transaction on one connection, so
// every query sees the same snapshot even if retention deletes the run
// meanwhile.
func (s *Store) readTx(ctx context.Context, fn func(q querier) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	return fn(conn)
}

// LoadRun reads a run back; its Trace equals the one saved.
func (s *Store) LoadRun(ctx context.Context, id RunID) (*Run, error) {
	var run *Run
	err := s.readTx(ctx, func(q querier) error {
		var err error
		run, err = loadRun(ctx, q, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load run %d: %w", id, err)
	}
	return run, nil
}

func loadRun(ctx context.Context, q querier, id RunID) (*Run, error) {
	return loadTrace(ctx, q, id, nil)
}

// loadTrace reads a run back; with refs it leaves the texts out (every
// message, answer and tool result empty, hook prompts kept) and notes in
// refs which text each one is.
func loadTrace(ctx context.Context, q querier, id RunID, refs *TextRefs) (*Run, error) {
	sum, err := scanSummary(q.QueryRowContext(ctx, `SELECT `+summaryCols+` FROM runs r WHERE r.id = ?`, int64(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	run := &Run{RunSummary: sum}
	rec := engine.Record{Scenario: sum.Scenario, Status: sum.Status, Error: sum.Error}
	if a, v, ok := strings.Cut(sum.Agent, "@"); ok {
		rec.Agent = &engine.Agent{Agent: a, Version: v, By: sum.agentBy}
	}

	// The run's texts once, shared by every message that repeats them;
	// without texts, only the hooks' prompts (a few).
	texts := map[int64]string{}
	hashes := map[int64]string{}
	blobQuery := `SELECT b.id, b.hash, b.data FROM run_blobs rb JOIN blobs b ON b.id = rb.blob_id WHERE rb.run_id = ?`
	if refs != nil {
		blobQuery = `SELECT b.id, b.hash, b.data FROM blobs b WHERE b.id IN (SELECT content_id FROM run_hooks WHERE run_id = ?)`
	}
	err = eachRow(ctx, q, blobQuery,
		[]any{int64(id)}, func(sc scanner) error {
			var bid int64
			var h []byte
			var t string
			if err := sc.Scan(&bid, &h, &t); err != nil {
				return err
			}
			texts[bid], hashes[bid] = t, hex.EncodeToString(h)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("blobs: %w", err)
	}
	text := func(bid int64) (string, error) {
		t, ok := texts[bid]
		if !ok {
			return "", fmt.Errorf("blob %d is missing", bid)
		}
		return t, nil
	}
	// the texts a skeleton leaves out: named, not read
	bodyText := text
	if refs != nil {
		bodyText = func(int64) (string, error) { return "", nil }
	}

	err = eachRow(ctx, q, `SELECT skill, name, file, timing, role, persistent, tool_filter, content_id, line,
		injected, removed, calls_seen, copies_seen, tokens_total, tokens_per_call,
		executions, successes, failures, skipped, duration_ms
		FROM run_hooks WHERE run_id = ? ORDER BY idx`, []any{int64(id)}, func(sc scanner) error {
		var h skills.Hook
		var m HookMetrics
		var filter sql.NullString
		var cid int64
		var perCall []byte
		if err := sc.Scan(&h.Skill, &h.Name, &h.File, &h.Timing, &h.Role, &h.Persistent, &filter, &cid, &h.Line,
			&m.Injected, &m.Removed, &m.CallsSeen, &m.CopiesSeen, &m.TokensTotal, &perCall,
			&m.Executions, &m.Successes, &m.Failures, &m.Skipped, &m.TotalDurationMS); err != nil {
			return err
		}
		if filter.Valid {
			if err := json.Unmarshal([]byte(filter.String), &h.ToolFilter); err != nil {
				return fmt.Errorf("tool filter: %w", err)
			}
		}
		if err := json.Unmarshal(perCall, &m.TokensPerCall); err != nil {
			return fmt.Errorf("tokens per call: %w", err)
		}
		var err error
		if h.Content, err = text(cid); err != nil {
			return err
		}
		m.Hook, m.Skill, m.Name, m.Timing, m.ContentHash = h.ID(), h.Skill, h.Name, string(h.Timing), hashes[cid]
		if !strings.HasPrefix(m.Timing, ExecTiming) { // an executable hook's row is metrics only
			rec.Hooks = append(rec.Hooks, h)
		}
		run.Hooks = append(run.Hooks, m)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}

	rec.Messages = make([]engine.MessageRecord, 0, 64)
	err = eachRow(ctx, q, `SELECT id, content_id, role, origin, history_of, ref, n, request, created, removed, tokens
		FROM run_messages WHERE run_id = ? ORDER BY id`, []any{int64(id)}, func(sc scanner) error {
		var m engine.MessageRecord
		var mid, cid int64
		var tok int
		if err := sc.Scan(&mid, &cid, &m.Role, &m.Origin, &m.HistoryOf, &m.Ref, &m.N, &m.Request, &m.Created, &m.Removed, &tok); err != nil {
			return err
		}
		if mid != int64(len(rec.Messages)) {
			return fmt.Errorf("message %d is missing", len(rec.Messages))
		}
		var err error
		if m.Content, err = bodyText(cid); err != nil {
			return err
		}
		if refs != nil {
			refs.Messages = append(refs.Messages, TextID(cid))
		}
		rec.Messages = append(rec.Messages, m)
		run.MessageTokens = append(run.MessageTokens, tok)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("messages: %w", err)
	}

	err = eachRow(ctx, q, `SELECT idx, request, phase, round, step, content_id, need_tool, error, tool_calls,
		tokens_in, tokens_out, messages FROM run_calls WHERE run_id = ? ORDER BY idx`, []any{int64(id)}, func(sc scanner) error {
		var c engine.LLMCall
		var round sql.NullInt64
		var needTool sql.NullBool
		var cid int64
		var tools []byte
		var m CallMetrics
		if err := sc.Scan(&c.Index, &c.Request, &c.Phase, &round, &c.Step, &cid, &needTool, &c.Error, &tools,
			&m.TokensIn, &m.TokensOut, &m.Messages); err != nil {
			return err
		}
		if round.Valid {
			r := int(round.Int64)
			c.Round = &r
		}
		if needTool.Valid {
			c.NeedTool = &needTool.Bool
		}
		var err error
		if c.Content, err = bodyText(cid); err != nil {
			return err
		}
		if c.ToolCalls, err = loadToolCalls(tools, bodyText); err != nil {
			return err
		}
		if refs != nil {
			refs.Calls = append(refs.Calls, TextID(cid))
		}
		m.Index, m.Request, m.Phase, m.Round, m.Error = c.Index, c.Request, c.Phase, c.Round, c.Error
		rec.Calls = append(rec.Calls, c)
		run.Calls = append(run.Calls, m)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("calls: %w", err)
	}

	var requests, tools, steps, removed []byte
	if err := q.QueryRowContext(ctx, `SELECT requests, tool_calls, steps, removed_ids FROM run_traces WHERE run_id = ?`, int64(id)).
		Scan(&requests, &tools, &steps, &removed); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	if err := json.Unmarshal(requests, &rec.Requests); err != nil {
		return nil, fmt.Errorf("requests: %w", err)
	}
	if rec.ToolCalls, err = loadToolCalls(tools, bodyText); err != nil {
		return nil, err
	}
	if rec.Steps, err = decodeSteps(steps); err != nil {
		return nil, err
	}
	if rec.RemovedIDs, err = decodeIDs(removed); err != nil {
		return nil, err
	}
	if err := loadExec(ctx, q, id, &rec, run); err != nil {
		return nil, err
	}
	if run.Session, err = loadSession(ctx, q, id, refs == nil); err != nil {
		return nil, err
	}
	if run.Trace, err = engine.FromRecord(rec); err != nil {
		return nil, err
	}
	return run, nil
}

func loadToolCalls(data []byte, text func(int64) (string, error)) ([]engine.ToolCall, error) {
	var stored []storedToolCall
	if err := json.Unmarshal(data, &stored); err != nil {
		return nil, fmt.Errorf("tool calls: %w", err)
	}
	if stored == nil {
		return nil, nil
	}
	out := make([]engine.ToolCall, len(stored))
	for i, s := range stored {
		res, err := text(s.Result)
		if err != nil {
			return nil, fmt.Errorf("tool call %d: %w", i, err)
		}
		out[i] = engine.ToolCall{ID: s.ID, Name: s.Name, Arguments: s.Arguments, Result: res, Error: s.Error,
			Status: s.Status, By: s.By, OriginalArguments: s.OriginalArguments}
		if s.HasOriginal && s.OriginalArguments == nil {
			out[i].OriginalArguments = map[string]any{}
		}
	}
	return out, nil
}

func eachRow(ctx context.Context, q querier, query string, args []any, fn func(scanner) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
