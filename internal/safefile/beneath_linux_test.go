package safefile

import "testing"

func init() {
	setOpenat2Missing = func(t *testing.T) {
		was := openat2Missing.Load()
		openat2Missing.Store(true)
		t.Cleanup(func() { openat2Missing.Store(was) })
	}
}
