package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
)

// execRecord is the executable-hook part of a trace that the other tables
// do not hold (migration 5, run_exec.data). No field is omitempty: nil and
// empty must come back as they went in.
type execRecord struct {
	HookCalls  []storedHookCall       `json:"hook_calls"`
	Hidden     []engine.SpanRecord    `json:"hidden"`
	Restored   []engine.RestoreRecord `json:"restored"`
	ReplacedBy [][2]int32             `json:"replaced_by"`
	Messages   []messageExtra         `json:"messages"` // only messages with an edit or a position
	Calls      []callExtra            `json:"calls"`    // only calls with hook data
}

// storedHookCall keeps Input and Output byte for byte (json.RawMessage
// would be compacted on the way in).
type storedHookCall struct {
	engine.HookCall
	Input  *string `json:"input"`
	Output *string `json:"output"`
}

type messageExtra struct {
	ID   int32    `json:"id"`
	Edit int32    `json:"edit"`
	Pos  *float64 `json:"pos"`
}

type callExtra struct {
	Index           int      `json:"index"`
	Model           string   `json:"model"`
	AddedTools      []string `json:"added_tools"`
	OriginalContent *string  `json:"original_content"`
	Warning         string   `json:"warning"`
}

func rawPtr(r json.RawMessage) *string {
	if r == nil {
		return nil
	}
	s := string(r)
	return &s
}

func ptrRaw(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}

// execOf gathers rec's executable-hook data; ok is false when there is
// none (every prompt-only run), so those runs store no row.
func execOf(rec *engine.Record) (execRecord, bool) {
	x := execRecord{Hidden: rec.Hidden, Restored: rec.Restored, ReplacedBy: rec.ReplacedBy}
	if rec.HookCalls != nil {
		x.HookCalls = make([]storedHookCall, len(rec.HookCalls))
		for i, hc := range rec.HookCalls {
			x.HookCalls[i] = storedHookCall{HookCall: hc, Input: rawPtr(hc.Input), Output: rawPtr(hc.Output)}
			x.HookCalls[i].HookCall.Input, x.HookCalls[i].HookCall.Output = nil, nil
		}
	}
	for i := range rec.Messages {
		if m := &rec.Messages[i]; m.Edit != 0 || m.Pos != nil {
			x.Messages = append(x.Messages, messageExtra{ID: int32(i), Edit: m.Edit, Pos: m.Pos})
		}
	}
	for i := range rec.Calls {
		c := &rec.Calls[i]
		if c.Model != "" || c.AddedTools != nil || c.OriginalContent != nil || c.Warning != "" {
			x.Calls = append(x.Calls, callExtra{Index: i, Model: c.Model, AddedTools: c.AddedTools, OriginalContent: c.OriginalContent, Warning: c.Warning})
		}
	}
	ok := x.HookCalls != nil || x.Hidden != nil || x.Restored != nil || x.ReplacedBy != nil || x.Messages != nil || x.Calls != nil
	return x, ok
}

// applyExec puts stored executable-hook data back into rec.
func applyExec(rec *engine.Record, x *execRecord) error {
	rec.Hidden, rec.Restored, rec.ReplacedBy = x.Hidden, x.Restored, x.ReplacedBy
	if x.HookCalls != nil {
		rec.HookCalls = make([]engine.HookCall, len(x.HookCalls))
		for i, s := range x.HookCalls {
			hc := s.HookCall
			hc.Input, hc.Output = ptrRaw(s.Input), ptrRaw(s.Output)
			rec.HookCalls[i] = hc
		}
	}
	for _, m := range x.Messages {
		if m.ID < 0 || int(m.ID) >= len(rec.Messages) {
			return fmt.Errorf("executable hook data: message %d is out of range", m.ID)
		}
		rec.Messages[m.ID].Edit, rec.Messages[m.ID].Pos = m.Edit, m.Pos
	}
	for _, c := range x.Calls {
		if c.Index < 0 || c.Index >= len(rec.Calls) {
			return fmt.Errorf("executable hook data: call %d is out of range", c.Index)
		}
		rc := &rec.Calls[c.Index]
		rc.Model, rc.AddedTools, rc.OriginalContent, rc.Warning = c.Model, c.AddedTools, c.OriginalContent, c.Warning
	}
	return nil
}

