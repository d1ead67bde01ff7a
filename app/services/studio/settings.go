package studio

import (
	"bytes"
	"errors"
	"fmt"
	"hookstudio/app/store/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

const maxRecent = 10

// settings are the user's app preferences, kept as JSON in the data folder.
type settings struct {
	Recent []string `json:"recent"` // most recent first; Recent[0] opens on start
}

func loadSettings(path string) (settings, error) {
	var s settings
	_, err := atomicfile.ReadJSON(path, &s)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		// A damaged settings file only costs the recent list; say so, start clean.
		return settings{}, fmt.Errorf("settings file %s is damaged and was ignored: %w", path, err)
	case err != nil:
		return s, fmt.Errorf("read settings: %w", err)
	}
	return s, nil
}

func (s *settings) remember(folder string) {
	s.Recent = slices.DeleteFunc(s.Recent, func(f string) bool { return f == folder })
	s.Recent = append([]string{folder}, s.Recent...)
	if len(s.Recent) > maxRecent {
		s.Recent = s.Recent[:maxRecent]
	}
}

func saveSettings(path string, s settings) error {
	return atomicfile.WriteJSON(path, s, 0o644)
}

// copyExamples copies the embedded example skills into dir unless dir
// already exists: the user's edits to an earlier copy are never overwritten.
func copyExamples(examples fs.FS, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	tmp := dir + ".partial"
	os.RemoveAll(tmp)
	err := fs.WalkDir(examples, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(tmp, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if filepath.Ext(p) == ".go" {
			return nil // the embedding package itself
		}
		data, err := fs.ReadFile(examples, p)
		if err != nil {
			return err
		}
		// The binary keeps no file modes: a script (it starts with #!) was
		// executable, as hook commands that name it directly expect.
		mode := os.FileMode(0o644)
		if bytes.HasPrefix(data, []byte("#!")) {
			mode = 0o755
		}
		return os.WriteFile(target, data, mode)
	})
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("copy example skills: %w", err)
	}
	// Renaming the finished copy into place means a crash mid-copy never
	// leaves a half-filled folder that would then be kept forever.
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("copy example skills: %w", err)
	}
	return nil
}

// DefaultDataDir is where the app keeps its settings, history and the
// editable copy of the example skills: $HOOKSTUDIO_DATA_DIR if set, else
// the platform's user data folder.
func DefaultDataDir() (string, error) {
	if d := os.Getenv("HOOKSTUDIO_DATA_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "hookstudio"), nil
	}
	if home, err := os.UserHomeDir(); err == nil && runtime.GOOS == "linux" {
		return filepath.Join(home, ".local", "share", "hookstudio"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find a data folder (set HOOKSTUDIO_DATA_DIR): %w", err)
	}
	return filepath.Join(d, "hookstudio"), nil
}
