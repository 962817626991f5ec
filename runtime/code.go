package runtime

import (
	"context"
	"errors"

	"github.com/gate-dev/gate/internal/host"
)

// Code is the stable reason of an answer that is not "available", for a
// program to act on: one of a closed set (Codes), each with whether asking
// again later may give another answer (Retryable) and what a person can do
// (Action). The human reason (Result.Reason, Status.Reason) says the
// particulars; the code never changes with its words.
//
// The code of an unavailable answer comes from what the host observed on
// the probe's behalf, not from the probe's reason: the last failure of a
// host call in the run (a variable not set, a connection refused, a
// request the grants refused, an HTTP 401). The last one is taken because
// a probe that tries several things answers after the one that decided
// it; a probe that answers unavailable with no failure observed (a Redis
// that rejects a password, a native probe) has CodeUnavailable. The code of
// an error comes from its ErrorKind.
type Code string

// The codes; codeTable holds what each one means.
const (
	CodeEnvMissing   Code = "env_missing"
	CodeNotFound     Code = "not_found"
	CodeDenied       Code = "denied"
	CodeRefused      Code = "refused"
	CodeTimeout      Code = "timeout"
	CodeUnreachable  Code = "unreachable"
	CodeTLS          Code = "tls"
	CodeClosed       Code = "closed"
	CodeAuthRejected Code = "auth_rejected"
	CodeUnavailable  Code = "unavailable"
	CodeOverrun      Code = "overrun"
	CodeProbeRaised  Code = "probe_raised"
	CodeProbeError   Code = "probe_error"
	CodeCanceled     Code = "canceled"
	CodeHostBusy     Code = "host_busy"
	CodeUpstreamDown Code = "upstream_down"
	CodeBreakerOpen  Code = "breaker_open"
	CodeNotOffered   Code = "not_offered"
	CodeNoSuchTool   Code = "no_such_tool"
	// The codes of a pinned MCP server's tools (pin in the manifest).
	CodeDefinitionChanged Code = "definition_changed"
	CodeNotLocked         Code = "not_locked"
	CodeLockInvalid       Code = "lock_invalid"
)

// codeRow is one code: what it means, whether it is retryable, what to do,
// and which host observation or error kind it is the code of.
type codeRow struct {
	code      Code
	retryable bool
	meaning   string
	action    string
	failure   host.Failure // the host observation it is the code of, if any
	kinds     []ErrorKind  // the error kinds it is the code of, if any
}

// codeTable is the closed set of codes, in the order the docs list them.
// Retryable says whether the same question may get another answer later
// with nobody changing anything: a service that restarts answers again; a
// variable nobody sets stays unset.
var codeTable = []codeRow{
	{CodeEnvMissing, false, "an environment variable the probe reads (a secret's too) is not set",
		"Set the variable named in the reason in the environment gate runs in, then restart gate.", host.FailEnvMissing, nil},
	{CodeNotFound, false, "a binary, library, module or host name the probe looked up does not exist",
		"Install what the reason names, or correct its name in the manifest.", host.FailNotFound, nil},
	{CodeDenied, false, "the tool's grants refused a request its probe made",
		"Grant the request named in the reason in the tool's grants, or correct the probe's address.", host.FailDenied, nil},
	{CodeRefused, true, "the connection was refused: nothing listens at the address",
		"Start the service, or correct its address in the manifest.", host.FailRefused, nil},
	{CodeTimeout, true, "the service did not connect or answer in time",
		"Check that the service is up and not overloaded, or raise the probe's timeout.", host.FailTimeout, nil},
	{CodeUnreachable, true, "no route to the service, or no permission to reach its socket",
		"Check the network path to the service, or the socket's permissions.", host.FailUnreachable, nil},
	{CodeTLS, false, "the TLS handshake or the verification of the service's certificate failed",
		"Check the service's certificate, or give the probe the CA that signed it (tls_ca).", host.FailTLS, nil},
	{CodeClosed, true, "the service reset or broke the connection, or spoke broken HTTP",
		"Check the service's log: it dropped the connection.", host.FailClosed, nil},
	{CodeAuthRejected, false, "the service rejected the credentials (HTTP 401, 403 or 407)",
		"Check the credentials in the variables the tool's secrets name.", host.FailAuthRejected, nil},
	{CodeUnavailable, false, "the probe answered unavailable and the host observed no failure: the reason says why",
		"Read the reason: it names what is missing.", host.FailNone, nil},
	{CodeOverrun, true, "the probe ran past its budget",
		"Check that the service answers quickly, or raise the probe's budget.", host.FailNone, []ErrorKind{KindOverrun}},
	{CodeProbeRaised, true, "the probe raised (answered neither available nor unavailable) and the host observed no failure",
		"Read the reason: the probe says what it could not tell; a status other than 2 is a bug in the probe.", host.FailNone, []ErrorKind{KindStatus}},
	{CodeProbeError, false, "the probe trapped or misused the host's functions: a bug in the probe",
		"Fix the probe: the error's detail says where it failed.", host.FailNone, []ErrorKind{KindTrap, KindABI}},
	{CodeCanceled, true, "the run stopped before it answered: the caller gave up, gate was closing, or the host had no socket to spare",
		"Ask again.", host.FailNone, []ErrorKind{KindCanceled}},
	{CodeHostBusy, true, "the host had no CPU or run slot free for the probe in time: it says nothing about the tool",
		"Ask again; if it recurs, give gate more CPU, or lower runtime.max_runs.", host.FailNone, []ErrorKind{KindBusy}},
	{CodeUpstreamDown, true, "the MCP server behind the tool is not connected (connecting, down or stopped)",
		"Check the server's command or URL and gate's log; gate reconnects by itself.", host.FailNone, nil},
	{CodeBreakerOpen, true, "the MCP server's recent calls failed in a row, so its tools are hidden until its probe says available",
		"Check the server; its tools return once its probe says available.", host.FailNone, nil},
	{CodeNotOffered, false, "the MCP server's tool is malformed, too large, or named as another server's tool, so gate never offers it",
		"Fix the tool's definition in the MCP server, or set a prefix on one of the servers whose tools share a name.", host.FailNone, nil},
	{CodeNoSuchTool, false, "gate offers no tool of that name",
		"Call a tool that tools/list returns.", host.FailNone, nil},
	{CodeDefinitionChanged, false, "the pinned MCP server's tool changed (title, description, schemas or annotations) since its definition was locked",
		"Review the tool's new definition; if you accept it, run gatectl mcp lock SERVER.", host.FailNone, nil},
	{CodeNotLocked, false, "the MCP server is pinned strictly and the lock file has no entry for the tool",
		"Review the tool; if you accept it, run gatectl mcp lock SERVER.", host.FailNone, nil},
	{CodeLockInvalid, false, "the lock file of the pinned MCP server's tools cannot be read or is malformed, so none of its tools is offered",
		"Fix the lock file at the line the reason names, or remove it and run gatectl mcp lock.", host.FailNone, nil},
}