// ExecHookMetrics is seed 001's per-hook metrics of one executable hook in
// one run, derived from the trace's hook calls by (system, hook).
// Executions counts invocations that ran (Successes + Failures); an
// error or timeout is a failure; a skipped invocation did not run.
type ExecHookMetrics struct {
	System          string  `json:"system"`
	Hook            string  `json:"hook"`
	Executions      int     `json:"executions"`
	Successes       int     `json:"successes"`
	Failures        int     `json:"failures"`
	Skipped         int     `json:"skipped"`
	TotalDurationMS float64 `json:"total_duration_ms"`
}

// execHookMetrics sums hook calls by (system, hook), in first-seen order.
func execHookMetrics(calls []engine.HookCall) []ExecHookMetrics {
	type key struct{ system, hook string }
	idx := map[key]int{}
	var out []ExecHookMetrics
	for _, hc := range calls {
		k := key{hc.System, hc.Hook}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, ExecHookMetrics{System: hc.System, Hook: hc.Hook})
		}
		m := &out[i]
		switch hc.Outcome {
		case engine.OutcomeSkipped:
			if len(hc.Changes) > 0 {
				// A hook that ran and skipped the tool ran successfully.
				m.Executions++
				m.Successes++
			} else {
				m.Skipped++
			}
		case engine.OutcomeError, engine.OutcomeTimeout:
			m.Executions++
			m.Failures++
		default:
			m.Executions++
			m.Successes++
		}
		m.TotalDurationMS += hc.DurationMS
	}
	return out
}

// ModelUsage is seed 004's usage statistics for one model in one run:
// requests (successful and failed), attempts (retries included) and the
// tokens the model reported.
type ModelUsage struct {
	Model            string `json:"model"`
	Requests         int    `json:"requests"`
	Successes        int    `json:"successes"`
	Failures         int    `json:"failures"`
	Attempts         int    `json:"attempts"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	ThinkingTokens   int    `json:"thinking_tokens"`
	CachedTokens     int    `json:"cached_tokens"`
}

// requestEnd is the part of a RequestContext (app/hooks/reqhook) usage needs.
type requestEnd struct {
	RequestID string            `json:"request_id"`
	Model     string            `json:"model"`
	Success   bool              `json:"success"`
	Attempts  []json.RawMessage `json:"attempts"`
	Usage     *struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
		Thinking   int `json:"thinking_tokens"`
		Cached     int `json:"cached_tokens"`
	} `json:"usage_metadata"`
}

// usageOf aggregates the request_end contexts per model, one per request
// id (several end hooks receive the same context).
func usageOf(calls []engine.HookCall) []ModelUsage {
	seen := map[string]bool{}
	idx := map[string]int{}
	var out []ModelUsage
	for _, hc := range calls {
		if hc.System != "request" || hc.Event != "request_end" || len(hc.Input) == 0 {
			continue
		}
		var re requestEnd
		if json.Unmarshal(hc.Input, &re) != nil || re.RequestID == "" || seen[re.RequestID] {
			continue
		}
		seen[re.RequestID] = true
		i, ok := idx[re.Model]
		if !ok {
			i = len(out)
			idx[re.Model] = i
			out = append(out, ModelUsage{Model: re.Model})
		}
		u := &out[i]
		u.Requests++
		u.Attempts += len(re.Attempts)
		if re.Success {
			u.Successes++
		} else {
			u.Failures++
		}
		if re.Usage != nil {
			u.PromptTokens += re.Usage.Prompt
			u.CompletionTokens += re.Usage.Completion
			u.ThinkingTokens += re.Usage.Thinking
			u.CachedTokens += re.Usage.Cached
		}
	}
	slices.SortFunc(out, func(a, b ModelUsage) int { return strings.Compare(a.Model, b.Model) })
	return out
}

// insertExec stores a run's executable-hook data, per-hook metrics and
// request usage (nothing for a run without executable hooks).
func insertExec(ctx context.Context, tx *sql.Tx, rid int64, rec *engine.Record) error {
	x, ok := execOf(rec)
	if !ok {
		return nil
	}
	data, err := json.Marshal(x)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO run_exec (run_id, data) VALUES (?, ?)`, rid, string(data)); err != nil {
		return fmt.Errorf("insert executable hook data: %w", err)
	}
	hm := execHookMetrics(rec.HookCalls)
	err = batchInsert(ctx, tx, "run_exec_hooks", []string{"run_id", "system", "hook", "executions", "successes", "failures", "skipped", "duration_ms"},
		len(hm), func(i int, a []any) []any {
			m := &hm[i]
			return append(a, rid, m.System, m.Hook, m.Executions, m.Successes, m.Failures, m.Skipped, m.TotalDurationMS)
		})
	if err != nil {
		return err
	}
	us := usageOf(rec.HookCalls)
	return batchInsert(ctx, tx, "run_request_usage", []string{"run_id", "model", "requests", "successes", "failures", "attempts",
		"prompt_tokens", "completion_tokens", "thinking_tokens", "cached_tokens"}, len(us), func(i int, a []any) []any {
		u := &us[i]
		return append(a, rid, u.Model, u.Requests, u.Successes, u.Failures, u.Attempts, u.PromptTokens, u.CompletionTokens, u.ThinkingTokens, u.CachedTokens)
	})
}

