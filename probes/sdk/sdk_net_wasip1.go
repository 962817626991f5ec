//go:build wasip1

package sdk

import (
	"io"
	"time"
	"unsafe"
)

// The ABI v2 imports: streams, HTTP, TLS facts and the host's last error.
// Each call below is one host call; none allocates on the host's side of
// the probe's memory.

//go:wasmimport gate connect
//go:noescape
func gateConnect(addr unsafe.Pointer, addrLen uint32, flags int32, timeoutMS int32) int32

//go:wasmimport gate send
//go:noescape
func gateSend(handle int32, buf unsafe.Pointer, bufLen uint32) int32

//go:wasmimport gate recv
//go:noescape
func gateRecv(handle int32, buf unsafe.Pointer, bufCap uint32, timeoutMS int32) int32

//go:wasmimport gate close
func gateClose(handle int32) int32

//go:wasmimport gate http
//go:noescape
func gateHTTP(req unsafe.Pointer, reqLen uint32, flags int32, timeoutMS int32) int32

//go:wasmimport gate http_status
func gateHTTPStatus(handle int32) int32

//go:wasmimport gate http_header
//go:noescape
func gateHTTPHeader(handle int32, name unsafe.Pointer, nameLen uint32, buf unsafe.Pointer, bufCap uint32) int32

//go:wasmimport gate http_body
//go:noescape
func gateHTTPBody(handle int32, buf unsafe.Pointer, bufCap uint32) int32

//go:wasmimport gate tls
//go:noescape
func gateTLS(handle int32, out unsafe.Pointer) int32

//go:wasmimport gate last_error
//go:noescape
func gateLastError(buf unsafe.Pointer, bufCap uint32) int32

// flagInsecure is GATE_INSECURE.
const flagInsecure int32 = 1

// bytesPtr passes b as a (pointer, length) pair; an empty b passes a nil
// pointer, which the host never reads.
func bytesPtr(b []byte) (unsafe.Pointer, uint32) {
	if len(b) == 0 {
		return nil, 0
	}
	return unsafe.Pointer(&b[0]), uint32(len(b))
}

// fail builds the error of a failed call: the status among known, and the
// host's words for it (one more host call, gate.last_error). A denial
// needs no words: the host has recorded its own reason.
func fail(status int32, known []*Error) error {
	err := statusError(status, known...)
	if status == ErrDenied.Status {
		return &CallError{Err: err}
	}
	return &CallError{Err: err, Detail: LastError()}
}

// LastError returns the host's words for why the run's last failed call
// failed, such as "x509: certificate signed by unknown authority" or "dial
// tcp 127.0.0.1:6379: connect: connection refused" (at most 512 bytes,
// secrets redacted), or "" if none failed. The errors of Connect, HTTP and
// the Conn methods carry it already, as CallError.Detail.
func LastError() string {
	var buf [512]byte
	n := gateLastError(unsafe.Pointer(&buf[0]), uint32(len(buf)))
	if n <= 0 {
		return ""
	}
	return string(buf[:min(int(n), len(buf))])
}

// ConnectOption changes how Connect connects.
type ConnectOption func(*connectOptions)

type connectOptions struct {
	flags   int32
	timeout time.Duration
}

// WithInsecure skips TLS verification of a "tls:" address. The probe needs
// an insecure grant for the address, or Connect fails with ErrDenied.
// Conn.TLS still tells whether verification would have passed.
func WithInsecure() ConnectOption {
	return func(o *connectOptions) { o.flags |= flagInsecure }
}

// WithTimeout bounds the connection and the TLS handshake; the default,
// 0, means as long as the budget allows. The host clips any timeout to
// what is left of the budget, less a reserve for the probe to answer.
func WithTimeout(d time.Duration) ConnectOption {
	return func(o *connectOptions) { o.timeout = d }
}

