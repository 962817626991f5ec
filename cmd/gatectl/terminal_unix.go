//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalColumns is the width of the terminal f is, asked of it with
// TIOCGWINSZ, and false when f is not a terminal (the ioctl fails with
// ENOTTY). A terminal that reports no width counts as 80 columns.
func terminalColumns(f *os.File) (int, bool) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, false
	}
	if ws.Col == 0 {
		return helpWidth, true
	}
	return int(ws.Col), true
}
