// Package layout remembers how the user arranged the main window's panes:
// the widths of the side panes, the heights of the flowchart and the
// bottom panel, which of them are collapsed, and which trust banner was
// read. It is kept per user in the data folder, beside window.json.
package layout

import (
	"errors"
	"fmt"
	"hookstudio/app/store/atomicfile"
	"math"
	"path/filepath"
)

// Layout is the remembered arrangement. A zero field means "the default":
// the frontend sizes that pane for the window it opens in.
type Layout struct {
	// Widths in logical pixels.
	SkillsWidth   int `json:"skills_width,omitempty"`
	EditorWidth   int `json:"editor_width,omitempty"`
	MessagesWidth int `json:"messages_width,omitempty"`
	// Heights as fractions of the main area's height, so that a layout
	// made on a big screen still leaves the step list room on a laptop.
	FlowHeight   float64 `json:"flow_height,omitempty"`
	BottomHeight float64 `json:"bottom_height,omitempty"`

	FlowCollapsed   bool `json:"flow_collapsed,omitempty"`
	BottomCollapsed bool `json:"bottom_collapsed,omitempty"`
	// TrustRead is the key of the executable-hook commands whose trust
	// banner the user has read: it opens collapsed for them, and in full
	// again when they change.
	TrustRead string `json:"trust_read,omitempty"`
	// AgentContext shows an agent's own messages (its system prompt and
	// context) in full in the message list, instead of a line each.
	AgentContext bool `json:"agent_context,omitempty"`
}

// Bounds of the remembered values.
const (
	MaxWidth        = 8000
	MaxHeight       = 0.9
	MaxTrustReadLen = 256
)

// ErrInvalid is wrapped by Validate's errors.
var ErrInvalid = errors.New("invalid layout")

// FileName is the layout file in the data folder.
const FileName = "layout.json"

// DefaultPath is the layout file of a data folder.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, FileName) }

// Validate reports every field out of its bounds at once.
func (l Layout) Validate() error {
	var errs []error
	width := func(name string, v int) {
		if v < 0 || v > MaxWidth {
			errs = append(errs, fmt.Errorf("%w: %s %d is not within 0..%d", ErrInvalid, name, v, MaxWidth))
		}
	}
	height := func(name string, v float64) {
		if math.IsNaN(v) || v < 0 || v > MaxHeight {
			errs = append(errs, fmt.Errorf("%w: %s %v is not a fraction within 0..%v", ErrInvalid, name, v, MaxHeight))
		}
	}
	width("skills_width", l.SkillsWidth)
	width("editor_width", l.EditorWidth)
	width("messages_width", l.MessagesWidth)
	height("flow_height", l.FlowHeight)
	height("bottom_height", l.BottomHeight)
	if len(l.TrustRead) > MaxTrustReadLen {
		errs = append(errs, fmt.Errorf("%w: trust_read is longer than %d bytes", ErrInvalid, MaxTrustReadLen))
	}
	return errors.Join(errs...)
}

// clean drops the fields out of bounds (they return to their defaults)
// and keeps the rest: a hand-edited file loses only what is wrong in it.
func (l Layout) clean() Layout {
	if l.SkillsWidth < 0 || l.SkillsWidth > MaxWidth {
		l.SkillsWidth = 0
	}
	if l.EditorWidth < 0 || l.EditorWidth > MaxWidth {
		l.EditorWidth = 0
	}
	if l.MessagesWidth < 0 || l.MessagesWidth > MaxWidth {
		l.MessagesWidth = 0
	}
	if math.IsNaN(l.FlowHeight) || l.FlowHeight < 0 || l.FlowHeight > MaxHeight {
		l.FlowHeight = 0
	}
	if math.IsNaN(l.BottomHeight) || l.BottomHeight < 0 || l.BottomHeight > MaxHeight {
		l.BottomHeight = 0
	}
	if len(l.TrustRead) > MaxTrustReadLen {
		l.TrustRead = ""
	}
	return l
}

// Load reads the layout; a missing file is the default layout. A damaged
// file is an error and the default layout; fields out of bounds are an
// error and the rest of the layout.
func Load(path string) (Layout, error) {
	var l Layout
	_, err := atomicfile.ReadJSON(path, &l)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		return Layout{}, fmt.Errorf("layout %s is damaged and was ignored: %w", path, err)
	case err != nil:
		return Layout{}, fmt.Errorf("read layout: %w", err)
	}
	if err := l.Validate(); err != nil {
		return l.clean(), fmt.Errorf("layout %s: %w", path, err)
	}
	return l, nil
}

// Save validates the layout and writes it atomically.
func Save(path string, l Layout) error {
	if err := l.Validate(); err != nil {
		return err
	}
	if err := atomicfile.WriteJSON(path, l, 0o644); err != nil {
		return fmt.Errorf("save layout: %w", err)
	}
	return nil
}
