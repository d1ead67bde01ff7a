//go:build cgo

package history

import (
	"errors"
	"fmt"
	"os"

	"github.com/mattn/go-sqlite3"
)

// classify marks the SQLite errors that mean the file itself is bad.
func classify(err error, path string) error {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code {
	case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
		return fmt.Errorf("%w: %w", errDamaged, err)
	case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrReadonly:
		// An unreadable file is moved aside; an unreachable folder is not
		// the file's fault, and moving would fail there anyway.
		if fi, serr := os.Stat(path); serr == nil && fi.Mode().IsRegular() {
			if f, oerr := os.OpenFile(path, os.O_RDWR, 0); oerr != nil {
				return fmt.Errorf("%w: %w", errDamaged, err)
			} else {
				f.Close()
			}
		}
	}
	return err
}
