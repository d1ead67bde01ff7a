package bind

import (
	"testing"

	"hookstudio/app/platform/version"
)

func TestAboutInfo(t *testing.T) {
	tests := []struct {
		name                  string
		stamp                 [3]string
		wantVersion, wantText string
	}{
		{"release", [3]string{"0.3.0", "abc1234", "2026-11-23"}, "0.3.0", "0.3.0 (commit abc1234, built 2026-11-23)"},
		{"unstamped", [3]string{"", "", ""}, "dev", "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := [3]string{version.Version, version.Commit, version.Date}
			version.Version, version.Commit, version.Date = tt.stamp[0], tt.stamp[1], tt.stamp[2]
			t.Cleanup(func() { version.Version, version.Commit, version.Date = old[0], old[1], old[2] })
			got := NewAbout().Info()
			if got.Version != tt.wantVersion {
				t.Errorf("Version = %q, want %q", got.Version, tt.wantVersion)
			}
			// A plain `go build` in a git checkout adds the commit by itself.
			if tt.stamp[1] != "" && got.String() != tt.wantText {
				t.Errorf("String() = %q, want %q", got.String(), tt.wantText)
			}
		})
	}
}
