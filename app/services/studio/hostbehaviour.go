package studio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"hookstudio/app/hooks/hostmode"
)

// HostBehaviour is what the open folder's hosted hook systems follow where a
// program's code and its document disagree ("code" or "document"), read
// from the folder's settings (hostmode.File).
func (s *Service) HostBehaviour() (string, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return string(hostmode.Code), nil
	}
	m, _, err := hostmode.Load(root)
	return string(m), err
}

// SetHostBehaviour writes the open folder's setting (its other settings and
// comments kept) and simulates again under it.
func (s *Service) SetHostBehaviour(ctx context.Context, mode string) (State, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return s.State(), errors.New("no folder is open")
	}
	path := filepath.Join(root, filepath.FromSlash(hostmode.File))
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.State(), fmt.Errorf("read folder settings: %w", err)
	}
	out, err := hostmode.Set(data, hostmode.Mode(mode))
	if err != nil {
		return s.State(), err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return s.State(), fmt.Errorf("write folder settings: %w", err)
	}
	if err := s.writeOwn(root, hostmode.File, out); err != nil {
		return s.State(), fmt.Errorf("write folder settings: %w", err)
	}
	s.Reload(ctx)
	return s.State(), nil
}
