package runtime

import (
	"context"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/host"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
)

// ErrorKind says how a probe run failed. Every kind is an *error* outcome
// ("the probe raised"), never "unavailable": the registry may serve a tool's
// last good answer through an error, but not through an honest "no".
type ErrorKind uint8

const (
	// KindTrap: the guest trapped: unreachable, an out-of-bounds access, a
	// stack overflow, a Go panic or "fatal error: out of memory".
	KindTrap ErrorKind = iota + 1
	// KindOverrun: the run reached its budget. errors.Is(err,
	// context.DeadlineExceeded) holds.
	KindOverrun
	// KindCanceled: the run was stopped before it answered: the caller's
	// context ended first (errors.Is(err, context.Canceled) or
	// DeadlineExceeded holds, as for the context), its probe or engine is
	// being closed (ErrClosed), or the host had no socket to give a
	// gate.dial (a *host.SocketsError, or EMFILE).
	KindCanceled
	// KindABI: the probe misused a host function, e.g. passed a pointer
	// outside its memory.
	KindABI
	// KindStatus: the probe answered something other than 0 (available)
	// or 1 (unavailable).
	KindStatus
	// KindBusy: the host could not give the run what it needed in time (a
	// CPU after a wait, within the run's late limit, or a place among the
	// runs in flight before the caller's deadline): an answer about the
	// host, not the probe or its peer. errors.Is(err, ErrHostBusy) holds.
	KindBusy
)

func (k ErrorKind) String() string {
	switch k {
	case KindTrap:
		return "trap"
	case KindOverrun:
		return "overrun"
	case KindCanceled:
		return "canceled"
	case KindABI:
		return "abi"
	case KindStatus:
		return "status"
	case KindBusy:
		return "busy"
	}
	return fmt.Sprintf("ErrorKind(%d)", uint8(k))
}

// ProbeError is the error of a run whose outcome is Failed.
type ProbeError struct {
	Probe string
	Kind  ErrorKind
	// Phase is where it happened: "instantiate", "_initialize", "probe" or
	// "_start", or a host function such as "gate.dial" for an overrun.
	Phase string
	// During is the start phase ("instantiate", "_initialize", "_start")
	// that was running when Phase names a host function; "" in "probe".
	During string
	// Budget is the budget the run had, for overrun messages.
	Budget time.Duration
	// Status is the answer of a KindStatus error: the return value or exit code.
	Status int64
	// Reason is the reason the probe set before it answered a KindStatus
	// error: a probe that raises on purpose (2: GATE_ERROR in C,
	// sdk.Failed in Go, gate.ERROR in AssemblyScript) says why.
	Reason string
	// Stderr is the last line of the probe's output that explains a trap
	// (a Go panic's "panic: ..." line), if any.
	Stderr string
	// Err is the cause: wazero's error with its wasm stack trace, a
	// *host.MemoryError, context.DeadlineExceeded, ...
	Err error
}

func (e *ProbeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "probe %q ", e.Probe)
	switch e.Kind {
	case KindOverrun:
		fmt.Fprintf(&b, "ran past its %v budget in %s", e.Budget, e.Phase)
		if e.During != "" {
			fmt.Fprintf(&b, " during %s", e.During)
		}
	case KindCanceled:
		fmt.Fprintf(&b, "canceled in %s", e.Phase)
		if e.During != "" {
			fmt.Fprintf(&b, " during %s", e.During)
		}
		fmt.Fprintf(&b, ": %v", e.Err)
	case KindBusy:
		fmt.Fprintf(&b, "was not run in time in %s: the host had no CPU or run slot free", e.Phase)
	case KindStatus:
		switch {
		case e.Reason != "" && e.Status == 2:
			fmt.Fprintf(&b, "raised: %s", e.Reason)
		case e.Reason != "":
			fmt.Fprintf(&b, "raised: %s (status %d)", e.Reason, e.Status)
		case e.Phase == "_start":
			fmt.Fprintf(&b, "exited with code %d (want 0 available or 1 unavailable)", e.Status)
		default:
			fmt.Fprintf(&b, "returned %d (want 0 available or 1 unavailable)", e.Status)
		}
	case KindABI:
		fmt.Fprintf(&b, "misused the ABI in %s: %s", e.Phase, firstLine(e.Err))
	default:
		fmt.Fprintf(&b, "trapped in %s: %s", e.Phase, firstLine(e.Err))
	}
	if e.Stderr != "" {
		fmt.Fprintf(&b, " (stderr: %s)", e.Stderr)
	}
	return b.String()
}

