//go:build !unix

package main

import "os"

// terminalColumns reports no terminal where TIOCGWINSZ does not exist:
// output is written whole, as to a pipe.
func terminalColumns(*os.File) (int, bool) { return 0, false }
