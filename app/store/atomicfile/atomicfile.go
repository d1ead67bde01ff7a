// Package atomicfile writes files so that a reader sees the old content or
// the new one, never a mix, even across a crash; and it keeps the app's
// small JSON settings files (trusted folders, profiles, layout, window
// state, preferences) that way.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// fileSystem is the part of the OS an atomic write needs, so tests can make
// any step fail (a crash between the temporary write and the rename).
type fileSystem interface {
	CreateTemp(dir, pattern string) (tempFile, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	SyncDir(dir string) error
}

type tempFile interface {
	Name() string
	Write(p []byte) (int, error)
	Sync() error
	Chmod(mode fs.FileMode) error
	Close() error
}

// osFS is the real file system.
type osFS struct{}

func (osFS) CreateTemp(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
func (osFS) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osFS) Remove(name string) error                         { return os.Remove(name) }
func (osFS) SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err // some platforms cannot sync a directory; that is no failure
	}
	return nil
}

// TempPattern is the name pattern of the temporary files Write creates: ".hooks.json.123456.tmp". They start with a dot, so the loader
// (which only opens hooks.json and the .md files it names) and the watcher
// (which ignores dot-files) never see one, even when a crash leaves it.
func TempPattern(base string) string { return "." + base + ".*.tmp" }

// IsTemp reports whether a file name is one of Write's temporary files.
func IsTemp(name string) bool { return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") }

// Write replaces path with data so that readers see either the
// old or the new content, never a mix, even across a crash: the data goes
// to a temporary file in the same folder, which is synced, renamed over
// path, and the folder is synced. On any error the temporary file is removed
// and path is untouched.
func Write(path string, data []byte, perm fs.FileMode) error {
	return writeAtomic(osFS{}, path, data, perm)
}

func writeAtomic(fsys fileSystem, path string, data []byte, perm fs.FileMode) error {
	return place(fsys, "save", path, data, keepMode(path, perm), fsys.Rename)
}

// place writes data to a synced temporary file beside path and puts it
// there with put (rename over path, or link to a new one); the temporary
// file is gone afterwards, and on any error path is as it was. verb names
// the action in errors.
func place(fsys fileSystem, verb, path string, data []byte, mode fs.FileMode, put func(tmp, path string) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := fsys.CreateTemp(dir, TempPattern(base))
	if err != nil {
		return fmt.Errorf("%s %s: %w", verb, base, err)
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			fsys.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("%s %s: write: %w", verb, base, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("%s %s: chmod: %w", verb, base, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("%s %s: sync: %w", verb, base, err)
	}
	closed = true
	if err = f.Close(); err != nil {
		return fmt.Errorf("%s %s: close: %w", verb, base, err)
	}
	if err = put(tmp, path); err != nil {
		return fmt.Errorf("%s %s: %w", verb, base, err)
	}
	fsys.Remove(tmp) // after a link: the new name keeps the data (after a rename there is none)
	if err := fsys.SyncDir(dir); err != nil {
		// The new content is in place; only its durability is in doubt.
		return fmt.Errorf("%s %s: sync folder: %w", verb, base, err)
	}
	return nil
}

// keepMode returns the permissions of the file being replaced, so saving
// does not change them, or perm for a new file.
func keepMode(path string, perm fs.FileMode) fs.FileMode {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return perm
}

// WriteNew creates path with data, complete or not at all, and never over
// a file that exists (then the error wraps fs.ErrExist): the data goes to a
// synced temporary file, which is linked to path (a link fails where a
// file is) and removed.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	return place(osFS{}, "create", path, data, perm, os.Link)
}
