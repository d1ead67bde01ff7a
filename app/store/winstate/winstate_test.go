package winstate

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestPlace(t *testing.T) {
	tests := []struct {
		name   string
		state  State
		saved  bool
		screen Size
		want   Placement
	}{
		{"first start, 1280x800: fits with margins", State{}, false, Size{1280, 800}, Placement{Width: 1248, Height: 728, Center: true}},
		{"first start, 1920x1080: the default size", State{}, false, Size{1920, 1080}, Placement{Width: 1440, Height: 900, Center: true}},
		{"first start, 1366x768", State{}, false, Size{1366, 768}, Placement{Width: 1334, Height: 696, Center: true}},
		{"remembered size and position that fit", State{Width: 1100, Height: 700, X: 50, Y: 40}, true, Size{1920, 1080}, Placement{Width: 1100, Height: 700, X: 50, Y: 40}},
		{"remembered on a bigger screen, now on 1280x800", State{Width: 1800, Height: 1000, X: 100, Y: 50}, true, Size{1280, 800}, Placement{Width: 1248, Height: 728, Center: true}},
		{"remembered position now off the screen", State{Width: 1000, Height: 700, X: 2500, Y: 40}, true, Size{1920, 1080}, Placement{Width: 1000, Height: 700, Center: true}},
		{"negative position", State{Width: 1000, Height: 700, X: -20, Y: 10}, true, Size{1920, 1080}, Placement{Width: 1000, Height: 700, Center: true}},
		{"remembered below the minimum", State{Width: 500, Height: 300, X: 0, Y: 0}, true, Size{1920, 1080}, Placement{Width: 960, Height: 600, X: 0, Y: 0}},
		{"a screen smaller than the minimum", State{}, false, Size{800, 600}, Placement{Width: 768, Height: 528, Center: true}},
		{"maximised", State{Width: 1200, Height: 800, X: 10, Y: 10, Maximised: true}, true, Size{1920, 1080}, Placement{Width: 1200, Height: 800, X: 10, Y: 10, Maximise: true}},
		{"unknown screen keeps the wanted size", State{}, false, Size{}, Placement{Width: 1440, Height: 900, Center: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Place(tt.state, tt.saved, tt.screen); got != tt.want {
				t.Errorf("Place = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// Whatever was remembered, the window fits every screen it opens on.
func TestPlaceAlwaysFits(t *testing.T) {
	states := []State{{}, {Width: 4000, Height: 3000, X: 900, Y: 900}, {Width: 100, Height: 100, X: -5, Y: -5}, {Width: 1440, Height: 900, X: 200, Y: 100}}
	for sw := 640; sw <= 3840; sw += 160 {
		for sh := 480; sh <= 2160; sh += 120 {
			screen := Size{sw, sh}
			for i, s := range states {
				p := Place(s, i > 0, screen)
				x, y := p.X, p.Y
				if p.Center {
					x, y = (sw-p.Width)/2, (sh-p.Height)/2
				}
				if p.Width > sw || p.Height > sh || x < 0 || y < 0 || x+p.Width > sw || y+p.Height > sh {
					t.Fatalf("state %+v on %dx%d: %+v does not fit", s, sw, sh, p)
				}
				if sw >= Min.Width+MarginWidth && sh >= Min.Height+MarginHeight && (p.Width < Min.Width || p.Height < Min.Height) {
					t.Fatalf("state %+v on %dx%d: %+v below the minimum", s, sw, sh, p)
				}
			}
		}
	}
}

func TestInitial(t *testing.T) {
	tests := []struct {
		name  string
		state State
		saved bool
		want  Size
	}{
		{"first start: fits the smallest screen", State{}, false, Size{1248, 728}},
		{"as last placed on the same big screen", State{Width: 1440, Height: 900, Screen: Size{1920, 1080}}, true, Size{1440, 900}},
		{"saved without a screen: fits the smallest", State{Width: 1440, Height: 900}, true, Size{1248, 728}},
	}
	for _, tt := range tests {
		if got := Initial(tt.state, tt.saved); got != tt.want {
			t.Errorf("%s: Initial = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// fakeWindow is a native window on one screen.
type fakeWindow struct {
	screen    Size
	screenErr error
	w, h      int
	x, y      int
	maximised bool
	centred   bool
}

func (f *fakeWindow) Screen() (Size, error) { return f.screen, f.screenErr }
func (f *fakeWindow) Size() (int, int)      { return f.w, f.h }
func (f *fakeWindow) Position() (int, int)  { return f.x, f.y }
func (f *fakeWindow) IsMaximised() bool     { return f.maximised }
func (f *fakeWindow) SetSize(w, h int)      { f.w, f.h = w, h }
func (f *fakeWindow) SetPosition(x, y int)  { f.x, f.y, f.centred = x, y, false }
func (f *fakeWindow) Center() {
	f.x, f.y, f.centred = (f.screen.Width-f.w)/2, (f.screen.Height-f.h)/2, true
}
func (f *fakeWindow) Maximise() { f.maximised = true }

func TestRememberRestore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", FileName)

	// First start on 1280x800: fitted and centred.
	win := &fakeWindow{screen: Size{1280, 800}, w: 1248, h: 728}
	if _, err := Restore(win, path); err != nil {
		t.Fatal(err)
	}
	if win.w != 1248 || win.h != 728 || !win.centred {
		t.Fatalf("first start: %+v", win)
	}

	// The user moves and resizes it, then closes: reopened the same.
	win.SetSize(1100, 680)
	win.SetPosition(30, 20)
	if err := Remember(win, path); err != nil {
		t.Fatal(err)
	}
	again := &fakeWindow{screen: Size{1280, 800}}
	if _, err := Restore(again, path); err != nil {
		t.Fatal(err)
	}
	if again.w != 1100 || again.h != 680 || again.x != 30 || again.y != 20 || again.centred {
		t.Errorf("reopened at %+v, want 1100x680 at 30,20", again)
	}
	if got := Initial(mustLoad(t, path)); got != (Size{1100, 680}) {
		t.Errorf("initial size = %+v, want the remembered one", got)
	}

	// Maximised, then closed: the normal size is kept to return to.
	again.Maximise()
	if err := Remember(again, path); err != nil {
		t.Fatal(err)
	}
	third := &fakeWindow{screen: Size{1280, 800}}
	if _, err := Restore(third, path); err != nil {
		t.Fatal(err)
	}
	if !third.maximised || third.w != 1100 || third.h != 680 {
		t.Errorf("reopened at %+v, want maximised over 1100x680", third)
	}

	// The screen is unknown: the remembered size, centred, and the error said.
	blind := &fakeWindow{screenErr: errors.New("no screen")}
	if _, err := Restore(blind, path); err == nil || blind.w != 1100 {
		t.Errorf("unknown screen: err %v, window %+v", err, blind)
	}
}

func mustLoad(t *testing.T, path string) (State, bool) {
	t.Helper()
	s, ok, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, ok
}

func TestLoadDamaged(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		ok, err       bool
	}{
		{"missing", "", false, false},
		{"damaged", "{not json", false, true},
		{"no size", `{"width":0,"height":0}`, false, true},
		{"good", `{"width":1000,"height":700,"x":1,"y":2}`, true, false},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name+".json")
		if tt.content != "" {
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, ok, err := Load(path)
		if ok != tt.ok || (err != nil) != tt.err {
			t.Errorf("%s: ok %v err %v; want ok %v, error %v", tt.name, ok, err, tt.ok, tt.err)
		}
	}
	// A damaged file opens the window at the default size, fitted.
	win := &fakeWindow{screen: Size{1280, 800}}
	if _, err := Restore(win, filepath.Join(dir, "damaged.json")); err == nil || win.w != 1248 || win.h != 728 {
		t.Errorf("damaged state: err %v, window %+v", err, win)
	}
}
