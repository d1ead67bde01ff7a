// Package winstate remembers the main window's size and position and fits
// them to the screen the window opens on. It knows no Wails: app/services/bind
// implements Window over the Wails runtime.
package winstate

import (
	"errors"
	"fmt"
	"hookstudio/app/store/atomicfile"
	"path/filepath"
)

// Size is a width and a height in logical pixels.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// State is what is remembered of the window when it closes.
type State struct {
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	X         int  `json:"x"`
	Y         int  `json:"y"`
	Maximised bool `json:"maximised,omitempty"`
	// Screen is the size of the screen it was on, to open at the right
	// size at once when the screen is the same.
	Screen Size `json:"screen"`
}

// The window's sizes.
var (
	// Default is the size on first start, when the screen has room.
	Default = Size{Width: 1440, Height: 900}
	// Min is the smallest size the UI is laid out for (options.App's
	// MinWidth/MinHeight).
	Min = Size{Width: 960, Height: 600}
	// Smallest is the smallest screen the first window must fit before the
	// real screen is known.
	Smallest = Size{Width: 1280, Height: 800}
)

// Room left free on the screen around a fitted window: panels, docks and
// the title bar.
const (
	MarginWidth  = 32
	MarginHeight = 72
)

// FileName is the state file in the data folder.
const FileName = "window.json"

// DefaultPath is the state file of a data folder.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, FileName) }

// Load reads the state; ok is false when there is none. A damaged file is
// an error and no state: the window then opens at the default size.
func Load(path string) (s State, ok bool, err error) {
	found, err := atomicfile.ReadJSON(path, &s)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		return State{}, false, fmt.Errorf("window state %s is damaged and was ignored: %w", path, err)
	case err != nil:
		return State{}, false, fmt.Errorf("read window state: %w", err)
	case !found:
		return State{}, false, nil
	}
	if s.Width <= 0 || s.Height <= 0 {
		return State{}, false, fmt.Errorf("window state %s has no size and was ignored", path)
	}
	return s, true, nil
}

// Save writes the state atomically.
func Save(path string, s State) error {
	if err := atomicfile.WriteJSON(path, s, 0o644); err != nil {
		return fmt.Errorf("save window state: %w", err)
	}
	return nil
}

// Placement is where and how big the window opens.
type Placement struct {
	Width, Height int
	X, Y          int
	Center        bool // X and Y are not used
	Maximise      bool
}

// Place fits the remembered (or the default) size to the screen, keeping
// the margins free, never below Min unless the screen itself is smaller,
// and keeps the remembered position when the whole window is on the screen
// there; otherwise the window is centred. A screen of zero size (unknown)
// keeps the wanted size.
func Place(s State, saved bool, screen Size) Placement {
	want := Default
	if saved {
		want = Size{s.Width, s.Height}
	}
	w, h := want.Width, want.Height
	if screen.Width > 0 && screen.Height > 0 {
		w = fit(w, screen.Width-MarginWidth, Min.Width)
		h = fit(h, screen.Height-MarginHeight, Min.Height)
		w, h = min(w, screen.Width), min(h, screen.Height)
	}
	p := Placement{Width: w, Height: h, Center: true, Maximise: saved && s.Maximised}
	onScreen := screen.Width > 0 && s.X >= 0 && s.Y >= 0 && s.X+w <= screen.Width && s.Y+h <= screen.Height
	if saved && onScreen {
		p.X, p.Y, p.Center = s.X, s.Y, false
	}
	return p
}

// fit is want within room, but not below least (when room allows it).
func fit(want, room, least int) int {
	room = max(room, 1)
	return max(min(want, room), min(least, room))
}

// Initial is the size to create the window at, before its screen is
// known: as it will be placed on the screen it was last on, else fitting
// the Smallest screen.
func Initial(s State, saved bool) Size {
	screen := Smallest
	if saved && s.Screen.Width > 0 && s.Screen.Height > 0 {
		screen = s.Screen
	}
	p := Place(s, saved, screen)
	return Size{p.Width, p.Height}
}

// Window is what Restore and Remember need of the native window.
type Window interface {
	Screen() (Size, error) // the screen the window is on
	Size() (int, int)
	Position() (int, int)
	IsMaximised() bool
	SetSize(w, h int)
	SetPosition(x, y int)
	Center()
	Maximise()
}

// Restore places the window on its screen from the state at path, and
// says what it did (for the log).
func Restore(win Window, path string) (Placement, error) {
	s, saved, loadErr := Load(path)
	screen, err := win.Screen()
	if err != nil {
		screen = Size{} // keep the wanted size; still centre it
	}
	p := Place(s, saved, screen)
	win.SetSize(p.Width, p.Height)
	if p.Center {
		win.Center()
	} else {
		win.SetPosition(p.X, p.Y)
	}
	if p.Maximise {
		win.Maximise()
	}
	return p, errors.Join(loadErr, err)
}

// Remember saves the window's size, position and screen to path. A
// maximised window keeps the size it had before, to return to.
func Remember(win Window, path string) error {
	s, _, _ := Load(path)
	if screen, err := win.Screen(); err == nil {
		s.Screen = screen
	}
	s.Maximised = win.IsMaximised()
	if !s.Maximised {
		s.Width, s.Height = win.Size()
		s.X, s.Y = win.Position()
	}
	if s.Width <= 0 || s.Height <= 0 {
		// Maximised from the start: un-maximising returns to the default.
		p := Place(State{}, false, s.Screen)
		s.Width, s.Height = p.Width, p.Height
	}
	return Save(path, s)
}
