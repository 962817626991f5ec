package linmem

import "syscall"

// mapRegion reserves max bytes of zeroed, private, anonymous memory that
// commits pages only as they are touched (MAP_NORESERVE), or returns nil.
//
// It does not ask for transparent huge pages (MADV_HUGEPAGE), though they
// make a loop that touches every page cheaper: each first touch of a huge
// page commits (and zeroes) 2 MiB, so a probe storing one byte every 2 MiB
// commits its whole memory, and on a VM whose host backs guest memory
// lazily each such store stalls in the kernel, where no check reaches it,
// for milliseconds (docs/BENCHMARKS.md, "What the sandbox's bounds were
// measured against").
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
