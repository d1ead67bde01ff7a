package history

import (
	"encoding/binary"
	"errors"
	"fmt"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/skills"
)

// Steps are stored as one varint-encoded blob per run rather than rows:
// nothing queries single steps (the metrics are computed at save time),
// and 10,000 steps become ~60 KB written in one statement instead of
// 10,000 inserts. The format starts with a version byte, then a string
// table (kinds, phases and timings, so a new kind needs no format change),
// then per step: kind, phase, timing as table indexes and request, round,
// ref, and the add/remove ranges as deltas, all as varints.
const stepsFormat = 1

func encodeSteps(steps []engine.StepRecord) []byte {
	strs := map[string]uint64{}
	var table []string
	idx := func(s string) uint64 {
		i, ok := strs[s]
		if !ok {
			i = uint64(len(table))
			strs[s] = i
			table = append(table, s)
		}
		return i
	}
	body := make([]byte, 0, len(steps)*10)
	var prevAdd, prevRem int64
	for i := range steps {
		s := &steps[i]
		body = binary.AppendUvarint(body, idx(string(s.Kind)))
		body = binary.AppendUvarint(body, idx(string(s.Phase)))
		body = binary.AppendUvarint(body, idx(string(s.Timing)))
		body = binary.AppendVarint(body, int64(s.Request))
		body = binary.AppendVarint(body, int64(s.Round))
		body = binary.AppendVarint(body, int64(s.Ref))
		body = binary.AppendVarint(body, int64(s.AddFrom)-prevAdd)
		body = binary.AppendVarint(body, int64(s.AddTo)-int64(s.AddFrom))
		body = binary.AppendVarint(body, int64(s.RemFrom)-prevRem)
		body = binary.AppendVarint(body, int64(s.RemTo)-int64(s.RemFrom))
		prevAdd, prevRem = int64(s.AddTo), int64(s.RemTo)
	}
	out := make([]byte, 0, len(body)+64)
	out = append(out, stepsFormat)
	out = binary.AppendUvarint(out, uint64(len(table)))
	for _, s := range table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(len(steps)))
	return append(out, body...)
}

var errShortSteps = errors.New("steps blob is truncated")

// reader decodes varints, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShortSteps
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errShortSteps
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) int32() int32 {
	v := r.varint()
	if v < -1<<31 || v >= 1<<31 {
		r.err = fmt.Errorf("steps blob: value %d out of range", v)
	}
	return int32(v)
}

func decodeSteps(b []byte) ([]engine.StepRecord, error) {
	if len(b) == 0 || b[0] != stepsFormat {
		return nil, fmt.Errorf("steps blob: unknown format")
	}
	r := &reader{b: b[1:]}
	nt := r.uvarint()
	if nt > uint64(len(r.b)) {
		return nil, errShortSteps
	}
	table := make([]string, 0, nt)
	for range nt {
		l := r.uvarint()
		if r.err != nil || l > uint64(len(r.b)) {
			return nil, errShortSteps
		}
		table = append(table, string(r.b[:l]))
		r.b = r.b[l:]
	}
	str := func() string {
		i := r.uvarint()
		if i >= uint64(len(table)) {
			if r.err == nil {
				r.err = fmt.Errorf("steps blob: string %d out of range", i)
			}
			return ""
		}
		return table[i]
	}
	n := r.uvarint()
	if n > uint64(len(r.b)) { // every step takes at least one byte
		return nil, errShortSteps
	}
	out := make([]engine.StepRecord, n)
	var prevAdd, prevRem int32
	for i := range out {
		s := &out[i]
		s.Kind = engine.StepKind(str())
		s.Phase = engine.Phase(str())
		s.Timing = skills.Timing(str())
		s.Request = r.int32()
		s.Round = r.int32()
		s.Ref = r.int32()
		s.AddFrom = prevAdd + r.int32()
		s.AddTo = s.AddFrom + r.int32()
		s.RemFrom = prevRem + r.int32()
		s.RemTo = s.RemFrom + r.int32()
		prevAdd, prevRem = s.AddTo, s.RemTo
		if r.err != nil {
			return nil, fmt.Errorf("step %d: %w", i, r.err)
		}
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("steps blob: %d bytes left over", len(r.b))
	}
	return out, nil
}

// encodeIDs stores removed ids as varint deltas (they mostly ascend).
// A nil and an empty list differ in the trace record, so the first byte
// says which.
func encodeIDs(ids []int32) []byte {
	if ids == nil {
		return []byte{0}
	}
	out := make([]byte, 1, 1+len(ids)*2)
	out[0] = 1
	out = binary.AppendUvarint(out, uint64(len(ids)))
	var prev int64
	for _, id := range ids {
		out = binary.AppendVarint(out, int64(id)-prev)
		prev = int64(id)
	}
	return out
}

func decodeIDs(b []byte) ([]int32, error) {
	if len(b) == 0 {
		return nil, errors.New("removed ids blob is empty")
	}
	if b[0] == 0 {
		return nil, nil
	}
	r := &reader{b: b[1:]}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return nil, errors.New("removed ids blob is truncated")
	}
	out := make([]int32, n)
	var prev int32
	for i := range out {
		prev += r.int32()
		out[i] = prev
	}
	if r.err != nil {
		return nil, fmt.Errorf("removed ids: %w", r.err)
	}
	return out, nil
}
