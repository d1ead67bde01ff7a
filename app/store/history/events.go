package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"hookstudio/app/agent/events"
)

// SaveEvents stores a run's events, leaving out the ephemeral kinds (the
// seed's persistence rule), in one transaction. Saving them again replaces
// them.
func (s *Store) SaveEvents(ctx context.Context, run RunID, evs []events.Event) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM run_events WHERE run_id = ?`, run); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO run_events (run_id, seq, type, agent_id, message, ts_ms, step, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, e := range evs {
			if events.Ephemeral(e.Type) {
				continue
			}
			payload := []byte("{}")
			if e.Payload != nil {
				if payload, err = json.Marshal(e.Payload); err != nil {
					return fmt.Errorf("event %d payload: %w", e.Seq, err)
				}
			}
			if _, err := stmt.ExecContext(ctx, run, e.Seq, string(e.Type), e.AgentID, e.Message, e.Timestamp.UnixMilli(), e.Step, string(payload)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save events of run %d: %w", run, err)
	}
	return nil
}

// Events returns a run's stored events in sequence order (none for runs
// stored before events were kept).
func (s *Store) Events(ctx context.Context, run RunID) ([]events.Event, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, type, agent_id, message, ts_ms, step, payload FROM run_events WHERE run_id = ? ORDER BY seq`, run)
	if err != nil {
		return nil, fmt.Errorf("load events of run %d: %w", run, err)
	}
	defer rows.Close()
	out := []events.Event{}
	for rows.Next() {
		var e events.Event
		var ts int64
		var typ, payload string
		if err := rows.Scan(&e.Seq, &typ, &e.AgentID, &e.Message, &ts, &e.Step, &payload); err != nil {
			return nil, fmt.Errorf("load events of run %d: %w", run, err)
		}
		e.Type = events.Type(typ)
		e.Timestamp = time.UnixMilli(ts).UTC()
		if err := json.Unmarshal([]byte(payload), &e.Payload); err != nil {
			return nil, fmt.Errorf("load events of run %d: event %d payload: %w", run, e.Seq, err)
		}
		if len(e.Payload) == 0 {
			e.Payload = nil
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load events of run %d: %w", run, err)
	}
	return out, nil
}
