//go:build !linux

package gateway

import "os/exec"

// detach does nothing where Pdeathsig does not exist.
func detach(*exec.Cmd) {}
