//go:build !unix

package host

// descriptorLimit is what a process may open where there is no
// RLIMIT_NOFILE to read.
func descriptorLimit() uint64 { return defaultDescriptorLimit }
