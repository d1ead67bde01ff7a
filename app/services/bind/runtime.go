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

// ChooseSaveFile shows the native save dialog.
func (w NativeWindow) ChooseSaveFile(title, name string) (string, error) {
	return runtime.SaveFileDialog(w.Ctx, runtime.SaveDialogOptions{Title: title, DefaultFilename: name, CanCreateDirectories: true})
}

// ChooseFile shows the native open dialog for one file.
func (w NativeWindow) ChooseFile(title, pattern string) (string, error) {
	return runtime.OpenFileDialog(w.Ctx, runtime.OpenDialogOptions{Title: title,
		Filters: []runtime.FileFilter{{DisplayName: "Skills (" + pattern + ")", Pattern: pattern}}})
}

// Confirm asks a yes/no question.
func (w NativeWindow) Confirm(title, message string) (bool, error) {
	answer, err := runtime.MessageDialog(w.Ctx, runtime.MessageDialogOptions{Type: runtime.QuestionDialog, Title: title, Message: message,
		Buttons: []string{"Quit", "Cancel"}, DefaultButton: "Cancel", CancelButton: "Cancel"})
	return answer == "Quit" || answer == "Yes", err
}
