//go:build windows

package process

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// Windows has no process groups to signal: a hook gets a console process
// group of its own, and Kill ends the hook's own process (what it started
// may outlive it). Shell lines run through /bin/sh, which Windows lacks, so
// there they fail to start with that error; this keeps the Windows build
// of the app and hookctl compiling.
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// IsBrokenPipe says whether err is a write to a program that closed its
// stdin.
func IsBrokenPipe(err error) bool { return err != nil && strings.Contains(err.Error(), "pipe") }
