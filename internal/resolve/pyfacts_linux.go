package resolve

import (
	"io/fs"
	"syscall"
)

// pyFactsFillStat copies fi's identity and times into st. The ctime is
// what makes the fingerprint trustworthy: unlike the mtime, no tool can
// set it, and every write, rename onto, chmod or utimes moves it.
func pyFactsFillStat(st *pyFactStat, fi fs.FileInfo) bool {
	sys, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	st.Dev, st.Ino = sys.Dev, sys.Ino
	st.Mode = sys.Mode
	st.Size = sys.Size
	st.MtimeNs = sys.Mtim.Nano()
	st.CtimeNs = sys.Ctim.Nano()
	return true
}