// Conn is a stream to a service, opened by Connect. It is an io.Reader and
// an io.Writer. A Conn is not safe for concurrent use (a probe has one
// goroutine's worth of host anyway).
//
// Each method is one host call. The host closes every Conn when the run
// ends; Close frees its handle sooner (a run holds 8 at most).
type Conn struct {
	handle      int32
	readTimeout time.Duration
}

// Connect opens a stream to addr: "host:port" ("[::1]:6379" for IPv6),
// "unix:/path" or "tls:host:port" (TLS with SNI, verified against the
// system roots or the probe's tls_ca). The address must be granted by a
// dial grant ("tls:host:port" by one for "host:port").
//
// It fails with ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable,
// ErrBadAddress, ErrLimit (8 handles open, or 32 opened this run) or ErrTLS,
// each wrapped in a *CallError with the host's words.
func Connect(addr string, opts ...ConnectOption) (*Conn, error) {
	var o connectOptions
	for _, opt := range opts {
		opt(&o)
	}
	p, n := str(addr)
	h := gateConnect(p, n, o.flags, millis(o.timeout))
	if h <= 0 {
		if h == 0 { // not an answer the ABI has; never a handle
			h = ErrBadAddress.Status
		}
		return nil, fail(h, connectErrors)
	}
	return &Conn{handle: h}, nil
}

// Write sends all of p, with each ${secret:NAME} in it replaced by the
// secret's value (see Secret); a placeholder split across two Writes is
// sent as written. It returns len(p) or fails with ErrNotSet (a named
// secret is not set), ErrDenied (a named secret not granted, or not bound
// to this stream's address), ErrTimeout, ErrLimit (64 KiB out per run,
// each placeholder counted as the most its value can put on the wire),
// ErrClosed or ErrBadHandle, and then nothing was sent.
func (c *Conn) Write(p []byte) (int, error) {
	if c.handle == 0 {
		return 0, &CallError{Err: ErrBadHandle, Detail: "Conn is closed"}
	}
	if len(p) == 0 {
		return 0, nil
	}
	ptr, n := bytesPtr(p)
	got := gateSend(c.handle, ptr, n)
	if got < 0 {
		return 0, fail(got, sendErrors)
	}
	return int(got), nil
}

