//go:build !linux

package resolve

import "io/fs"

// Elsewhere the facts cache is off: validating an entry relies on inode
// numbers and ctimes, read from Linux's stat. Every process starts Python,
// as it did before the cache existed.
func pyFactsFillStat(*pyFactStat, fs.FileInfo) bool { return false }
