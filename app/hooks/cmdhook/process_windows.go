//go:build windows

package cmdhook

import (
	"os"
	"syscall"
)

// Windows has no process groups to signal: a hook gets a console process
// group of its own, and killGroup ends the hook's own process (what it
// started may outlive it). Hooks run through /bin/sh, which Windows lacks,
// so there they fail to start with that error; this keeps the Windows build
// of the app and hookctl compiling.
func ownGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
