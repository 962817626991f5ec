package manifest

import "math"

// Limits bounds what Load and Parse accept, so that a hostile or broken
// manifest (a generated file gone wrong, /dev/zero, a million-key table)
// is refused with a positioned error instead of taking the process's
// memory or minutes of CPU. A zero field means the default of
// DefaultLimits; a negative one means no limit (only for a host that
// trusts its manifests: the caps are what keep loading linear).
//
// The defaults are far above any real manifest and far below what hurts;
// what a manifest costs to load grows linearly with its size
// (docs/MANIFEST.md, "Scale"; docs/BENCHMARKS.md).
type Limits struct {
	// MaxBytes caps the manifest file's size.
	MaxBytes int64
	// MaxValues caps the keys plus array elements in the whole document,
	// the tables and [[...]] entries included: what loading allocates
	// grows with it. go-toml's parser holds a whole array in memory, so
	// this one is also checked on the raw bytes before parsing.
	MaxValues int
	// MaxKeysPerTable caps the keys one table holds directly (its dotted
	// keys' first parts, its sub-tables, an inline table's keys).
	MaxKeysPerTable int
	// MaxArrayLen caps the elements of one array (an inline array, or an
	// array of tables other than [[tools]] and [[servers]], which
	// MaxTools and MaxServers cap).
	MaxArrayLen int
	// MaxTools and MaxServers cap the [[tools]] and [[servers]] entries.
	// Their defaults are the bound MaxValues already sets (a tool is at
	// least two values): the bytes and values, which bound memory, bound
	// the tools. MaxTools also caps one server's [[servers.tools]] rules.
	MaxTools   int
	MaxServers int
	// MaxDescription caps a tool's or server's description, in bytes: a
	// description goes into every request that offers the tool, and a
	// very long one is a file pasted by mistake.
	MaxDescription int
}

// The defaults of DefaultLimits.
const (
	DefaultMaxBytes        = 16 << 20
	DefaultMaxValues       = 1_000_000
	DefaultMaxKeysPerTable = 10_000
	DefaultMaxArrayLen     = 100_000
	DefaultMaxTools        = DefaultMaxValues / 2
	DefaultMaxServers      = DefaultMaxValues / 2
	DefaultMaxDescription  = 64 << 10
)

// DefaultLimits returns the limits Load and Parse apply.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:        DefaultMaxBytes,
		MaxValues:       DefaultMaxValues,
		MaxKeysPerTable: DefaultMaxKeysPerTable,
		MaxArrayLen:     DefaultMaxArrayLen,
		MaxTools:        DefaultMaxTools,
		MaxServers:      DefaultMaxServers,
		MaxDescription:  DefaultMaxDescription,
	}
}

// resolved returns l with zero fields set to their defaults and negative
// ones to "no limit" (the largest value of their type).
func (l Limits) resolved() Limits {
	d := DefaultLimits()
	pick := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return math.MaxInt
		}
		return v
	}
	pick64 := func(v, def int64) int64 {
		switch {
		case v == 0:
			return def
		case v < 0:
			// One less, so that "max+1" (read one byte past the cap to
			// notice a file that grew) does not overflow.
			return math.MaxInt64 - 1
		}
		return v
	}
	return Limits{
		MaxBytes:        pick64(l.MaxBytes, d.MaxBytes),
		MaxValues:       pick(l.MaxValues, d.MaxValues),
		MaxKeysPerTable: pick(l.MaxKeysPerTable, d.MaxKeysPerTable),
		MaxArrayLen:     pick(l.MaxArrayLen, d.MaxArrayLen),
		MaxTools:        pick(l.MaxTools, d.MaxTools),
		MaxServers:      pick(l.MaxServers, d.MaxServers),
		MaxDescription:  pick(l.MaxDescription, d.MaxDescription),
	}
}
