//go:build !unix

package prochook

import (
	"os/exec"
	"strings"
)

func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func isBrokenPipe(err error) bool {
	return err != nil && strings.Contains(err.Error(), "pipe")
}
