package bind

import (
	"context"
	"errors"
	"log"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hookstudio/app/store/winstate"
)

// windowState is the Wails window as winstate.Window.
type windowState struct{ ctx context.Context }

// Screen is the screen the window is on (else the primary one), in
// logical pixels.
func (w windowState) Screen() (winstate.Size, error) {
	screens, err := runtime.ScreenGetAll(w.ctx)
	if err != nil {
		return winstate.Size{}, err
	}
	if len(screens) == 0 {
		return winstate.Size{}, errors.New("no screen")
	}
	pick := screens[0]
	for _, s := range screens {
		if s.IsPrimary {
			pick = s
		}
	}
	for _, s := range screens {
		if s.IsCurrent {
			pick = s
		}
	}
	size := winstate.Size{Width: pick.Size.Width, Height: pick.Size.Height}
	if size.Width <= 0 || size.Height <= 0 {
		size = winstate.Size{Width: pick.Width, Height: pick.Height}
	}
	return size, nil
}

func (w windowState) Size() (int, int)     { return runtime.WindowGetSize(w.ctx) }
func (w windowState) Position() (int, int) { return runtime.WindowGetPosition(w.ctx) }
func (w windowState) IsMaximised() bool    { return runtime.WindowIsMaximised(w.ctx) }
func (w windowState) SetSize(x, y int)     { runtime.WindowSetSize(w.ctx, x, y) }
func (w windowState) SetPosition(x, y int) { runtime.WindowSetPosition(w.ctx, x, y) }
func (w windowState) Center()              { runtime.WindowCenter(w.ctx) }
func (w windowState) Maximise()            { runtime.WindowMaximise(w.ctx) }

// RestoreWindow fits the window to the screen it opened on, at the size
// and position remembered in path (OnDomReady: the window exists then).
func RestoreWindow(ctx context.Context, path string) {
	p, err := winstate.Restore(windowState{ctx}, path)
	if err != nil {
		log.Printf("hook studio: window: %v", err)
	}
	log.Printf("hook studio: window %dx%d (centred %v, maximised %v)", p.Width, p.Height, p.Center, p.Maximise)
}

// RememberWindow saves the window's size and position to path (when it
// really closes).
func RememberWindow(ctx context.Context, path string) {
	if err := winstate.Remember(windowState{ctx}, path); err != nil {
		log.Printf("hook studio: window: %v", err)
	}
}
