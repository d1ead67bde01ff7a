// Package version holds what a build was made from: the release version, the
// commit and the build date, stamped in by the Makefile with
//
//	-ldflags "-X hookstudio/app/platform/version.Version=0.1.0
//	          -X hookstudio/app/platform/version.Commit=abc1234
//	          -X hookstudio/app/platform/version.Date=2026-11-23"
//
// A plain `go build` leaves them empty; Get then falls back to the VCS
// details the Go toolchain records by itself, so even such a binary can say
// which commit it was built from.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Stamped with -ldflags -X; see the package comment.
var (
	Version string
	Commit  string
	Date    string
)

// Info describes a build. The app's About shows it; hookctl --version prints
// its String.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Date      string `json:"date"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
	// History is false in a build without cgo: go-sqlite3 is then a stub,
	// and the run history cannot be opened.
	History bool `json:"history"`
}

// Get returns the stamped values, completed from the Go build information.
func Get() Info {
	in := Info{
		Version:   Version,
		Commit:    Commit,
		Date:      Date,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
		History:   cgoEnabled,
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		in = fillFromBuildInfo(in, bi)
	}
	if in.Version == "" {
		in.Version = "dev"
	}
	return in
}

// fillFromBuildInfo fills what -ldflags left empty from the toolchain's
// record of the build: the module version (set by `go install m@v`) and the
// VCS revision and state (set by `go build` inside a git checkout). The
// build date is not guessed: the commit's time is not when it was built.
func fillFromBuildInfo(in Info, bi *debug.BuildInfo) Info {
	if in.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		in.Version = strings.TrimPrefix(bi.Main.Version, "v")
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if in.Commit == "" && settings["vcs.revision"] != "" {
		in.Commit = short(settings["vcs.revision"])
		if settings["vcs.modified"] == "true" {
			in.Commit += "-dirty"
		}
	}
	return in
}

func short(rev string) string {
	if len(rev) > 7 {
		return rev[:7]
	}
	return rev
}

// String is the one-line form: "0.1.0 (commit abc1234, built 2026-11-23)".
// What is unknown is left out.
func (in Info) String() string {
	var parts []string
	if in.Commit != "" {
		parts = append(parts, "commit "+in.Commit)
	}
	if in.Date != "" {
		parts = append(parts, "built "+in.Date)
	}
	if len(parts) == 0 {
		return in.Version
	}
	return fmt.Sprintf("%s (%s)", in.Version, strings.Join(parts, ", "))
}
