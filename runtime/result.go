package runtime

import (
	"time"

	"github.com/gate-dev/gate/hostfuncs"
)

// Outcome is the answer of one probe run.
type Outcome uint8

const (
	// Available: the tool can run now (the probe answered 0).
	Available Outcome = iota
	// Unavailable: the tool cannot run now, and the probe said so (it
	// answered 1), usually with a reason. An honest "no" is final for its
	// TTL and never served from last-good.
	Unavailable
	// Failed: the probe raised: it trapped, overran its budget, misused
	// the ABI or answered nonsense. Result.Err says which.
	Failed
)

func (o Outcome) String() string {
	switch o {
	case Available:
		return "available"
	case Unavailable:
		return "unavailable"
	default:
		return "error"
	}
}

// Result is what one run of a probe produced.
type Result struct {
	Outcome Outcome
	// Reason is why, in one line: the probe's own reason; else, for an
	// unavailable probe, the first request the grants refused; for a failed
	// run, the error.
	Reason string
	// Err is a *ProbeError when Outcome is Failed, else nil.
	Err error
	// Elapsed runs from the moment the probe started running (it held an
	// execution slot) to its answer; the budget applies to it.
	Elapsed time.Duration
	// Queued is how long the run waited for an execution slot first.
	Queued time.Duration
	// Fresh is true when the run instantiated the module, false when it
	// reused a live instance.
	Fresh bool
	// Denials lists every request the grants refused, as sentences naming
	// the probe; Denied lists the same requests, one field each.
	Denials []string
	Denied  []hostfuncs.Denial
	// Notes are what the host learned answering that status codes cannot
	// carry, e.g. "py: python \"python3\" not found on PATH".
	Notes []string
	// Logs are the probe's gate.log entries (at most host.MaxLogs).
	Logs        []hostfuncs.LogEntry
	LogsDropped int
	// Output is the probe's stdout and stderr, bounded (the start and the
	// end are kept); a Go probe's panic only shows up here.
	Output string
	// Late is true when the answer came after the budget on the wall clock
	// because the machine kept the run off the CPU: the run itself used
	// less than its budget of CPU and I/O waits, so its answer stands
	// (see Probe.Run). Elapsed is then over the budget, by at most ten
	// budgets.
	Late bool
	// Code is the answer's stable reason when it is not available (see
	// Code); "" when available.
	Code Code
}
