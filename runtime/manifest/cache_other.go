//go:build !unix

package manifest

import "io/fs"

// Elsewhere the manifest cache is off: telling a private directory and
// the running program's file apart relies on Unix's stat (owner, inode).
// Every load parses, as it did before the cache existed.
func executableIdentity() (string, bool) { return "", false }