// Unwrap returns the cause, so errors.Is(err, context.DeadlineExceeded)
// holds for an overrun and errors.As finds wazero's *sys.ExitError.
func (e *ProbeError) Unwrap() error { return e.Err }

// Is makes every overrun match context.DeadlineExceeded, even one noticed
// after the fact (a guest that finished late without reaching a check).
func (e *ProbeError) Is(target error) bool {
	return e.Kind == KindOverrun && target == context.DeadlineExceeded
}

// Detail is the full cause, with wazero's wasm stack trace when it has
// one, at most 8 KiB of it, with control characters replaced:
// it reaches terminals, JSON reports and HTTP responses. The host's own Go
// stack, which wazero appends for a Go runtime error, is left out.
func (e *ProbeError) Detail() string {
	if e.Err == nil {
		return ""
	}
	s := e.Err.Error()
	if i := strings.Index(s, goStackMarker); i >= 0 {
		s = strings.TrimRight(s[:i], "\n")
	}
	if len(s) > maxDetail {
		s = clip(s, maxDetail) + "\n... (cut)"
	}
	return safetext.Clean(s, true)
}

// maxDetail bounds ProbeError.Detail. wazero's traces show at most 30
// frames, and the engine cuts every function name in them to 128 bytes.
const maxDetail = 8 << 10

// goStackMarker begins the host stack trace that wazero adds to the error
// of a host function that hit a Go runtime error.
const goStackMarker = "Go runtime stack trace:"

func firstLine(err error) string {
	if err == nil {
		return "unknown error"
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, " (recovered by wazero)")
	if len(s) > 512 {
		s = clip(s, 512) + "…"
	}
	return safetext.Clean(s, false)
}

// LoadError is why a probe module could not be loaded: the file is not
// WebAssembly, breaks the probe ABI, or does not compile. It names the module
// and lists every problem at once.
type LoadError struct {
	Module string // the file path or the name given to Compile
	Errs   []error
}

func (e *LoadError) Error() string {
	if len(e.Errs) == 1 {
		return fmt.Sprintf("probe module %s: %v", e.Module, e.Errs[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "probe module %s: %d problems:", e.Module, len(e.Errs))
	for _, err := range e.Errs {
		fmt.Fprintf(&b, "\n  - %v", err)
	}
	return b.String()
}

// Unwrap returns every problem, for errors.Is and errors.As.
func (e *LoadError) Unwrap() []error { return e.Errs }

func joinErrors(what string, errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %w", what, errors.Join(errs...))
}

// The errors a Gate, its registries, probes and Service return, for
// errors.Is.
var (
	// ErrClosed is the cause of a run, compile or warm-up refused because its
	// engine or probe was closed, and of one stopped midway by a Close. It is
	// host.ErrStopped, so errors.Is matches whichever layer noticed.
	ErrClosed = host.ErrStopped
	// ErrHostBusy is the cause of a run that failed because the host could not
	// give it a CPU, or a place among the runs in flight, in time (KindBusy).
	ErrHostBusy = host.ErrHostBusy
	// ErrStillRunning is the error of a native probe run that found an earlier
	// run, which overran, still going.
	ErrStillRunning = errors.New("the previous run overran and is still going")
	// ErrExists is returned by Register for a name that is taken.
	ErrExists = errors.New("already registered")
	// ErrSuspectEdit is wrapped by the error a Service's reload (the
	// watcher's or Reload's) gives for an edit that looks like a file caught
	// half-written, which it refuses to load:
	//
	//   - every tool and server is gone: an editor that truncates before it
	//     writes leaves a moment when the file is empty, and an empty file is
	//     a valid manifest that offers nothing;
	//   - a tool or server that had a probe has none: a file cut after a
	//     tool's name is valid too, and a tool without a probe is offered as
	//     always available, so a half-written file would fail open.
	//
	// The watcher also waits for the file to settle first; this catches what
	// settling cannot (an editor that paused mid-write, a copy in two steps, a
	// SIGHUP sent while the file was being written). To make such a change on
	// purpose, start the service again: a new process has no "before".
	ErrSuspectEdit = errors.New("refused: the edit looks half-written")
)
