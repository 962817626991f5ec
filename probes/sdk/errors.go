package sdk

// This file has no build tag: the constants and errors mean the same on
// every platform, and so they can be unit-tested on the host.

import "strconv"

// Probe results, returned from the exported probe function: gate.h's
// GATE_AVAILABLE, GATE_UNAVAILABLE and GATE_ERROR.
const (
	// Available means the tool can run.
	Available int32 = 0
	// Unavailable means the tool can't run; say why with Reason.
	Unavailable int32 = 1
	// Failed means the probe itself failed and cannot tell (its config is
	// wrong, the service answered something it does not understand, a wait
	// ran out): say why with Reason. The run is an error, as a trap is:
	// its reason reads `probe "NAME" raised: REASON`, and the registry
	// serves the tool's last good answer through its grace window, which it
	// never does for Unavailable. Any answer other than 0, 1 and 2 is an
	// error too, whose reason adds "(status N)"; 2 without a Reason reads
	// `probe "NAME" returned 2 (want 0 available or 1 unavailable)`.
	Failed int32 = 2
)

// Level is the severity of a Log line.
type Level int32

// Log levels, as the ABI numbers them.
const (
	LevelDebug Level = 0
	LevelInfo  Level = 1
	LevelWarn  Level = 2
	LevelError Level = 3
)

// Error is a negative status from a host function. Compare with errors.Is
// against the Err* values; its text is short ("connection refused") so
// that it reads well in a reason such as addr + ": " + err.Error().
type Error struct {
	// Status is the raw status the host returned (always negative).
	Status int32
	text   string
}

// Error returns the status in words.
func (e *Error) Error() string { return e.text }

// Is reports whether target is an *Error with the same status and meaning.
// The ABI reuses numbers across functions (-1 is "not set" from Env and
// "not found" from Import), so the status alone is not enough.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status && t.text == e.text
}

// The statuses host functions answer with.
var (
	// ErrNotSet: Env found no such environment variable.
	ErrNotSet = &Error{-1, "not set"}
	// ErrNotFound: Import found nothing for the spec.
	ErrNotFound = &Error{-1, "not found"}
	// ErrDenied: the probe's grants don't allow the request. The host has
	// already recorded a reason naming what was denied.
	ErrDenied = &Error{-2, "denied"}
	// ErrRefused: Dial's connection was refused.
	ErrRefused = &Error{-3, "connection refused"}
	// ErrTimeout: Dial timed out (or ran out of budget).
	ErrTimeout = &Error{-4, "timed out"}
	// ErrUnreachable: Dial found the address unreachable or could not
	// resolve the name.
	ErrUnreachable = &Error{-5, "unreachable or name not resolved"}
	// ErrBadAddress: Dial's address is not "host:port" or "unix:/path".
	ErrBadAddress = &Error{-6, "bad address"}
	// ErrUnknownScheme: Import's spec has a scheme the host doesn't know.
	ErrUnknownScheme = &Error{-6, "unknown scheme"}

	// ABI v2: streams (Connect) and HTTP.

	// ErrBadRequest: HTTP's request is malformed (the SDK checks most of
	// it before asking the host, and answers this too).
	ErrBadRequest = &Error{-6, "bad request"}
	// ErrLimit: a per-run bound is reached: 8 handles open at once, 32
	// opened in all, 64 KiB sent or 1 MiB received.
	ErrLimit = &Error{-7, "limit reached"}
	// ErrTLS: the TLS handshake failed or the peer's certificate was not
	// verified; the error's detail (LastError) says why.
	ErrTLS = &Error{-8, "TLS failed"}
	// ErrClosed: the peer reset the connection, closed it before the
	// whole request went out, or spoke broken HTTP. (A clean end of a
	// stream is io.EOF from Read, not this.)
	ErrClosed = &Error{-9, "connection closed by peer"}
	// ErrBadHandle: the Conn or Response is closed, or was never opened
	// in this run.
	ErrBadHandle = &Error{-10, "bad handle"}
	// ErrNotTLS: TLS was asked of a plain stream or an http: response.
	ErrNotTLS = &Error{-1, "not TLS"}
)

// CallError is a failed ABI v2 call: the status, as one of the Err*
// values (so errors.Is(err, sdk.ErrRefused) works), and the host's own
// words for it from gate.last_error, such as "x509: certificate signed by
// unknown authority". The host redacts secrets from them.
type CallError struct {
	// Err is the status, one of the Err* values or an *Error for a status
	// this SDK does not know.
	Err error
	// Detail is what gate.last_error said, or what the SDK found wrong
	// with a request before it asked the host; "" if nothing.
	Detail string
}

// Error is the status in words, then the detail in parentheses:
// "TLS failed (x509: certificate signed by unknown authority)".
func (e *CallError) Error() string {
	if e.Detail == "" {
		return e.Err.Error()
	}
	return e.Err.Error() + " (" + e.Detail + ")"
}

// Unwrap returns the status, for errors.Is and errors.As.
func (e *CallError) Unwrap() error { return e.Err }

// Known statuses of each ABI v2 call, in the order docs/ABI.md lists them.
var (
	connectErrors = []*Error{ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress, ErrLimit, ErrTLS}
	sendErrors    = []*Error{ErrNotSet, ErrDenied, ErrTimeout, ErrLimit, ErrClosed, ErrBadHandle}
	recvErrors    = []*Error{ErrTimeout, ErrLimit, ErrClosed, ErrBadHandle}
	httpErrors    = []*Error{ErrNotSet, ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadRequest, ErrLimit, ErrTLS, ErrClosed}
	handleErrors  = []*Error{ErrBadHandle}
	tlsErrors     = []*Error{ErrNotTLS, ErrBadHandle}
)

// statusError maps a negative status to the matching error among known
// (the errors the calling host function can answer), or to a new *Error
// for a status this SDK doesn't know (from a newer host).
func statusError(status int32, known ...*Error) error {
	for _, e := range known {
		if e.Status == status {
			return e
		}
	}
	return &Error{status, "status " + strconv.Itoa(int(status))}
}
