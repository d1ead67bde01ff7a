package search

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
)

// The texts are kept compressed (flate at its fastest: indexing a large
// session is mostly reading it, and tool outputs shrink three to five
// times); a short one is kept as it is. The first byte says which.
const (
	packedRaw   = 0
	packedFlate = 1
	// packMin is the length below which compressing buys nothing.
	packMin = 96
)

// packer compresses texts, reusing its buffers.
type packer struct {
	buf bytes.Buffer
	w   *flate.Writer
}

func (p *packer) pack(s string) ([]byte, error) {
	if len(s) < packMin {
		return append([]byte{packedRaw}, s...), nil
	}
	p.buf.Reset()
	p.buf.WriteByte(packedFlate)
	if p.w == nil {
		w, err := flate.NewWriter(&p.buf, flate.BestSpeed)
		if err != nil {
			return nil, err
		}
		p.w = w
	} else {
		p.w.Reset(&p.buf)
	}
	if _, err := io.WriteString(p.w, s); err != nil {
		return nil, err
	}
	if err := p.w.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(p.buf.Bytes()), nil
}

// unpack is the text pack made.
func unpack(b []byte) (string, error) {
	if len(b) == 0 {
		return "", nil
	}
	switch b[0] {
	case packedRaw:
		return string(b[1:]), nil
	case packedFlate:
		r := flate.NewReader(bytes.NewReader(b[1:]))
		defer r.Close()
		out, err := io.ReadAll(r)
		if err != nil {
			return "", fmt.Errorf("unpack a text: %w", err)
		}
		return string(out), nil
	}
	return "", fmt.Errorf("unpack a text: unknown packing %d", b[0])
}
