package runtime

import "syscall"

// mapRegion reserves max bytes of zeroed, private, anonymous memory that
// commits pages only as they are touched (MAP_NORESERVE), asking for
// transparent huge pages (MADV_HUGEPAGE: Debian's default THP mode is
// "madvise", so only regions that ask get them), or returns nil.
func mapRegion(max uint64) []byte {
	if max == 0 || max > 1<<32 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // best effort: without THP, 4 KiB pages
	return b
}

func unmapRegion(b []byte) { _ = syscall.Munmap(b[:cap(b)]) }
