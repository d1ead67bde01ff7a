package studio

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hookstudio/app/agent/expect"
)

// ErrNoSuchMessage is returned when "add expectation" names a call or a
// message the current simulation does not have.
var ErrNoSuchMessage = errors.New("no such message in the current simulation")

// ExpectationFor is the expectation "add expectation from this message"
// writes for message id as call receives it: for a hook's message, that
// the call sees the hook with the copies it sees now; for any other, that
// the call sees a message with its role, origin and first line.
func ExpectationFor(v *TraceView, call, id int) (expect.Target, map[string]any, error) {
	if call < 0 || call >= len(v.Calls) || call >= len(v.callIDs) || id < 0 || id >= len(v.Messages) {
		return expect.Target{}, nil, fmt.Errorf("%w: call %d, message %d", ErrNoSuchMessage, call+1, id)
	}
	lc := v.Calls[call]
	target := expect.Target{Request: lc.Request, Phase: string(lc.Phase), Round: lc.Round}
	in := false
	copies := 0
	m := v.Messages[id]
	for _, mid := range v.callIDs[call] {
		in = in || mid == id
		if o := v.Messages[mid]; m.Hook != "" && o.Hook == m.Hook && o.Skill == m.Skill {
			copies++
		}
	}
	if !in {
		return expect.Target{}, nil, fmt.Errorf("%w: LLM call #%d does not receive message %d", ErrNoSuchMessage, call+1, id)
	}
	if m.Hook != "" {
		ref := map[string]any{"hook": m.Hook, "copies": copies}
		if m.Skill != "" {
			ref["skill"] = m.Skill
		}
		return target, map[string]any{"sees": ref}, nil
	}
	line, _, _ := strings.Cut(strings.TrimSpace(m.Content), "\n")
	if r := []rune(line); len(r) > 60 {
		line = string(r[:60])
	}
	want := map[string]any{"role": m.Role, "origin": string(m.Origin)}
	if line != "" {
		want["contains"] = line
	} else {
		want["equals"] = m.Content
	}
	return target, map[string]any{"sees_message": want}, nil
}

// AddExpectation writes the expectation ExpectationFor makes into the
// selected scenario's file, saved like an editor save (atomic, refused
// when the disk changed under the simulation): the folder reloads and the
// new expectation shows with its result.
func (s *Service) AddExpectation(ctx context.Context, call, message int) (SaveResult, error) {
	s.mu.Lock()
	v := s.view
	s.mu.Unlock()
	if v.File == "" || v.Status == "invalid" || v.Status == "none" {
		return SaveResult{}, fmt.Errorf("%w: no simulated scenario", ErrNoSuchMessage)
	}
	target, entry, err := ExpectationFor(&v, call, message)
	if err != nil {
		return SaveResult{}, err
	}
	snap, err := s.OpenFile(v.File)
	if err != nil {
		return SaveResult{}, err
	}
	text, err := expect.Add([]byte(snap.Content), target, entry)
	if err != nil {
		return SaveResult{}, fmt.Errorf("add expectation to %s: %w", v.File, err)
	}
	return s.SaveFile(ctx, v.File, string(text), snap.Hash)
}
