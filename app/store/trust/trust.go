// Package trust remembers which folders the user allowed to run their
// executable hooks. A folder is trusted for one content hash of its hook
// configuration files: a changed configuration (a new command, another
// process) asks again, an unchanged one never does. Opening a folder never
// runs anything; this package only says whether a simulation may.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hookstudio/app/store/atomicfile"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Configs lists the hook configuration files under root that exist, as
// sorted slash paths relative to root. patterns are the files trust covers,
// root-relative ("*" is one folder that is not hidden): the hook-system
// registry's TrustPatterns.
func Configs(root string, patterns []string) ([]string, error) {
	var out []string
	for _, pat := range patterns {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		if err != nil {
			return nil, fmt.Errorf("list hook configs: %w", err)
		}
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			rel, err := filepath.Rel(root, m)
			if err != nil || hidden(filepath.ToSlash(rel), pat) {
				continue
			}
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	return out, nil
}

// hidden says whether a "*" of pattern matched a hidden name in rel.
func hidden(rel, pattern string) bool {
	got, want := strings.Split(rel, "/"), strings.Split(pattern, "/")
	for i := range got {
		if i < len(want) && want[i] == "*" && strings.HasPrefix(got[i], ".") {
			return true
		}
	}
	return false
}

// Hash is the content hash of the given root-relative files: their names
// and bytes, in order. A file that cannot be read counts as empty with a
// marker, so deleting a config also changes the hash.
func Hash(root string, files []string) string {
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		fmt.Fprintf(h, "%s\x00", f)
		if err != nil {
			fmt.Fprintf(h, "unreadable\x00")
			continue
		}
		fmt.Fprintf(h, "%d\x00", len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Entry is one trusted folder.
type Entry struct {
	Path    string    `json:"path"`
	Hash    string    `json:"hash"`
	Trusted time.Time `json:"trusted"`
}

type file struct {
	Folders []Entry `json:"folders"`
}

// Store is the list of trusted folders, kept as JSON in the data folder and
// written atomically. It is safe for concurrent use.
type Store struct {
	path string

	mu      sync.Mutex
	entries map[string]Entry
}

// DefaultPath is where the app keeps the list.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, "trusted-folders.json") }

// Open reads the list at path; a missing file is an empty list. A damaged
// file is an error, and the store starts empty (nothing is trusted).
func Open(path string) (*Store, error) {
	s := &Store{path: path, entries: map[string]Entry{}}
	var f file
	_, err := atomicfile.ReadJSON(path, &f)
	switch {
	case errors.Is(err, atomicfile.ErrDamaged):
		return s, fmt.Errorf("trusted folders file %s is damaged; every folder asks again: %w", path, err)
	case err != nil:
		return s, fmt.Errorf("read trusted folders: %w", err)
	}
	for _, e := range f.Folders {
		s.entries[e.Path] = e
	}
	return s, nil
}

// Trusted says whether folder is trusted with exactly this hash.
func (s *Store) Trusted(folder, hash string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[folder]
	return ok && e.Hash == hash
}

// Known says whether folder was trusted with some hash (so a different
// hash means its hook configuration changed since).
func (s *Store) Known(folder string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.entries[folder]
	return ok
}

// Trust remembers folder as trusted with hash.
func (s *Store) Trust(folder, hash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, had := s.entries[folder]
	s.entries[folder] = Entry{Path: folder, Hash: hash, Trusted: time.Now().UTC()}
	if err := s.saveLocked(); err != nil {
		if had {
			s.entries[folder] = prev
		} else {
			delete(s.entries, folder)
		}
		return err
	}
	return nil
}

// Untrust forgets folder.
func (s *Store) Untrust(folder string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, had := s.entries[folder]
	if !had {
		return nil
	}
	delete(s.entries, folder)
	if err := s.saveLocked(); err != nil {
		s.entries[folder] = prev
		return err
	}
	return nil
}

func (s *Store) saveLocked() error {
	f := file{Folders: make([]Entry, 0, len(s.entries))}
	for _, e := range s.entries {
		f.Folders = append(f.Folders, e)
	}
	slices.SortFunc(f.Folders, func(a, b Entry) int {
		if a.Path < b.Path {
			return -1
		}
		if a.Path > b.Path {
			return 1
		}
		return 0
	})
	if err := atomicfile.WriteJSON(s.path, f, 0o600); err != nil {
		return fmt.Errorf("save trusted folders: %w", err)
	}
	return nil
}
