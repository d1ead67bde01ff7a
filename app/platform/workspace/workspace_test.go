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

// TestPasswdShell: a user's login shell is the seventh field of their
// line, and nothing when the user has no line.
func TestPasswdShell(t *testing.T) {
	passwd := "root:x:0:0:root:/root:/bin/bash\nci:x:1001:1001::/home/ci:/usr/bin/zsh\r\nbroken:x:1\n"
	for _, tc := range []struct{ name, want string }{
		{"root", "/bin/bash"},
		{"ci", "/usr/bin/zsh"},
		{"broken", ""},
		{"nobody", ""},
	} {
		if got := passwdShell(passwd, tc.name); got != tc.want {
			t.Errorf("%s: shell %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFactsShellUnset: with no $SHELL (a CI job) the shell slot is the
// user's login shell, as calibration gives its probes.
func TestFactsShellUnset(t *testing.T) {
	t.Setenv("SHELL", "")
	want := LoginShell()
	if want == "" {
		t.Skip("this user has no login shell in /etc/passwd")
	}
	if got := Facts(context.Background(), t.TempDir(), Options{})[request.SlotShell]; got == "" || !strings.HasSuffix(want, "/"+got) {
		t.Errorf("shell slot %q, login shell %q", got, want)
	}
}
