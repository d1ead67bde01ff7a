//go:build unix

package main

import (
	"os"
	"os/exec"
)

// spawnChild leaves a sleeping child in the hook's process group, holding
// no pipes; its pid goes to $HOOK_CHILD so a test can check it was killed.
func spawnChild() {
	cmd := exec.Command("sleep", "300")
	if cmd.Start() == nil {
		if p := os.Getenv("HOOK_CHILD"); p != "" {
			os.WriteFile(p, []byte(itoa(cmd.Process.Pid)), 0o644)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
