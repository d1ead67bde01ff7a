package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// SessionInfo is what an imported agent session (a run of source
// session, app/capture/sessions) says of itself beyond its trace.
type SessionInfo struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	File    string `json:"file"`
	ID      string `json:"id"`
	// Data is the importer's account of the transcript, as JSON: each call
	// exact or rebuilt with its parameters, what is missing and where, the
	// record types it does not show.
	Data json.RawMessage `json:"data"`
}

func insertSession(ctx context.Context, tx *sql.Tx, rid int64, si *SessionInfo) error {
	if si == nil {
		return nil
	}
	data := si.Data
	if len(data) == 0 {
		data = json.RawMessage("null")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO run_sessions (run_id, agent, version, file, session_id, data) VALUES (?, ?, ?, ?, ?, ?)`,
		rid, si.Agent, si.Version, si.File, si.ID, string(data)); err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

func loadSession(ctx context.Context, q querier, id RunID) (*SessionInfo, error) {
	var si SessionInfo
	var data string
	err := q.QueryRowContext(ctx, `SELECT agent, version, file, session_id, data FROM run_sessions WHERE run_id = ?`, int64(id)).
		Scan(&si.Agent, &si.Version, &si.File, &si.ID, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	si.Data = json.RawMessage(data)
	return &si, nil
}

// SessionRun is the run an earlier import of the transcript at file made
// (0: none), so importing it again stands in for that run.
func (s *Store) SessionRun(ctx context.Context, file string) (RunID, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT run_id FROM run_sessions WHERE file = ? ORDER BY run_id DESC LIMIT 1`, file).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return RunID(id), err
}

// SessionFiles are the transcripts kept as runs, each with its newest run.
func (s *Store) SessionFiles(ctx context.Context) (map[string]RunID, error) {
	out := map[string]RunID{}
	err := eachRow(ctx, s.db, `SELECT file, max(run_id) FROM run_sessions GROUP BY file`, nil, func(sc scanner) error {
		var file string
		var id int64
		if err := sc.Scan(&file, &id); err != nil {
			return err
		}
		out[file] = RunID(id)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("session files: %w", err)
	}
	return out, nil
}
