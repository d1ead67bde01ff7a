package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/store/history"
)

// RecoverStore is the history a capture's run is rebuilt from.
type RecoverStore interface {
	KeepStore
	UnfoldedCaptures(ctx context.Context) ([]history.CaptureState, error)
	CaptureCalls(ctx context.Context, id string) ([]history.CaptureCall, error)
}

// Recover rebuilds the run of every capture whose journal holds calls its
// run does not — a capture whose process was killed before the run was
// built again after its last calls — so the History shows every call it
// answered. It returns how many runs it rebuilt. A capture still running
// in another process is rebuilt too, harmlessly: its next build stands in
// for this one.
func Recover(ctx context.Context, store RecoverStore, tokens Counter) (int, error) {
	states, err := store.UnfoldedCaptures(ctx)
	if err != nil {
		return 0, err
	}
	done := 0
	var errs []string
	for _, st := range states {
		rows, err := store.CaptureCalls(ctx, st.ID)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		calls := restoreCalls(rows, tokens)
		if len(calls) == 0 {
			continue
		}
		last := calls[len(calls)-1]
		ended := last.Started.Add(time.Duration(last.DurationMS * float64(time.Millisecond)))
		if _, err := saveCapture(ctx, store, tokens, st.ID, calls, st.Started, ended); err != nil {
			errs = append(errs, fmt.Sprintf("capture %s: %v", st.ID, err))
			continue
		}
		done++
	}
	if len(errs) > 0 {
		return done, fmt.Errorf("rebuild the runs of captures that ended without it: %s", strings.Join(errs, "; "))
	}
	return done, nil
}

// CallStore reads a capture's calls back from the history.
type CallStore interface {
	CaptureOfRun(ctx context.Context, run history.RunID) (string, error)
	CaptureCalls(ctx context.Context, id string) ([]history.CaptureCall, error)
}

// RecordStore reads a capture's call records (history.Store).
type RecordStore interface {
	CaptureOfRun(ctx context.Context, run history.RunID) (string, error)
	CaptureRecords(ctx context.Context, id string) ([][]byte, error)
}

// AgentOfRun is the agent that sent a capture run's calls, as
// "name@version" ("name" when it did not say its version; "" when no call
// tells, or run is not a capture): told from each call's headers as they
// were recorded, without reading the bodies.
func AgentOfRun(ctx context.Context, store RecordStore, run int64) (string, error) {
	id, err := store.CaptureOfRun(ctx, history.RunID(run))
	if err != nil || id == "" {
		return "", err
	}
	records, err := store.CaptureRecords(ctx, id)
	if err != nil {
		return "", err
	}
	for _, rec := range records {
		var c Call
		if json.Unmarshal(rec, &c) != nil {
			continue
		}
		a := identifyCall(c.Headers, "")
		if c.Agent != nil {
			a = *c.Agent
		}
		switch {
		case a.Name != "" && a.Version != "":
			return a.Name + "@" + a.Version, nil
		case a.Name != "":
			return a.Name, nil
		}
	}
	return "", nil
}

// CallsOfRun are the calls of a capture run as they were recorded — the
// bodies, headers, tools offered, answers — read from its journal (nil: the
// run has none, a capture kept before the journal: read its trace with
// CallsFromTrace).
func CallsOfRun(ctx context.Context, store CallStore, run int64, tokens TokenCounter) ([]Call, error) {
	id, err := store.CaptureOfRun(ctx, history.RunID(run))
	if err != nil || id == "" {
		return nil, err
	}
	rows, err := store.CaptureCalls(ctx, id)
	if err != nil {
		return nil, err
	}
	return restoreCalls(rows, tokens), nil
}

// restoreCalls reads a capture's journal back into calls, as the capture
// recorded them (a row that does not read is left out).
func restoreCalls(rows []history.CaptureCall, tokens TokenCounter) []Call {
	calls := make([]Call, 0, len(rows))
	agents := NewAgentReader(profile.NewCatalog(""))
	for _, row := range rows {
		var c Call
		if json.Unmarshal(row.Call, &c) != nil {
			continue
		}
		path, _, _ := strings.Cut(c.Path, "?")
		gp, _ := parseGeminiPath(path)
		var parsed *parsedRequest
		switch {
		case c.Upstream != nil && row.Answer != nil:
			readRelayed(&c, relayed{status: c.Status, body: row.Answer}, tokens, func(s string) string { return s })
		case c.Answer == nil && (c.Status == http.StatusBadRequest || c.Status == http.StatusRequestEntityTooLarge):
			parsed = &parsedRequest{refused: true}
		}
		completeCall(&c, row.Body, gp, parsed, tokens, false, agents)
		calls = append(calls, c)
	}
	return calls
}
