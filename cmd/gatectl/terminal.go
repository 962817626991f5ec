package main

import (
	"io"
	"os"
	"strconv"
)

// outputWidth is how many columns a table written to w may use: the
// width of the terminal w is, or $COLUMNS when that is a positive number
// (as shells and less set it); 0, for no limit, when w is not a
// terminal, so that what a script or a file receives is never clipped.
func outputWidth(w io.Writer, getenv func(string) string) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, ok := terminalColumns(f)
	if !ok {
		return 0
	}
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return cols
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, ok = terminalColumns(f)
	return ok
}
