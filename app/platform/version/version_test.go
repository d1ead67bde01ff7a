package version

import (
	"runtime/debug"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct {
		name string
		in   Info
		want string
	}{
		{"stamped", Info{Version: "0.3.0", Commit: "abc1234", Date: "2026-11-23"}, "0.3.0 (commit abc1234, built 2026-11-23)"},
		{"no date", Info{Version: "0.3.0", Commit: "abc1234-dirty"}, "0.3.0 (commit abc1234-dirty)"},
		{"no commit", Info{Version: "0.3.0", Date: "2026-11-23"}, "0.3.0 (built 2026-11-23)"},
		{"bare", Info{Version: "dev"}, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFillFromBuildInfo(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}, {Key: "vcs.time", Value: "2026-11-20T10:00:00Z"}}
	}
	tests := []struct {
		name string
		in   Info
		bi   debug.BuildInfo
		want Info
	}{
		{
			name: "ldflags win",
			in:   Info{Version: "0.3.0", Commit: "abc1234", Date: "2026-11-23"},
			bi:   debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: vcs("ffffffffffffffffffff", "true")},
			want: Info{Version: "0.3.0", Commit: "abc1234", Date: "2026-11-23"},
		},
		{
			name: "plain go build in a clean checkout",
			bi:   debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef", "false")},
			want: Info{Commit: "0123456"},
		},
		{
			name: "plain go build with local changes",
			bi:   debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef", "true")},
			want: Info{Commit: "0123456-dirty"},
		},
		{
			name: "go install module@version",
			bi:   debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}},
			want: Info{Version: "0.3.1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fillFromBuildInfo(tt.in, &tt.bi); got != tt.want {
				t.Errorf("fillFromBuildInfo() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestGet(t *testing.T) {
	in := Get()
	if in.Version == "" || in.GoVersion == "" || in.Platform == "" {
		t.Errorf("Get() = %+v: version, Go version and platform are always known", in)
	}
	if in.History != cgoEnabled {
		t.Errorf("History = %v, want %v (cgo)", in.History, cgoEnabled)
	}
}