// WriteString is Write for a string, without copying it.
func (c *Conn) WriteString(s string) (int, error) {
	return c.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Read receives what has arrived, up to len(p) bytes, waiting at most the
// read timeout (SetReadTimeout). Secrets' values are already replaced by
// their placeholders. At the end of the stream it returns io.EOF; it fails
// with ErrTimeout (nothing arrived in time; the Conn stays usable),
// ErrLimit (1 MiB in per run), ErrClosed (reset) or ErrBadHandle.
func (c *Conn) Read(p []byte) (int, error) {
	if c.handle == 0 {
		return 0, &CallError{Err: ErrBadHandle, Detail: "Conn is closed"}
	}
	if len(p) == 0 {
		return 0, nil
	}
	ptr, n := bytesPtr(p)
	got := gateRecv(c.handle, ptr, n, millis(c.readTimeout))
	switch {
	case got == 0:
		return 0, io.EOF
	case got < 0:
		return 0, fail(got, recvErrors)
	}
	return int(got), nil
}

// SetReadTimeout sets how long each later Read waits for something to
// arrive; 0 (the default) means as long as the budget allows. It is not a
// host call.
func (c *Conn) SetReadTimeout(d time.Duration) { c.readTimeout = d }

// TLS reports on a "tls:" stream. It fails with ErrNotTLS for a plain
// stream and ErrBadHandle once closed.
func (c *Conn) TLS() (TLSState, error) { return tlsOf(c.handle) }

// Close closes the stream and frees its handle. Closing twice fails with
// ErrBadHandle.
func (c *Conn) Close() error {
	return closeHandle(&c.handle, "Conn")
}

func closeHandle(h *int32, what string) error {
	if *h == 0 {
		return &CallError{Err: ErrBadHandle, Detail: what + " is closed"}
	}
	status := gateClose(*h)
	*h = 0
	if status < 0 {
		return fail(status, handleErrors)
	}
	return nil
}

func tlsOf(h int32) (TLSState, error) {
	if h == 0 {
		return TLSState{}, &CallError{Err: ErrBadHandle, Detail: "closed"}
	}
	var out [16]byte
	status := gateTLS(h, unsafe.Pointer(&out[0]))
	if status < 0 {
		return TLSState{}, &CallError{Err: statusError(status, tlsErrors...)}
	}
	return tlsState(status, &out), nil
}

// Response is the answer to HTTP: its status, the kept part of its body,
// and its headers and TLS facts on demand. It holds a handle until Close
// or the end of the run.
type Response struct {
	// Status is the status code, 100 to 599.
	Status int
	// Body is the first 64 KiB of the body (the host never reads more),
	// with secrets' values replaced by their placeholders.
	Body   []byte
	handle int32
}

// HTTP makes one request and returns its response: three host calls
// (gate.http, gate.http_status, gate.http_body), one more for each Header
// and TLS. Redirects are followed within the http grants, 5 at most; a
// redirect that is not granted is the response (a 3xx with its Location).
// Any status is a response, not an error: the probe decides what 401 or
// 503 means.
//
// The request is checked first (see Request); then it fails with
// ErrNotSet (a named secret is not set), ErrDenied (the URL not granted, a
// secret not granted or not bound to the URL, or Insecure not granted), ErrRefused, ErrTimeout, ErrUnreachable,
// ErrBadRequest, ErrLimit (handles or bytes), ErrTLS or ErrClosed (reset,
// or broken HTTP), each wrapped in a *CallError with the host's words.
func HTTP(req Request) (*Response, error) {
	text, err := req.text()
	if err != nil {
		return nil, err
	}
	var flags int32
	if req.Insecure {
		flags |= flagInsecure
	}
	p, n := bytesPtr(text)
	h := gateHTTP(p, n, flags, millis(req.Timeout))
	if h <= 0 {
		if h == 0 {
			h = ErrBadRequest.Status
		}
		return nil, fail(h, httpErrors)
	}
	r := &Response{handle: h, Status: int(gateHTTPStatus(h))}
	body, status := read(func(buf unsafe.Pointer, cap uint32) int32 { return gateHTTPBody(h, buf, cap) })
	if status < 0 {
		err := fail(status, handleErrors)
		gateClose(h)
		return nil, err
	}
	r.Body = body
	return r, nil
}

// Header returns the response header name (case-insensitive; several
// values joined with ", "), or "" if it is absent. One host call.
func (r *Response) Header(name string) string {
	v, _ := r.LookupHeader(name)
	return v
}

// LookupHeader is Header that tells an absent header from an empty one.
func (r *Response) LookupHeader(name string) (string, bool) {
	if r.handle == 0 {
		return "", false
	}
	p, n := str(name)
	v, status := read(func(buf unsafe.Pointer, cap uint32) int32 { return gateHTTPHeader(r.handle, p, n, buf, cap) })
	return string(v), status >= 0
}

// TLS reports on an https response (of the last URL, after redirects). It
// fails with ErrNotTLS for http and unix URLs and ErrBadHandle once closed.
func (r *Response) TLS() (TLSState, error) { return tlsOf(r.handle) }

// Close frees the response's handle; Status and Body stay readable.
func (r *Response) Close() error {
	return closeHandle(&r.handle, "Response")
}

// read runs a call that answers like gate.env (the full length, min(len,
// cap) bytes copied) with a buffer that grows to the length once.
func read(f func(buf unsafe.Pointer, cap uint32) int32) ([]byte, int32) {
	buf := make([]byte, 4096)
	for {
		got := f(unsafe.Pointer(&buf[0]), uint32(len(buf)))
		if got < 0 {
			return nil, got
		}
		if int(got) <= len(buf) {
			return buf[:got:got], 0
		}
		buf = make([]byte, got)
	}
}
