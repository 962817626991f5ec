// Package skillhost answers a skill's questions about the machine (its
// environment variables, binaries and operating system) without a runtime:
// from the running process, or from fixed maps for tests. It implements
// skills.Host, which the runtime implements with its own resolvers.
package skillhost

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
)

// Map is a host with fixed answers, for tests and examples. Its zero value
// has no variables, no binaries and the OS of the running program.
type Map struct {
	// Env holds the variables that are set.
	Env map[string]string
	// Bins holds the binaries that can be run.
	Bins []string
	// GOOS is the operating system; "" means runtime.GOOS.
	GOOS string
}

// LookupEnv looks name up in Env.
func (h Map) LookupEnv(name string) (string, bool) {
	v, ok := h.Env[name]
	return v, ok
}

// HasBinary reports whether name is in Bins.
func (h Map) HasBinary(name string) bool { return slices.Contains(h.Bins, name) }

// OS returns GOOS, or runtime.GOOS when it is "".
func (h Map) OS() string {
	if h.GOOS == "" {
		return runtime.GOOS
	}
	return h.GOOS
}

// System answers from the running process: os.LookupEnv, exec.LookPath
// over PATH (PATHEXT on Windows) and runtime.GOOS.
type System struct{}

// LookupEnv is os.LookupEnv.
func (System) LookupEnv(name string) (string, bool) { return os.LookupEnv(name) }

// HasBinary reports whether exec.LookPath finds name.
func (System) HasBinary(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// OS is runtime.GOOS.
func (System) OS() string { return runtime.GOOS }
