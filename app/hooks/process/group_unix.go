//go:build unix

package process

import (
	"errors"
	"os/exec"
	"syscall"
)

// OwnGroup makes cmd start in a process group of its own, so that Kill
// ends it together with everything it started. Long-running hooks (a
// JSON-RPC process) start through it too.
func OwnGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// IsBrokenPipe says whether err is a write to a program that closed its
// stdin (it exited, or never reads it).
func IsBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
