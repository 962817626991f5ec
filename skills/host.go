package skills

// Host answers what a skill's requirements ask of the machine. The runtime
// implements it with its own resolvers; with none given, a Manager answers
// from the running process. Its methods may be called concurrently, and
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
