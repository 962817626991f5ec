package runtime

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"
)

// probeAllocator backs each probe instance's linear memory.
//
// An instance starts on an ordinary Go slice, as wazero's default does: a
// C or WAT probe that never grows its memory costs nothing extra. The
// first memory.grow past that slice moves the memory, once, into a region
// reserved for the whole cap (mapRegion; the kernel supplies pages only
// when the guest touches them). From then on a grow costs nothing: no
// copy, no allocation. wazero's default appends each grow to the slice, so
// a probe growing one page at a time towards a 32 MiB cap copies gigabytes
// in Go code that no deadline can interrupt (measured here: 1.2 s for 512
// one-page grows); with the region, the time goes to page faults taken
// while the guest itself touches memory, between two metering checks.
type probeAllocator struct{}

func (probeAllocator) Allocate(capacity, max uint64) experimental.LinearMemory {
	return &probeMemory{buf: make([]byte, 0, capacity), max: max}
}

type probeMemory struct {
	buf    []byte
	region []byte // the reserved region once the memory has moved there
	max    uint64
}

func (m *probeMemory) Reallocate(size uint64) []byte {
	switch {
	case size > m.max:
		return nil
	case m.region != nil:
		m.buf = m.region[:size]
	case size <= uint64(cap(m.buf)):
		// Memory never shrinks: the bytes past len are still zero.
		m.buf = m.buf[:size]
	default:
		region := mapRegion(m.max)
		if region == nil {
			// No region to be had: grow a Go slice, doubling, so at least
			// the copies stay few.
			region = make([]byte, 0, min(max(size, 2*uint64(cap(m.buf))), m.max))
		} else {
			m.region = region
		}
		copy(region[:len(m.buf)], m.buf)
		m.buf = region[:size]
	}
	return m.buf
}

func (m *probeMemory) Free() {
	if m.region != nil {
		unmapRegion(m.region)
	}
	m.buf, m.region = nil, nil
}

// withAllocator is the context under which instances are created.
func withAllocator(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, probeAllocator{})
}
