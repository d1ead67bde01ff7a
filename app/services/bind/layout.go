package bind

import (
	"log"
	"sync"

	"hookstudio/app/store/layout"
)

// Layout is bound as window.go.bind.Layout: the user's pane sizes, kept
// in the data folder (a webview's localStorage is not reliably kept
// between starts).
type Layout struct {
	path string
	mu   sync.Mutex // one write at a time
}

// NewLayout keeps the layout in the file at path.
func NewLayout(path string) *Layout { return &Layout{path: path} }

// Get returns the remembered layout; a damaged file is logged and reads
// as the defaults, so the window always opens.
func (b *Layout) Get() (layout.Layout, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l, err := layout.Load(b.path)
	if err != nil {
		log.Printf("hook studio: %v", err)
	}
	return l, nil
}

// Set remembers l and returns it.
func (b *Layout) Set(l layout.Layout) (layout.Layout, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := layout.Save(b.path, l); err != nil {
		return layout.Layout{}, err
	}
	return l, nil
}
