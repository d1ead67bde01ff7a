package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/sqlbatch"
)

// RunID identifies a stored run.
type RunID int64

// Source says what started a run.
type Source string

const (
	SourceCLI  Source = "cli"  // hookctl simulate
	SourceApp  Source = "app"  // the app's run button
	SourceLive Source = "live" // the app's re-simulation after a save
	// SourceCapture is a real agent's requests to the capture endpoint
	// (app/capture), recorded as a run.
	SourceCapture Source = "capture"
	// SourceSession is a real agent's session imported from its transcript
	// (app/capture/sessions); the run carries a SessionInfo.
	SourceSession Source = "session"
)

// Simulated says whether a run from s went through the simulated agent
// (the app, hookctl), rather than being a real agent's calls as recorded.
func (s Source) Simulated() bool {
	switch s {
	case SourceCLI, SourceApp, SourceLive:
		return true
	}
	return false
}

// TokenCounter counts what a chat message costs in a request;
// tokens.Counter is one.
type TokenCounter interface {
	CountMessage(role, content string) int
}

// RunInput is a finished run to store.
type RunInput struct {
	Trace        *engine.Trace
	ScenarioFile string // relative to the skills root, forward slashes
	ScenarioData []byte // the scenario file's bytes; their sha256 is kept
	Backend      string // "mock", "openai:<profile>", ...
	Source       Source
	Started      time.Time
	Ended        time.Time
	// Tokens counts message tokens for the metrics; nil estimates four
	// bytes per token, which is only good for tests.
	Tokens TokenCounter
	// Replaces, when set, is a run this one stands in for under the same
	// id, in the same transaction: a run kept while it goes on.
	Replaces RunID
	// Capture, when set, is the capture the run is built from: the run
	// stands in for the one its previous fold made (Replaces is ignored).
	Capture *CaptureFold
	// Session is what an imported session says of itself (source session).
	Session *SessionInfo
}

// estimate is the fallback counter: ~4 bytes a token plus the framing.
type estimate struct{}

func (estimate) CountMessage(role, content string) int {
	return 3 + (len(role)+3)/4 + (len(content)+3)/4
}

var errNoTrace = errors.New("run has no trace")

