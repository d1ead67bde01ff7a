package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrDamaged is wrapped by ReadJSON's error for a file that is not JSON of
// the expected shape: callers say so and start from their defaults.
var ErrDamaged = errors.New("not valid JSON")

// ReadJSON decodes the JSON file at path into v. A missing file is no
// error: found is false and v is left as it was. An unreadable file is the
// read's error; a damaged one an error wrapping ErrDamaged.
func ReadJSON(path string, v any) (found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return true, nil
}

// WriteJSON writes v as indented JSON with a final newline, atomically
// (Write), creating path's folder first: owner-only when perm is (a file
// that names accounts), else 0755.
func WriteJSON(path string, v any, perm fs.FileMode) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", filepath.Base(path), err)
	}
	dirPerm := fs.FileMode(0o755)
	if perm&0o077 == 0 {
		dirPerm = 0o700
	}
	if err := os.MkdirAll(filepath.Dir(path), dirPerm); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	return Write(path, append(data, '\n'), perm)
}
