package edit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/atomicfile"
)

// ErrDeletedOnDisk is returned by Save when the file was deleted (or
// replaced by a non-file) on disk while it was open. Restore writes the
// buffer's version back.
var ErrDeletedOnDisk = errors.New("file was deleted on disk")

// ConflictError is returned by Save when the file changed on disk since it
// was loaded. It carries all three versions; resolve with KeepMine,
// TakeTheirs or Merge.
type ConflictError struct {
	Path   string
	Base   []byte // what the buffer was loaded from (nil: the file did not exist)
	Mine   []byte // the unsaved edits
	Theirs []byte // what is on disk now
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s changed on disk since it was opened", filepath.Base(e.Path))
}

// Stamp identifies one version of a file.
type Stamp struct {
	Exists  bool      `json:"exists"`
	Hash    [32]byte  `json:"-"`
	ModTime time.Time `json:"mod_time"`
	Size    int64     `json:"size"`
}

// Status is the state of the file on disk compared with what a Buffer was
// loaded from.
type Status string

const (
	Unchanged Status = "unchanged"
	Changed   Status = "changed"
	Deleted   Status = "deleted"
)

// Buffer is one open file: the bytes it was loaded from and the user's
// unsaved edits. It is safe for concurrent use.
type Buffer struct {
	path string

	mu    sync.Mutex
	base  []byte
	stamp Stamp
	mine  []byte
}

// Open loads path into a new Buffer.
func Open(path string) (*Buffer, error) {
	b := &Buffer{path: path}
	data, st, err := readStamp(path)
	if err != nil {
		return nil, err
	}
	if !st.Exists {
		return nil, fmt.Errorf("open %s: %w", filepath.Base(path), fs.ErrNotExist)
	}
	b.base, b.stamp, b.mine = data, st, data
	return b, nil
}

// NewFile is a Buffer for a file that does not exist yet, holding data as
// unsaved edits.
func NewFile(path string, data []byte) *Buffer {
	return &Buffer{path: path, mine: data}
}

// readStamp reads path and stamps it. A missing file (or a folder where the
// file was) is not an error: Exists is false.
func readStamp(path string) ([]byte, Stamp, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Stamp{}, nil
	}
	if err != nil {
		return nil, Stamp{}, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, Stamp{}, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	if !fi.Mode().IsRegular() {
		return nil, Stamp{}, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, skills.MaxFileSize+1))
	if err != nil {
		return nil, Stamp{}, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	if len(data) > skills.MaxFileSize {
		return nil, Stamp{}, fmt.Errorf("read %s: larger than %d bytes", filepath.Base(path), skills.MaxFileSize)
	}
	return data, Stamp{Exists: true, Hash: sha256.Sum256(data), ModTime: fi.ModTime(), Size: int64(len(data))}, nil
}

// Path is the file's path.
func (b *Buffer) Path() string { return b.path }

// Base returns the bytes the buffer was loaded from (nil for a new file).
func (b *Buffer) Base() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.base
}

// Content returns the buffer's current text, saved or not.
func (b *Buffer) Content() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mine
}

// Set replaces the buffer's text with the user's edit.
func (b *Buffer) Set(data []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.mine = bytes.Clone(data)
}

// Dirty reports whether the buffer has unsaved edits.
func (b *Buffer) Dirty() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dirty()
}

func (b *Buffer) dirty() bool { return !b.stamp.Exists || !bytes.Equal(b.mine, b.base) }

// Check compares the file on disk with what the buffer was loaded from, by
// content hash (a touched but identical file is Unchanged).
func (b *Buffer) Check(ctx context.Context) (Status, []byte, error) {
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.check()
}

func (b *Buffer) check() (Status, []byte, error) {
	data, st, err := readStamp(b.path)
	switch {
	case err != nil:
		return "", nil, err
	case !st.Exists && b.stamp.Exists:
		return Deleted, nil, nil
	case !st.Exists:
		return Unchanged, nil, nil // a new file, still not on disk
	case !b.stamp.Exists || st.Hash != b.stamp.Hash:
		return Changed, data, nil
	}
	return Unchanged, data, nil
}

// Save writes the buffer atomically if the file on disk is still what the
// buffer was loaded from. Otherwise it writes nothing and returns a
// *ConflictError, or ErrDeletedOnDisk when the file is gone. Saving a buffer
// without edits does nothing.
func (b *Buffer) Save(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.dirty() {
		return nil
	}
	status, theirs, err := b.check()
	if err != nil {
		return err
	}
	switch status {
	case Deleted:
		return fmt.Errorf("save %s: %w", filepath.Base(b.path), ErrDeletedOnDisk)
	case Changed:
		return &ConflictError{Path: b.path, Base: b.base, Mine: b.mine, Theirs: theirs}
	}
	return b.write()
}

// write saves mine and makes it the new base.
func (b *Buffer) write() error {
	if err := os.MkdirAll(filepath.Dir(b.path), 0o755); err != nil {
		return fmt.Errorf("save %s: %w", filepath.Base(b.path), err)
	}
	if err := atomicfile.Write(b.path, b.mine, 0o644); err != nil {
		return err
	}
	_, st, err := readStamp(b.path)
	if err != nil {
		return err
	}
	if st.Hash != sha256.Sum256(b.mine) {
		// Changed again between our rename and the re-read: keep the
		// stamp of what we wrote so the next Save reports the conflict.
		st = Stamp{Exists: true, Hash: sha256.Sum256(b.mine), Size: int64(len(b.mine))}
	}
	b.base, b.stamp = b.mine, st
	return nil
}

// KeepMine resolves a conflict by overwriting the disk's version with the
// buffer's.
func (b *Buffer) KeepMine(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.write()
}

// Restore writes the buffer's version back after the file was deleted on
// disk.
func (b *Buffer) Restore(ctx context.Context) error { return b.KeepMine(ctx) }

// TakeTheirs resolves a conflict by reloading the file from disk; the
// unsaved edits are discarded (the caller had them in the ConflictError).
func (b *Buffer) TakeTheirs(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	data, st, err := readStamp(b.path)
	if err != nil {
		return err
	}
	if !st.Exists {
		return fmt.Errorf("reload %s: %w", filepath.Base(b.path), ErrDeletedOnDisk)
	}
	b.base, b.stamp, b.mine = data, st, data
	return nil
}

// Merge resolves a conflict by merging the unsaved edits with the disk's
// version (MergeHooks for a hooks.json, MergeText otherwise). The merge
// becomes the buffer's unsaved text and the disk's version its new base, so
// the next Save succeeds unless the disk changes again. Conflicts are in
// the result and, for text, between markers in the merged text; nothing is
// written to disk.
func (b *Buffer) Merge(ctx context.Context) (MergeResult, error) {
	if err := ctx.Err(); err != nil {
		return MergeResult{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	theirs, st, err := readStamp(b.path)
	if err != nil {
		return MergeResult{}, err
	}
	if !st.Exists {
		return MergeResult{}, fmt.Errorf("merge %s: %w", filepath.Base(b.path), ErrDeletedOnDisk)
	}
	var res MergeResult
	if filepath.Base(b.path) == "hooks.json" {
		if res, err = MergeHooks(filepath.Base(b.path), b.base, b.mine, theirs); err != nil {
			return MergeResult{}, err
		}
	} else {
		res = MergeText(b.base, b.mine, theirs)
	}
	b.base, b.stamp, b.mine = theirs, st, res.Merged
	return res, nil
}
