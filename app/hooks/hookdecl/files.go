// Package hookdecl is what the hook systems of agent CLIs (Codex, Qwen
// Code, Gemini CLI, Copilot CLI) share about the hooks a folder declares,
// whatever their dialect: reading the hook files (an editor's unsaved
// text first, a file that cannot be read reported, a fingerprint for
// trust), a plugin or extension folder, how traces and panels name a hook,
// what its command line runs on disk, and the registry's view of the
// whole — the hooks it lists, the commands trust covers, the handler a run
// attaches with the rendering profile it chose. Each system keeps its
// dialect: the file's shape, its events, what its CLI does.
package hookdecl

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"

	"hookstudio/app/format/diag"
)

// Files reads one folder's hook files of an agent.
type Files struct {
	// Drafts are unsaved editor texts by root-relative path.
	Drafts map[string][]byte
	// Unreadable is the code of a file that exists but cannot be read.
	Unreadable string
	// Read lists every file read, root-relative (a user file as given).
	Read []string
	// Diags are the files' own problems (unreadable ones).
	Diags []diag.Diagnostic
	sum   hash.Hash
}

// NewFiles reads with drafts; unreadable is the system's code for a file
// it cannot read ("codex-unreadable").
func NewFiles(drafts map[string][]byte, unreadable string) *Files {
	return &Files{Drafts: drafts, Unreadable: unreadable, Read: []string{}, sum: sha256.New()}
}

// Open is rel's text: its draft, else the file at abs. A file that does
// not exist is no problem (false); one that cannot be read is reported.
func (f *Files) Open(abs, rel string) ([]byte, bool) {
	data, ok := f.Drafts[rel]
	if !ok {
		var err error
		data, err = os.ReadFile(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false
		}
		if err != nil {
			f.Diags = append(f.Diags, diag.Diagnostic{File: rel, Severity: diag.Error, Code: f.Unreadable,
				Message: fmt.Sprintf("cannot read %s: %v; check its permissions", rel, errors.Unwrap(err))})
			return nil, false
		}
	}
	fmt.Fprintf(f.sum, "%s\x00%d\x00", rel, len(data))
	f.sum.Write(data)
	f.Read = append(f.Read, rel)
	return data, true
}

// Fingerprint hashes every file read, in order: trust is remembered by it.
func (f *Files) Fingerprint() string { return hex.EncodeToString(f.sum.Sum(nil)) }

// Regular says whether p is a regular file.
func Regular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
