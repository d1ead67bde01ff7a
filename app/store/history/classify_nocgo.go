//go:build !cgo

package history

// classify has nothing to mark in a build without cgo: go-sqlite3 is then a
// stub whose every call fails with one plain error, never a damaged file.
// Such builds (hookctl cross-compiled for macOS) run without the history.
func classify(err error, _ string) error { return err }
