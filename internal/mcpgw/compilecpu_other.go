//go:build !linux

package mcpgw

import "time"

// compileCPU is nil where a thread's CPU clock cannot be read: a
// compile's wait is then the wall clock's.
func compileCPU() func() time.Duration { return nil }
