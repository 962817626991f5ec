package host

import (
	"errors"
	"net"
	"net/http"
)

// Failure is what the host saw go wrong in a host call it made on a probe's
// behalf: the variable was not set, the peer refused the connection, the
// grants refused the request. The engine turns the last one of a run into
// the stable code of an unavailable answer (runtime.Code), so that the code
// comes from what the host observed, not from the words of the probe's
// reason. A probe's own bugs (a bad address, a bad handle) and the host's
// bounds are not failures of the thing probed and are not recorded.
type Failure uint8

// The failures the host records, one per kind of host observation.
const (
	FailNone         Failure = iota
	FailEnvMissing           // gate.env, or a secret's variable: not set
	FailNotFound             // gate.import: not importable; a dial's name: no such host
	FailDenied               // the grants refused the request
	FailRefused              // the peer refused the connection
	FailTimeout              // no connection or answer in time
	FailUnreachable          // no route, or no permission to reach the socket
	FailTLS                  // the TLS handshake or the certificate's verification failed
	FailClosed               // the peer reset or broke the connection, or spoke broken HTTP
	FailAuthRejected         // an HTTP response 401 or 403, or 407 from a proxy

	// FailuresEnd is one past the last failure, for a test that covers
	// them all.
	FailuresEnd
)

// observe records f as the run's last failure.
func (c *Call) observe(f Failure) {
	if f != FailNone {
		c.failure = f
	}
}

// LastFailure returns the last failure the host observed in the run, or
// FailNone.
func (c *Call) LastFailure() Failure { return c.failure }

// statusFailure is the failure a v2 call's status says the host saw, or
// FailNone for a status that is the probe's doing or a host bound.
func statusFailure(status int32) Failure {
	switch status {
	case StatusRefused:
		return FailRefused
	case StatusTimedOut:
		return FailTimeout
	case StatusUnreachable:
		return FailUnreachable
	case StatusTLS:
		return FailTLS
	case StatusClosed:
		return FailClosed
	}
	return FailNone
}

// dialFailure is the failure behind a dial's status: a name that does not
// resolve is "not found", where the ABI can only say "unreachable".
func dialFailure(status int32, err error) Failure {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return FailNotFound
	}
	return statusFailure(status)
}

// responseFailure is the failure an HTTP response's status code shows:
// the peer answered, and rejected the credentials.
func responseFailure(code int) Failure {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired:
		return FailAuthRejected
	}
	return FailNone
}
