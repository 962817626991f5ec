// Package limits holds the bounds that more than one package enforces: the
// manifest refuses a value past them where its author wrote it, and the
// engine refuses it again from a Go host app that never wrote a manifest.
// One definition each, so the two can never disagree. Their reasons are
// documented where users read them (the manifest's keys, docs/ABI.md).
package limits

import "time"

// MaxBudget is the hard maximum of a probe run, from the moment the probe
// starts running (not while it queues) to its answer. It covers
// instantiation, start functions, the entry point and every host call. A
// configuration may lower it, never raise it: a probe answers a question at
// schema-build time, and a schema build that waits longer is broken.
const MaxBudget = 100 * time.Millisecond

// PageSize is a WebAssembly page.
const PageSize = 64 << 10

// The bounds of a probe instance's memory cap: one page, and all that a
// 32-bit module can address.
const (
	MinMemory = PageSize
	MaxMemory = 4 << 30
)
