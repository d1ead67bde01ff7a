//go:build unix

package prochook

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup puts the hook in its own process group, so killing the group
// also ends whatever it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the hook's whole process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}

func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
