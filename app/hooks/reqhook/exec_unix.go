//go:build unix

package reqhook

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in its own process group and makes cancelling it
// kill the whole group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
