package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// Errors of CheckBind, for errors.Is.
var (
	// ErrRemoteNotAllowed: the address is reachable from other machines
	// and binding there was not explicitly allowed.
	ErrRemoteNotAllowed = errors.New("needs --allow-remote")
	// ErrRemoteNeedsToken: the address is reachable from other machines
	// and no bearer token is configured.
	ErrRemoteNeedsToken = errors.New("needs a bearer token (--token-file or GATE_TOKEN)")
)

// CheckBind says whether the API may listen on addr ("host:port"). A
// loopback address (127.0.0.0/8, ::1, "localhost") is only reachable from
// this machine and needs nothing. Any other address, including an empty
// host, 0.0.0.0 and ::, which listen on every interface, exposes the
// service to the network: it needs allowRemote and a non-empty token, and
// the error names what is missing.
func CheckBind(addr string, allowRemote bool, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: want HOST:PORT: %w", addr, err)
	}
	if isLoopback(host) {
		return nil
	}
	var missing []error
	if !allowRemote {
		missing = append(missing, ErrRemoteNotAllowed)
	}
	if token == "" {
		missing = append(missing, ErrRemoteNeedsToken)
	}
	if len(missing) == 0 {
		return nil
	}
	where := host
	if host == "" || net.ParseIP(host).IsUnspecified() {
		where = "every interface (" + strings.TrimSpace(addr) + ")"
	}
	return &BindError{Addr: addr, Where: where, Missing: missing}
}

// BindError is why CheckBind refused an address.
type BindError struct {
	Addr    string
	Where   string
	Missing []error // ErrRemoteNotAllowed, ErrRemoteNeedsToken
}

func (e *BindError) Error() string {
	parts := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		parts[i] = m.Error()
	}
	return fmt.Sprintf("listening on %s exposes gate beyond this machine: %s (loopback, e.g. 127.0.0.1:7311, needs neither)",
		e.Where, strings.Join(parts, " and "))
}

// Unwrap returns what is missing, for errors.Is.
func (e *BindError) Unwrap() []error { return e.Missing }

// isLoopback reports whether host is a loopback name or address.
// "localhost" is taken at its word (RFC 6761 reserves it for loopback);
// any other name may resolve anywhere, so it is not.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	host, _, _ = strings.Cut(host, "%") // a zone, as in ::1%lo
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
