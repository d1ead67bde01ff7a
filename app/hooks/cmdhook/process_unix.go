//go:build !windows

package cmdhook

import "syscall"

// ownGroup starts a hook in a process group of its own, so that killGroup
// ends it together with everything it started.
func ownGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
