package sdk

// This file has no build tag: the constants and errors mean the same on
// every platform, and so they can be unit-tested on the host.

import "strconv"

// Probe results, returned from the exported probe function.
const (
	// Available means the tool can run.
	Available int32 = 0
	// Unavailable means the tool can't run; say why with Reason.
	Unavailable int32 = 1
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
