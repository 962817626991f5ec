package manifest

import "math"

// Limits bounds what Load and Parse accept, so that a hostile or broken
// manifest (a generated file gone wrong, /dev/zero, a million-key table)
// is refused with a positioned error instead of taking the process's
// memory or minutes of CPU. A zero field means the default of
// DefaultLimits; a negative one means no limit (only for a host that
// trusts its manifests: the caps are what keep loading linear).
//
// gate is built for manifests of up to 10,000 tools, and loading stays
// linear past that (docs/MANIFEST.md, "Scale"). The defaults are far
// above any real manifest (a 10,000-tool manifest with a description, a
// probe and a two-property parameters schema per tool is 3.6 MB and
// 170,000 values, and parses in about a tenth of a second of one core
// with 59 MB allocated; see docs/BENCHMARKS.md) and far below what hurts:
// at the defaults, the worst manifest this package accepts loads in
// seconds.
type Limits struct {
	// MaxBytes caps the manifest file's size. Default 16 MiB: more than
	// 4 times a 10,000-tool manifest with parameters.
	MaxBytes int64
	// MaxValues caps the keys plus array elements in the whole document,
	// the tables and [[...]] entries included. Default 1,000,000, 6 times
	// a 10,000-tool manifest; what loading allocates grows with it (about
	// 400 bytes each, up to 2 KB in schemas that only the JSON Schema
	// library can vouch for: see fastmeta.go), and go-toml's parser
	// holds a whole array in memory (about 110 bytes an element), which
	// is why this one is also checked on the raw bytes first.
	MaxValues int
	// MaxKeysPerTable caps the keys one table holds directly (its dotted
	// keys' first parts, its sub-tables, an inline table's keys). Default
	// 10,000: no manifest table needs more, and a generated file gone
	// wrong is refused at the first key over, with its position.
	MaxKeysPerTable int
	// MaxArrayLen caps the elements of one array (an inline array, or an
	// array of tables other than [[tools]] and [[servers]], which
	// MaxTools and MaxServers cap). Default 100,000: an enum that long is
	// already useless to a model.
	MaxArrayLen int
	// MaxTools and MaxServers cap the [[tools]] and [[servers]] entries.
	// Default 500,000 each, the bound MaxValues already sets (a tool is
	// at least two values, its entry and its name, so the default
	// MaxValues admits 499,999): the tools a manifest may hold are bounded
	// by its bytes and values, which bound memory, not by a count of
	// their own. What a tool costs grows linearly
	// (TestParseScalesLinearly): a tool of the quickstart's shape (a
	// name, a description, a one-property parameters schema, an env
	// probe; 187 bytes of TOML) allocates about 5.4 KB while it is parsed
	// and the Manifest keeps about 250 B of it; with a two-property
	// schema (360 bytes) 5.9 KB and 250 B. A Gate adds about 0.9 KB a
	// probed tool while it idles (docs/BENCHMARKS.md). So 50,000 such
	// tools parse with 270-300 MB allocated, mostly garbage, and keep
	// about 60 MB with their Gate; a host that wants a tighter bound sets
	// these. MaxTools also caps one server's [[servers.tools]] rules (a
	// rule is about at least one tool), as MaxArrayLen does any array.
	MaxTools   int
	MaxServers int
	// MaxDescription caps a tool's or server's description, in bytes.
	// Default 64 KiB, about 16,000 tokens: a description goes into every
	// request that offers the tool, and one this long is a file pasted by
	// mistake (model APIs refuse or truncate far shorter ones).
	MaxDescription int
	// MaxKeyComparisons is no longer checked. It capped the comparisons
	// go-toml's duplicate-key check would make, which grow with the square
	// of a table's keys; the manifest's own decoder finds a key with a map
	// lookup, so its work is linear in the document, which the other caps
	// bound.
	//
	// Deprecated: not checked; setting it changes nothing.
	MaxKeyComparisons int64
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
	// Deprecated: Limits.MaxKeyComparisons is not checked.
	DefaultMaxKeyComparisons = 250_000_000
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