// loadExec reads what insertExec stored into rec and run.
func loadExec(ctx context.Context, q querier, id RunID, rec *engine.Record, run *Run) error {
	var data string
	err := q.QueryRowContext(ctx, `SELECT data FROM run_exec WHERE run_id = ?`, int64(id)).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("executable hook data: %w", err)
	}
	var x execRecord
	if err := json.Unmarshal([]byte(data), &x); err != nil {
		return fmt.Errorf("executable hook data: %w", err)
	}
	if err := applyExec(rec, &x); err != nil {
		return err
	}
	err = eachRow(ctx, q, `SELECT system, hook, executions, successes, failures, skipped, duration_ms
		FROM run_exec_hooks WHERE run_id = ? ORDER BY system, hook`, []any{int64(id)}, func(sc scanner) error {
		var m ExecHookMetrics
		if err := sc.Scan(&m.System, &m.Hook, &m.Executions, &m.Successes, &m.Failures, &m.Skipped, &m.TotalDurationMS); err != nil {
			return err
		}
		run.ExecHooks = append(run.ExecHooks, m)
		return nil
	})
	if err != nil {
		return fmt.Errorf("executable hook metrics: %w", err)
	}
	err = eachRow(ctx, q, `SELECT model, requests, successes, failures, attempts, prompt_tokens, completion_tokens, thinking_tokens, cached_tokens
		FROM run_request_usage WHERE run_id = ? ORDER BY model`, []any{int64(id)}, func(sc scanner) error {
		var u ModelUsage
		if err := sc.Scan(&u.Model, &u.Requests, &u.Successes, &u.Failures, &u.Attempts, &u.PromptTokens, &u.CompletionTokens, &u.ThinkingTokens, &u.CachedTokens); err != nil {
			return err
		}
		run.Usage = append(run.Usage, u)
		return nil
	})
	if err != nil {
		return fmt.Errorf("request usage: %w", err)
	}
	return nil
}

// UsagePoint is one run's request usage, for a chart across runs.
type UsagePoint struct {
	Run     RunID        `json:"run"`
	Started int64        `json:"started_ms"`
	Models  []ModelUsage `json:"models"`
}

// UsageHistory lists the request usage of the newest limit runs of a
// scenario ("" every scenario) that made requests through request hooks,
// oldest first.
func (s *Store) UsageHistory(ctx context.Context, scenario string, limit int) ([]UsagePoint, error) {
	if limit <= 0 {
		limit = 50
	}
	out := []UsagePoint{}
	pos := map[RunID]int{}
	err := eachRow(ctx, s.db, `SELECT r.id, r.started_ms, u.model, u.requests, u.successes, u.failures, u.attempts,
		u.prompt_tokens, u.completion_tokens, u.thinking_tokens, u.cached_tokens
		FROM (SELECT id, started_ms FROM runs WHERE (?1 = '' OR scenario = ?1)
		      AND id IN (SELECT run_id FROM run_request_usage) ORDER BY started_ms DESC, id DESC LIMIT ?2) r
		JOIN run_request_usage u ON u.run_id = r.id ORDER BY r.started_ms, r.id, u.model`, []any{scenario, limit}, func(sc scanner) error {
		var id, started int64
		var u ModelUsage
		if err := sc.Scan(&id, &started, &u.Model, &u.Requests, &u.Successes, &u.Failures, &u.Attempts,
			&u.PromptTokens, &u.CompletionTokens, &u.ThinkingTokens, &u.CachedTokens); err != nil {
			return err
		}
		i, ok := pos[RunID(id)]
		if !ok {
			i = len(out)
			pos[RunID(id)] = i
			out = append(out, UsagePoint{Run: RunID(id), Started: started})
		}
		out[i].Models = append(out[i].Models, u)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("usage history: %w", err)
	}
	return out, nil
}
