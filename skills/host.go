package skills

import (
	"os"
	"os/exec"
	"runtime"
)

// Host answers what a skill's requirements ask of the machine. The runtime
// implements it with its own resolvers; MapHost and SystemHost serve tests
// and hosts without a runtime. Its methods may be called concurrently, and
// LookupEnv and OS with a Manager's lock held: they must be quick and must
// not call back into the Manager. A Manager calls HasBinary, which may
// touch the file system, before it takes its lock.
type Host interface {
	// LookupEnv returns an environment variable's value and whether it is
	// set; an empty value counts as missing, as in PraisonAI.
	LookupEnv(name string) (string, bool)
	// HasBinary reports whether an executable of that name can be run (the
	// runtime answers with its bin: resolver).
	HasBinary(name string) bool
	// OS is the host's operating system as a GOOS value ("linux").
	OS() string
}

// MapHost is a Host with fixed answers, for tests, examples and hosts that
// know what they have. Its zero value has no variables, no binaries and
// the OS of the running program.
type MapHost struct {
	// Env holds the variables that are set.
	Env map[string]string
	// Bins holds the binaries that can be run.
	Bins []string
	// GOOS is the operating system; "" means runtime.GOOS.
	GOOS string
}

// LookupEnv looks name up in Env.
func (h MapHost) LookupEnv(name string) (string, bool) {
	v, ok := h.Env[name]
	return v, ok
}

// HasBinary reports whether name is in Bins.
func (h MapHost) HasBinary(name string) bool {
	for _, b := range h.Bins {
		if b == name {
			return true
		}
	}
	return false
}

// OS returns GOOS, or runtime.GOOS when it is "".
func (h MapHost) OS() string {
	if h.GOOS == "" {
		return runtime.GOOS
	}
	return h.GOOS
}

// SystemHost answers from the running process: os.LookupEnv, exec.LookPath
// over PATH (PATHEXT on Windows) and runtime.GOOS.
func SystemHost() Host { return systemHost{} }

type systemHost struct{}

func (systemHost) LookupEnv(name string) (string, bool) { return os.LookupEnv(name) }

func (systemHost) HasBinary(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

func (systemHost) OS() string { return runtime.GOOS }