// Codes returns every code, in the order the docs list them.
func Codes() []Code {
	out := make([]Code, len(codeTable))
	for i, r := range codeTable {
		out[i] = r.code
	}
	return out
}

func (c Code) row() *codeRow {
	for i := range codeTable {
		if codeTable[i].code == c {
			return &codeTable[i]
		}
	}
	return nil
}

// Retryable reports whether asking again later may give another answer
// with nobody changing anything; false for a code not in the set.
func (c Code) Retryable() bool {
	r := c.row()
	return r != nil && r.retryable
}

// Action is what a person can do about an answer with this code; "" for a
// code not in the set.
func (c Code) Action() string {
	if r := c.row(); r != nil {
		return r.action
	}
	return ""
}

// Meaning is what the code says, in one line; "" for a code not in the set.
func (c Code) Meaning() string {
	if r := c.row(); r != nil {
		return r.meaning
	}
	return ""
}

// codeOfFailure is the code of an unavailable answer after the host
// observed f (CodeUnavailable for none).
func codeOfFailure(f host.Failure) Code {
	for _, r := range codeTable {
		if f != host.FailNone && r.failure == f {
			return r.code
		}
	}
	return CodeUnavailable
}

// codeOfError is the code of a failed run's error: its ErrorKind's for a
// *ProbeError; for another error (a native probe's), overrun for a deadline,
// canceled for a cancellation, probe_error for a panic, else probe_raised:
// the probe could not tell.
func codeOfError(err error) Code {
	var perr *ProbeError
	var panicked panicError
	switch {
	case errors.As(err, &panicked):
		return CodeProbeError
	case errors.As(err, &perr):
		for _, r := range codeTable {
			for _, k := range r.kinds {
				if k == perr.Kind {
					return r.code
				}
			}
		}
		return CodeProbeError
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrStillRunning):
		return CodeOverrun
	case errors.Is(err, context.Canceled), errors.Is(err, ErrClosed):
		return CodeCanceled
	}
	return CodeProbeRaised
}

// codeOf is the code of an answer, "" when available: for an unavailable
// one, the last failure the host observed (f); for an error, its kind's,
// except that a probe that raised on purpose after the host observed a
// failure (a Redis probe raises on a connection that timed out) has that
// failure's code, which says more than "the probe could not tell".
func codeOf(o Outcome, f host.Failure, perr *ProbeError) Code {
	switch {
	case o == Available:
		return ""
	case o == Unavailable:
		return codeOfFailure(f)
	case perr == nil:
		return CodeProbeError
	case perr.Kind == KindStatus && f != host.FailNone:
		return codeOfFailure(f)
	}
	return codeOfError(perr)
}

// codeIfHidden is c for an answer that is not listed, "" for one that is:
// a graced answer is listed, and its error's code is no reason of the
// event's.
func codeIfHidden(available bool, c Code) Code {
	if available {
		return ""
	}
	return c
}
