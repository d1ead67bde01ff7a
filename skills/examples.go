// Package examples ships the example skills inside the binary: the folder
// the app opens on first start (copied to the user's data folder).
package examples

import "embed"

// FS holds every example skill, rooted at this folder; all: keeps a
// plugin's .claude-plugin/ folder.
//
//go:embed all:*
var FS embed.FS
