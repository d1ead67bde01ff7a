//go:build !unix

package reqhook

import "os/exec"

// ownGroup: without process groups, cancelling kills the process itself
// (exec.CommandContext's default).
func ownGroup(cmd *exec.Cmd) {}
