package statusview

import (
	"errors"

	"github.com/gate-dev/gate/runtime"
)

// CodeInfo is a code as the JSON outputs show it (gatectl's --json, the
// HTTP API, the events, the gateway's error data): embedded as a
// pointer, it adds "code", "retryable" and "action" to an answer that is
// not available, and nothing to one that is.
type CodeInfo struct {
	Code      runtime.Code `json:"code"`
	Retryable bool         `json:"retryable"`
	Action    string       `json:"action"`
}

// Code returns c as the JSON outputs show it; nil for "" (available).
func Code(c runtime.Code) *CodeInfo {
	if c == "" {
		return nil
	}
	return &CodeInfo{Code: c, Retryable: c.Retryable(), Action: c.Action()}
}

// ErrorInfo is a run's error as reports show it: the "error" object of
// gatectl's --json outputs and of the HTTP API.
type ErrorInfo struct {
	// Kind is the ErrorKind ("trap", "overrun", ...), or "error" for an
	// error that is not a *runtime.ProbeError (a native probe's).
	Kind  string `json:"kind"`
	Phase string `json:"phase"`
	// During is the start phase when Phase is a host function called
	// from it.
	During  string `json:"during,omitempty"`
	Message string `json:"message"`
	// Detail is the full cause, with wazero's wasm stack trace.
	Detail string `json:"detail"`
}

// Error describes err; nil for nil.
func Error(err error) *ErrorInfo {
	if err == nil {
		return nil
	}
	var perr *runtime.ProbeError
	if errors.As(err, &perr) {
		return &ErrorInfo{Kind: perr.Kind.String(), Phase: perr.Phase, During: perr.During, Message: perr.Error(), Detail: perr.Detail()}
	}
	return &ErrorInfo{Kind: "error", Message: err.Error()}
}

// Event is a runtime.Event as /v1/events sends it: its Code as CodeInfo.
type Event struct {
	runtime.Event
	*CodeInfo
}

// NewEvent is e as /v1/events sends it.
func NewEvent(e runtime.Event) Event { return Event{e, Code(e.Code)} }

// Read is the event a client reads back, its Code from "code"
// (retryable and action follow from it).
func (e Event) Read() runtime.Event {
	ev := e.Event
	if e.CodeInfo != nil {
		ev.Code = e.CodeInfo.Code
	}
	return ev
}
