package bind

import (
	"context"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Emitter sends domain events to the frontend once the app has started;
// events before that have no window to go to and are dropped.
type Emitter struct {
	mu  sync.Mutex
	ctx context.Context
}

// Start sets the Wails context events go through.
func (e *Emitter) Start(ctx context.Context) {
	e.mu.Lock()
	e.ctx = ctx
	e.mu.Unlock()
}

// Emit sends one event.
func (e *Emitter) Emit(name string, payload any) {
	e.mu.Lock()
	ctx := e.ctx
	e.mu.Unlock()
	if ctx != nil {
		runtime.EventsEmit(ctx, name, payload)
	}
}

// NativeWindow is the Wails window.
type NativeWindow struct{ Ctx context.Context }

// SetTitle sets the window title.
func (w NativeWindow) SetTitle(title string) { runtime.WindowSetTitle(w.Ctx, title) }

// ChooseFolder shows the native folder dialog.
func (w NativeWindow) ChooseFolder(title, start string) (string, error) {
	return runtime.OpenDirectoryDialog(w.Ctx, runtime.OpenDialogOptions{Title: title, DefaultDirectory: start, CanCreateDirectories: true})
}
