//go:build !unix

package main

import "os/exec"

// ownGroup: without process groups the context's cancel kills the agent
// itself only.
func ownGroup(*exec.Cmd) {}

func killGroup(*exec.Cmd) {}
