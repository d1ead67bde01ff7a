package history

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Filter selects runs. Zero fields do not filter; Limit 0 means no limit.
type Filter struct {
	Scenario string    `json:"scenario"`
	Skill    string    `json:"skill"` // the scenario's skill or any skill whose hooks ran
	Since    time.Time `json:"since"` // started at or after
	Until    time.Time `json:"until"` // started before
	Source   Source    `json:"source"`
	Limit    int       `json:"limit"`
	Offset   int       `json:"offset"`
}

// ListRuns returns matching runs, newest first.
func (s *Store) ListRuns(ctx context.Context, f Filter) ([]RunSummary, error) {
	var where []string
	var args []any
	if f.Scenario != "" {
		where, args = append(where, "r.scenario = ?"), append(args, f.Scenario)
	}
	if f.Skill != "" {
		where, args = append(where, "r.id IN (SELECT run_id FROM run_skills WHERE skill = ?)"), append(args, f.Skill)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "r.started_ms >= ?"), append(args, f.Since.UnixMilli())
	}
	if !f.Until.IsZero() {
		where, args = append(where, "r.started_ms < ?"), append(args, f.Until.UnixMilli())
	}
	if f.Source != "" {
		where, args = append(where, "r.source = ?"), append(args, string(f.Source))
	}
	q := `SELECT ` + summaryCols + ` FROM runs r`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY r.started_ms DESC, r.id DESC"
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	q += " LIMIT ? OFFSET ?"
	args = append(args, limit, max(f.Offset, 0))
	out := []RunSummary{}
	err := eachRow(ctx, s.db, q, args, func(sc scanner) error {
		r, err := scanSummary(sc)
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return out, nil
}

// HookPoint is one run's figures for one hook, for a chart of the hook's
// cost across runs.
type HookPoint struct {
	Run         RunID     `json:"run"`
	Started     time.Time `json:"started"`
	Scenario    string    `json:"scenario"`
	Source      Source    `json:"source"`
	ContentHash string    `json:"content_hash"` // changes when the prompt text was edited
	Injected    int       `json:"injected"`
	CallsSeen   int       `json:"calls_seen"`
	CopiesSeen  int       `json:"copies_seen"`
	TokensTotal int       `json:"tokens_total"`
}

// HookHistory returns the hook's (skill/name) figures in its last limit
// runs (0: all), oldest first, ready to plot.
func (s *Store) HookHistory(ctx context.Context, hookID string, limit int) ([]HookPoint, error) {
	if limit <= 0 {
		limit = -1
	}
	out := []HookPoint{}
	err := eachRow(ctx, s.db, `SELECT r.id, r.started_ms, r.scenario, r.source, hex(b.hash), h.injected, h.calls_seen, h.copies_seen, h.tokens_total
		FROM run_hooks h JOIN runs r ON r.id = h.run_id JOIN blobs b ON b.id = h.content_id
		WHERE h.hook_id = ? ORDER BY r.started_ms DESC, r.id DESC LIMIT ?`, []any{hookID, limit}, func(sc scanner) error {
		var p HookPoint
		var started int64
		if err := sc.Scan(&p.Run, &started, &p.Scenario, &p.Source, &p.ContentHash, &p.Injected, &p.CallsSeen, &p.CopiesSeen, &p.TokensTotal); err != nil {
			return err
		}
		p.Started, p.ContentHash = time.UnixMilli(started), strings.ToLower(p.ContentHash)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("hook history: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

// PromptPoint is one run's prompt size, for a chart over time.
type PromptPoint struct {
	Run             RunID     `json:"run"`
	Started         time.Time `json:"started"`
	Source          Source    `json:"source"`
	LLMCalls        int       `json:"llm_calls"`
	TokensIn        int       `json:"tokens_in"`
	MaxPromptTokens int       `json:"max_prompt_tokens"`
}

// PromptSizeOverTime returns the scenario's last limit runs (0: all),
// oldest first.
func (s *Store) PromptSizeOverTime(ctx context.Context, scenario string, limit int) ([]PromptPoint, error) {
	if limit <= 0 {
		limit = -1
	}
	out := []PromptPoint{}
	err := eachRow(ctx, s.db, `SELECT id, started_ms, source, llm_calls, tokens_in, max_prompt_tokens FROM runs
		WHERE scenario = ? ORDER BY started_ms DESC, id DESC LIMIT ?`, []any{scenario, limit}, func(sc scanner) error {
		var p PromptPoint
		var started int64
		if err := sc.Scan(&p.Run, &started, &p.Source, &p.LLMCalls, &p.TokensIn, &p.MaxPromptTokens); err != nil {
			return err
		}
		p.Started = time.UnixMilli(started)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("prompt size over time: %w", err)
	}
	slices.Reverse(out)
	return out, nil
}

// HookTotals is a hook's per-hook metrics summed over runs, in the shape
// of seed 001: executions, successes, failures, skipped, total duration.
type HookTotals struct {
	Hook            string `json:"hook"`
	Runs            int    `json:"runs"`
	Executions      int    `json:"executions"`
	Successes       int    `json:"successes"`
	Failures        int    `json:"failures"`
	Skipped         int    `json:"skipped"`
	TotalDurationMS int64  `json:"total_duration_ms"`
	TokensTotal     int    `json:"tokens_total"`
}

// HookMetricsSince sums every hook's metrics over the runs started at or
// after since (zero: all runs), by hook id.
func (s *Store) HookMetricsSince(ctx context.Context, since time.Time) ([]HookTotals, error) {
	out := []HookTotals{}
	err := eachRow(ctx, s.db, `SELECT h.hook_id, count(*), sum(h.executions), sum(h.successes), sum(h.failures), sum(h.skipped),
		sum(h.duration_ms), sum(h.tokens_total)
		FROM run_hooks h JOIN runs r ON r.id = h.run_id WHERE r.started_ms >= ?
		GROUP BY h.hook_id ORDER BY h.hook_id`, []any{since.UnixMilli()}, func(sc scanner) error {
		var t HookTotals
		if err := sc.Scan(&t.Hook, &t.Runs, &t.Executions, &t.Successes, &t.Failures, &t.Skipped, &t.TotalDurationMS, &t.TokensTotal); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("hook metrics: %w", err)
	}
	return out, nil
}
