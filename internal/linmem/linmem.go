// Package linmem backs the linear memory of probe instances (wazero's
// experimental.MemoryAllocator): pooled one-page memories for C and WAT
// probes, and regions reserved for the whole cap, whose pages the kernel
// supplies as the guest touches them, for anything bigger.
package linmem

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"

	"github.com/gate-dev/gate/internal/limits"
)

// pageSize is a WebAssembly page.
const pageSize = limits.PageSize

// probeAllocator backs each probe instance's linear memory.
//
// A one-page memory (a C or WAT probe) is a plain 64 KiB buffer, recycled
// between instances; the instance that used it is closed, and so can no
// longer run, before it goes back (see runtime's Engine.Close). Anything bigger
// lives in a region reserved for the whole cap (mapRegion: pages are
// supplied only as the guest touches them), and a memory that starts at
// one page moves there at its first memory.grow. Growing thereby costs
// nothing that no deadline can interrupt: wazero's default appends each
// grow to a Go slice, so a probe growing one page at a time towards a
// 32 MiB cap copied gigabytes; in the region a grow copies nothing.
// Touching fresh pages is the kernel's work between two metering checks,
// slowest the first time a VM's memory is used where its host backs guest
// memory lazily (docs/BENCHMARKS.md, "What the sandbox's bounds were
// measured against"). It is bounded by the cap, once per run, not by time.
type probeAllocator struct{}

func (probeAllocator) Allocate(capacity, max uint64) experimental.LinearMemory {
	if capacity <= pageSize && max >= pageSize {
		// Reuse a buffer from an instance that was closed: allocating 64
		// KiB afresh for every fresh instance was a large part of its
		// cost, most of it in the GC.
		select {
		case page := <-onePage:
			// Zeroed here, where it is reused, not when it was freed:
			// a process closing thousands of instances on its way out
			// faulted in every page it zeroed, for nothing.
			clear(page[:])
			return &probeMemory{buf: page[:0], max: max, pooled: true}
		default:
		}
		return &probeMemory{buf: make([]byte, 0, pageSize), max: max, pooled: true}
	}
	if region := mapRegion(max); region != nil {
		return &probeMemory{buf: region[:0], region: region, max: max}
	}
	return &probeMemory{buf: make([]byte, 0, capacity), max: max}
}

// maxPooledPages bounds onePage: the one-page memories of as many
// instances, enough that a Gate's fresh instances rarely allocate, since
// instances of the standard modules are shared between tools.
const maxPooledPages = 32

// onePage recycles one-page memories. A buffer is zeroed when it is taken
// again, so the next instance starts from the zeroed memory wasm promises;
// until then it holds what its closed instance left, which no guest can
// reach.
//
// It is a bounded free list, not a sync.Pool: a sync.Pool keeps all it is
// given until two garbage collections pass, and a reload storm gave it
// gigabytes, which stayed for minutes in a process whose heap grows slowly
// between collections (docs/BENCHMARKS.md, "Hostile files, edits and
// clients").
var onePage = make(chan *[pageSize]byte, maxPooledPages)

type probeMemory struct {
	buf    []byte
	region []byte // the reserved region once the memory has moved there
	max    uint64
	pooled bool // buf came from, and may go back to, onePage
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
	} else if m.pooled && cap(m.buf) == pageSize {
		page := (*[pageSize]byte)(m.buf[:pageSize])
		select {
		case onePage <- page:
		default: // full: the collector takes it
		}
	}
	m.buf, m.region = nil, nil
}

// Context is ctx for instantiating a probe: its memory comes from this
// package's allocator.
func Context(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, probeAllocator{})
}
