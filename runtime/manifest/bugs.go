package manifest

import (
	"runtime/debug"
	"sync"
)

// A recover in this package sees one of two things. A panic with
// declined{} or a *tomlError is the fast path giving up on a document (see
// decline, refuse): a decision, made on purpose, that sends the document
// to the full path.
// Anything else (an index out of range, a nil map, an invariant of
// go-toml's or of the JSON Schema library's) is a bug. A config file must
// never take a gateway down, so the recover still falls back, to the full
// path or to an error; but a bug must not pass for a decline either,
// where all it would cost is a slower load that no test notices. So
// recordBug counts it and keeps its value and stack, and the package's
// tests fail on any bug recorded while they ran (TestMain, and every fuzz
// target after each input: checkNoBugs).

// bug is a panic recovered as a bug: where it was recovered, its value,
// and the stack that raised it.
type bug struct {
	where string
	value any
	stack []byte
}

// maxKeptBugs is how many bugs are kept, value and stack, until taken: a
// process that hits the same bug on every reload counts them all but
// keeps only the first few.
const maxKeptBugs = 8

// bugs are the bugs recovered: total counts every one since the process
// started; kept are the first not yet taken, and dropped counts the
// others not yet taken.
var bugs struct {
	mu      sync.Mutex
	total   int64
	kept    []bug
	dropped int
}

// recordBug records r, a panic recovered in where that is not a decline.
// It must be called by the deferred function that recovered r: the stack
// is still the one that panicked until that function returns.
func recordBug(where string, r any) {
	stack := debug.Stack()
	bugs.mu.Lock()
	defer bugs.mu.Unlock()
	bugs.total++
	if len(bugs.kept) < maxKeptBugs {
		bugs.kept = append(bugs.kept, bug{where, r, stack})
	} else {
		bugs.dropped++
	}
}

// fastRecovered classifies r, a panic the fast path recovered in where: a
// decline or a document go-toml refuses (whose message the full path
// gives) needs nothing more, anything else is a bug and is recorded.
// Either way the caller gives up and the full path decides.
func fastRecovered(where string, r any) {
	switch r.(type) {
	case declined, *tomlError:
	default:
		recordBug(where, r)
	}
}

// takeBugs returns the bugs kept since the last call and how many more
// there were, and forgets them.
func takeBugs() (kept []bug, dropped int) {
	bugs.mu.Lock()
	defer bugs.mu.Unlock()
	kept, dropped = bugs.kept, bugs.dropped
	bugs.kept, bugs.dropped = nil, 0
	return kept, dropped
}

// bugCount is how many bugs the process has recovered.
func bugCount() int64 {
	bugs.mu.Lock()
	defer bugs.mu.Unlock()
	return bugs.total
}

// fault, when set (by tests alone), is called at the points of both paths
// that a recover covers, named by where ("decode", "chunk", "check",
// "full"), so that a test can put a bug there and see what becomes of it
// (TestBugsAreFailures). It is read without a lock: it must only be set
// while nothing parses.
var fault func(where string)
