package uplink

import (
	"bytes"
	"os"
	"strconv"
)

// exitedUnwaited reports whether the process pid has ended and not yet
// been waited for (a zombie, state Z in /proc/PID/stat): it ended on its
// own, whatever signal is sent to it now.
func exitedUnwaited(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command's name, in parentheses that the
	// name itself may contain: after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}