// SaveRun stores a run with its metrics in one transaction, then applies
// the retention policy. The returned id is valid even when the retention
// step fails (the error then says so).
func (s *Store) SaveRun(ctx context.Context, in RunInput) (RunID, error) {
	if in.Trace == nil {
		return 0, errNoTrace
	}
	if in.Source == "" {
		in.Source = SourceCLI
	}
	if in.Backend == "" {
		in.Backend = "mock"
	}
	tc := in.Tokens
	if tc == nil {
		tc = estimate{}
	}
	rec := in.Trace.Record()
	met, err := computeMetrics(&rec, tc)
	if err != nil {
		return 0, fmt.Errorf("save run: %w", err)
	}
	sum := sha256.Sum256(in.ScenarioData)
	var id RunID
	var deleted int
	err = s.write(ctx, func(tx *sql.Tx) error {
		if in.Capture != nil {
			replaces, stale, err := foldCapture(ctx, tx, in.Capture, in.Started)
			if err != nil {
				return fmt.Errorf("capture %s: %w", in.Capture.ID, err)
			}
			if stale {
				id = replaces // a fold as new already made it
				return nil
			}
			in.Replaces = replaces
		}
		var oldBlobs []RunID
		if in.Replaces != 0 {
			// its rows go by cascade; its texts are kept for the new rows,
			// and only those they no longer use are collected after
			var err error
			if oldBlobs, err = queryIDs(ctx, tx, `SELECT blob_id FROM run_blobs WHERE run_id = ?`, int64(in.Replaces)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, int64(in.Replaces)); err != nil {
				return fmt.Errorf("replace run %d: %w", in.Replaces, err)
			}
		}
		var err error
		if id, err = insertRun(ctx, tx, &in, &rec, met, hex.EncodeToString(sum[:])); err != nil {
			return err
		}
		for _, b := range oldBlobs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM blobs WHERE id = ?1
				AND NOT EXISTS (SELECT 1 FROM run_blobs WHERE blob_id = ?1)`, int64(b)); err != nil {
				return fmt.Errorf("collect blob %d: %w", b, err)
			}
		}
		if in.Capture != nil {
			if err := linkCapture(ctx, tx, in.Capture, id); err != nil {
				return fmt.Errorf("capture %s: %w", in.Capture.ID, err)
			}
		}
		deleted, err = s.applyRetention(ctx, tx, id, rec.Scenario, in.Source)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("save run: %w", err)
	}
	if deleted > 0 {
		if err := s.vacuum(ctx); err != nil {
			return id, err
		}
	}
	return id, nil
}

// blobSet gathers a run's distinct texts, so each is hashed and looked up
// once however many messages repeat it.
type blobSet struct {
	index map[string]int
	texts []string
	ids   []int64
}

func (b *blobSet) add(s string) int {
	if i, ok := b.index[s]; ok {
		return i
	}
	i := len(b.texts)
	b.index[s] = i
	b.texts = append(b.texts, s)
	return i
}

func (b *blobSet) id(s string) int64 { return b.ids[b.index[s]] }

// storedToolCall is engine.ToolCall with the result by blob. No field is
// omitempty: a nil and an empty map must come back as they went in.
type storedToolCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
	Result    int64          `json:"result"`
	Error     string         `json:"error"`
	// Set by executable hooks (migration 5); older rows read as zero.
	Status            engine.ToolStatus `json:"status,omitempty"`
	By                string            `json:"by,omitempty"`
	OriginalArguments map[string]any    `json:"original_arguments,omitempty"`
	// HasOriginal keeps an empty (non-nil) OriginalArguments apart from nil.
	HasOriginal bool `json:"has_original,omitempty"`
}

func storeToolCalls(tcs []engine.ToolCall, blobs *blobSet) ([]byte, error) {
	if tcs == nil {
		return []byte("null"), nil
	}
	out := make([]storedToolCall, len(tcs))
	for i, tc := range tcs {
		out[i] = storedToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments, Result: blobs.id(tc.Result), Error: tc.Error,
			Status: tc.Status, By: tc.By, OriginalArguments: tc.OriginalArguments, HasOriginal: tc.OriginalArguments != nil}
	}
	return json.Marshal(out)
}

func insertRun(ctx context.Context, tx *sql.Tx, in *RunInput, rec *engine.Record, met *metrics, scenarioHash string) (RunID, error) {
	// The run row goes first so every other row can reference its id.
	var rowID any // NULL: a new id
	if in.Replaces != 0 {
		rowID = int64(in.Replaces)
	}
	agent, by := "", ""
	if rec.Agent != nil {
		agent, by = rec.Agent.String(), rec.Agent.By
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO runs (id, scenario, scenario_file, scenario_hash, backend, source, status, error,
		started_ms, ended_ms, steps, llm_calls, tokens_in, tokens_out, max_prompt_tokens, wall_ms, agent, agent_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rowID, rec.Scenario, in.ScenarioFile, scenarioHash, in.Backend, string(in.Source), string(rec.Status), rec.Error,
		in.Started.UnixMilli(), in.Ended.UnixMilli(), len(rec.Steps), len(rec.Calls),
		met.tokensIn, met.tokensOut, met.maxPrompt, in.Ended.Sub(in.Started).Milliseconds(), agent, by)
	if err != nil {
		return 0, fmt.Errorf("insert run: %w", err)
	}
	rid, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}

	blobs := &blobSet{index: make(map[string]int, 64)}
	for i := range rec.Messages {
		blobs.add(rec.Messages[i].Content)
	}
	for i := range rec.Hooks {
		blobs.add(rec.Hooks[i].Content)
	}
	for i := range rec.Calls {
		blobs.add(rec.Calls[i].Content)
		for _, tc := range rec.Calls[i].ToolCalls {
			blobs.add(tc.Result)
		}
	}
	for _, tc := range rec.ToolCalls {
		blobs.add(tc.Result)
	}
	if err := insertBlobs(ctx, tx, blobs); err != nil {
		return 0, err
	}
	err = batchInsert(ctx, tx, "run_blobs", []string{"run_id", "blob_id"}, len(blobs.ids), func(i int, a []any) []any {
		return append(a, rid, blobs.ids[i])
	})
	if err != nil {
		return 0, err
	}

	hookCols := []string{"run_id", "idx", "hook_id", "skill", "name", "file", "timing", "role", "persistent", "tool_filter",
		"content_id", "line", "injected", "removed", "calls_seen", "copies_seen", "tokens_total", "tokens_per_call",
		"executions", "successes", "failures", "skipped", "duration_ms"}
	perCall := make([][]byte, len(met.hooks))
	filters := make([]any, len(met.hooks))
	for i := range met.hooks {
		if perCall[i], err = json.Marshal(met.hooks[i].TokensPerCall); err != nil {
			return 0, err
		}
		if i >= len(rec.Hooks) {
			continue
		}
		if f := rec.Hooks[i].ToolFilter; f != nil {
			b, err := json.Marshal(f)
			if err != nil {
				return 0, err
			}
			filters[i] = string(b)
		}
	}
	err = batchInsert(ctx, tx, "run_hooks", hookCols, len(met.hooks), func(i int, a []any) []any {
		m := &met.hooks[i]
		h := &skills.Hook{Skill: m.Skill, Name: m.Name, Timing: skills.Timing(m.Timing)} // an executable hook's row
		if i < len(rec.Hooks) {
			h = &rec.Hooks[i]
		}
		return append(a, rid, i, h.ID(), h.Skill, h.Name, h.File, string(h.Timing), string(h.Role), h.Persistent, filters[i],
			blobs.id(h.Content), h.Line, m.Injected, m.Removed, m.CallsSeen, m.CopiesSeen, m.TokensTotal, perCall[i],
			m.Executions, m.Successes, m.Failures, m.Skipped, m.TotalDurationMS)
	})
	if err != nil {
		return 0, err
	}

	msgCols := []string{"run_id", "id", "content_id", "role", "origin", "history_of", "ref", "n", "request", "created", "removed", "tokens"}
	err = batchInsert(ctx, tx, "run_messages", msgCols, len(rec.Messages), func(i int, a []any) []any {
		m := &rec.Messages[i]
		return append(a, rid, i, blobs.id(m.Content), string(m.Role), string(m.Origin), string(m.HistoryOf),
			m.Ref, m.N, m.Request, m.Created, m.Removed, met.msgTokens[i])
	})
	if err != nil {
		return 0, err
	}

	callTools := make([][]byte, len(rec.Calls))
	for i := range rec.Calls {
		if callTools[i], err = storeToolCalls(rec.Calls[i].ToolCalls, blobs); err != nil {
			return 0, err
		}
	}
	callCols := []string{"run_id", "idx", "request", "phase", "round", "step", "content_id", "need_tool", "error",
		"tool_calls", "tokens_in", "tokens_out", "messages"}
	err = batchInsert(ctx, tx, "run_calls", callCols, len(rec.Calls), func(i int, a []any) []any {
		c, m := &rec.Calls[i], &met.calls[i]
		var round, needTool any
		if c.Round != nil {
			round = *c.Round
		}
		if c.NeedTool != nil {
			needTool = *c.NeedTool
		}
		return append(a, rid, i, c.Request, string(c.Phase), round, c.Step, blobs.id(c.Content), needTool, c.Error,
			callTools[i], m.TokensIn, m.TokensOut, m.Messages)
	})
	if err != nil {
		return 0, err
	}

	requests, err := json.Marshal(rec.Requests)
	if err != nil {
		return 0, err
	}
	tools, err := storeToolCalls(rec.ToolCalls, blobs)
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO run_traces (run_id, requests, tool_calls, steps, removed_ids) VALUES (?, ?, ?, ?, ?)`,
		rid, requests, tools, encodeSteps(rec.Steps), encodeIDs(rec.RemovedIDs)); err != nil {
		return 0, fmt.Errorf("insert trace: %w", err)
	}

	if err := insertExec(ctx, tx, rid, rec); err != nil {
		return 0, err
	}
	if err := insertSession(ctx, tx, rid, in.Session); err != nil {
		return 0, err
	}

	sk := runSkills(in.ScenarioFile, rec.Hooks)
	err = batchInsert(ctx, tx, "run_skills", []string{"skill", "run_id"}, len(sk), func(i int, a []any) []any {
		return append(a, sk[i], rid)
	})
	if err != nil {
		return 0, err
	}
	return RunID(rid), nil
}

// runSkills are the skills a run is listed under: the one whose
// scenarios/ folder holds the scenario, and every skill whose hooks ran.
func runSkills(scenarioFile string, hooks []skills.Hook) []string {
	var out []string
	if parts := strings.Split(path.Clean(scenarioFile), "/"); len(parts) >= 3 && parts[len(parts)-2] == "scenarios" {
		out = append(out, parts[len(parts)-3])
	}
	for i := range hooks {
		out = append(out, hooks[i].Skill)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// insertBlobs finds or inserts every text of the set and fills its ids.
func insertBlobs(ctx context.Context, tx *sql.Tx, b *blobSet) error {
	find, err := tx.PrepareContext(ctx, `SELECT id FROM blobs WHERE hash = ?`)
	if err != nil {
		return fmt.Errorf("prepare blob lookup: %w", err)
	}
	defer find.Close()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO blobs (hash, size, data) VALUES (?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare blob insert: %w", err)
	}
	defer ins.Close()
	b.ids = make([]int64, len(b.texts))
	for i, t := range b.texts {
		h := sha256.Sum256([]byte(t))
		err := find.QueryRowContext(ctx, h[:]).Scan(&b.ids[i])
		if err == nil {
			continue
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("look up blob: %w", err)
		}
		res, err := ins.ExecContext(ctx, h[:], len(t), t)
		if err != nil {
			return fmt.Errorf("insert blob: %w", err)
		}
		if b.ids[i], err = res.LastInsertId(); err != nil {
			return err
		}
	}
	return nil
}

// batchRows bounds a multi-row INSERT: 64 rows × 23 columns stays far
// below SQLite's 32,766 bound parameters.
const batchRows = 64

// batchInsert inserts n rows, many per statement: one statement per row
// costs a cgo round trip each, which dominates saving a 10,000-step run.
func batchInsert(ctx context.Context, tx *sql.Tx, table string, cols []string, n int, row func(i int, args []any) []any) error {
	return sqlbatch.Insert(ctx, tx, table, cols, n, batchRows, row)
}
