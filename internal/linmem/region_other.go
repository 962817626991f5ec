//go:build !linux

package linmem

// mapRegion is Linux-only for now; elsewhere memory grows on the Go heap.
func mapRegion(uint64) []byte { return nil }

func unmapRegion([]byte) {}
