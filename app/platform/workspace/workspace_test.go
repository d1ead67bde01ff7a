package workspace

import (
	"context"
	"os"
	"strings"
	"testing"

	"hookstudio/app/agentdata/request"
)

// TestFactsTimezone: the time zone is the one /etc/localtime names, where
// the machine has one.
func TestFactsTimezone(t *testing.T) {
	target, err := os.Readlink("/etc/localtime")
	if err != nil {
		t.Skip("no /etc/localtime link on this machine")
	}
	_, want, _ := strings.Cut(target, "zoneinfo/")
	if got := Facts(context.Background(), t.TempDir(), Options{})[request.SlotTimezone]; got != want {
		t.Errorf("time zone %q, want %q", got, want)
	}
}
