package runtime

import "syscall"

// mapRegion reserves max bytes of zeroed, private, anonymous memory that
// commits pages only as they are touched (MAP_NORESERVE), or returns nil.
func mapRegion(max uint64) []byte {
	if max == 0 || max > 1<<32 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return b
}

func unmapRegion(b []byte) { _ = syscall.Munmap(b[:cap(b)]) }
