package sdk

// This file has no build tag: what the SDK writes and reads around the
// host calls (the HTTP request text, timeouts, TLS facts) is plain Go, so
// it is unit-tested on the host.

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/httptoken"
)

// Bounds of ABI v2 the SDK checks before it asks the host, so that a
// request that cannot be sent fails with a detail naming the part at fault.
// The host enforces them in any case, and more (docs/ABI.md, "Version 2").
const (
	// MaxRequest is the longest request text gate.http reads, headers
	// and body included.
	MaxRequest = 64 << 10
	// MaxRequestBody is the longest request body.
	MaxRequestBody = 16 << 10
	// MaxBody is how much of a response body the host keeps.
	MaxBody = 64 << 10
)

// Request is one HTTP request for HTTP. The zero Method is GET.
type Request struct {
	// Method is an HTTP method ("GET", "POST", ...); "" means GET.
	Method string
	// URL is "http://host[:port]/path[?query]", "https://..." or
	// "unix:/path/to.sock:/path[?query]" (HTTP over a unix socket, such as
	// Docker's). It must be granted by the probe's http grants as written.
	// ${secret:NAME} may appear in the query only.
	URL string
	// Header holds request headers, sent in the order of their names
	// (the host adds Host, Content-Length and, unless set here,
	// User-Agent). Values may hold ${secret:NAME} placeholders; see
	// Secret.
	Header map[string]string
	// Body is sent as is (at most 16 KiB); it may hold placeholders too.
	Body []byte
	// Insecure skips TLS verification; the probe needs an insecure grant
	// for the address, or HTTP fails with ErrDenied.
	Insecure bool
	// Timeout bounds the whole exchange, redirects included; 0 means as
	// long as the budget allows. The host clips it to the budget.
	Timeout time.Duration
}

// text writes the request as gate.http reads it: "METHOD URL", one
// "Name: value" line per header, an empty line and the body. It checks
// what would make the text mean something else (a newline in a header, a
// space in the URL) and answers a *CallError wrapping ErrBadRequest whose
// detail names the part at fault.
func (r *Request) text() ([]byte, error) {
	method := r.Method
	if method == "" {
		method = "GET"
	}
	if !httptoken.Valid(method) {
		return nil, badRequest("method " + strconv.Quote(method) + " is not an HTTP token")
	}
	if r.URL == "" {
		return nil, badRequest("no URL")
	}
	if i := strings.IndexFunc(r.URL, isSpaceOrControl); i >= 0 {
		return nil, badRequest("URL " + strconv.Quote(r.URL) + " has a space or control character")
	}
	if len(r.Body) > MaxRequestBody {
		return nil, badRequest("body is " + strconv.Itoa(len(r.Body)) + " bytes, more than 16 KiB")
	}
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	n := len(method) + 1 + len(r.URL) + 2 + len(r.Body)
	for _, name := range names {
		value := r.Header[name]
		if !httptoken.Valid(name) {
			return nil, badRequest("header name " + strconv.Quote(name) + " is not an HTTP token")
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, badRequest("header " + name + ": value has a line break or NUL")
		}
		n += len(name) + 2 + len(value) + 1
	}
	if n > MaxRequest {
		return nil, badRequest("request is " + strconv.Itoa(n) + " bytes, more than 64 KiB")
	}
	b := make([]byte, 0, n)
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, r.URL...)
	b = append(b, '\n')
	for _, name := range names {
		b = append(b, name...)
		b = append(b, ": "...)
		b = append(b, r.Header[name]...)
		b = append(b, '\n')
	}
	b = append(b, '\n')
	b = append(b, r.Body...)
	return b, nil
}

func badRequest(detail string) error {
	return &CallError{Err: ErrBadRequest, Detail: detail}
}

func isSpaceOrControl(r rune) bool { return r <= ' ' || r == 0x7f }

// Secret returns the placeholder "${secret:NAME}" for a secret the probe
// is granted. Put it where the value belongs (a Write, a header value, a
// request body or query): the host substitutes the value on the way out
// and turns the value back into the placeholder in everything that comes
// in, so the probe never sees it. The value is not read here; a secret
// that is not set or not granted fails the call that sends it, with
// ErrNotSet or ErrDenied.
func Secret(name string) string { return "${secret:" + name + "}" }

// millis converts a timeout to the ABI's milliseconds: <= 0 is 0 (as long
// as the budget allows), anything positive rounds up, so that a timeout
// under 1 ms never becomes "forever".
func millis(d time.Duration) int32 {
	if d <= 0 {
		return 0
	}
	ms := d / time.Millisecond
	if d%time.Millisecond != 0 {
		ms++ // not d+999µs: that overflows near the largest Duration
	}
	return int32(min(ms, math.MaxInt32))
}

// TLSState is what the host tells of a TLS connection: a "tls:" stream or
// an https response.
type TLSState struct {
	// Verified is true when the peer's chain and name were verified; it is
	// false only after an insecure connection (which would have failed).
	Verified bool
	// NotAfter is when the peer's leaf certificate expires.
	NotAfter time.Time
	// Left is how long until NotAfter, as the host saw it; negative once
	// the certificate has expired.
	Left time.Duration
}

// tlsState reads gate.tls's answer: the status and the 16 bytes it wrote
// (NotAfter in Unix seconds, then the seconds left, little-endian i64).
func tlsState(status int32, out *[16]byte) TLSState {
	notAfter := int64(binary.LittleEndian.Uint64(out[0:8]))
	left := int64(binary.LittleEndian.Uint64(out[8:16]))
	const maxSeconds = math.MaxInt64 / int64(time.Second)
	left = max(min(left, maxSeconds), -maxSeconds)
	return TLSState{
		Verified: status == 1,
		NotAfter: time.Unix(notAfter, 0).UTC(),
		Left:     time.Duration(left) * time.Second,
	}
}
