//go:build !unix

package server

// openFileLimit is unknown here: the default cap is MaxDefaultConns.
func openFileLimit() (uint64, bool) { return 0, false }
