package host

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tetratelabs/wazero/api"
)

// unixHost is the host of a request URL that gate.http sends over a unix
// socket: the transport dials the socket for it. ".invalid" is reserved
// (RFC 2606), so no real host can be mistaken for it.
const unixHost = "unix-socket.invalid"

// response is a gate.http response: what the probe may read, every part
// of it redacted.
type response struct {
	status int
	header http.Header
	body   []byte
	tls    *tlsFacts
}

// hostHTTP is gate.http(req_ptr, req_len, flags, timeout_ms) -> i32.
func hostHTTP(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.http")
	ptr, n := api.DecodeU32(stack[0]), api.DecodeU32(stack[1])
	var status int32
	if n > MaxHTTPRequest {
		view(m, "gate.http", "request", ptr, n) // a bad range still traps
		status = c.fail(StatusBadRequest, "http: the request is "+strconv.Itoa(int(n))+" bytes; at most "+strconv.Itoa(MaxHTTPRequest))
	} else {
		req := view(m, "gate.http", "request", ptr, n)
		status = c.http(ctx, req, api.DecodeI32(stack[2]), api.DecodeI32(stack[3]))
	}
	stack[0] = api.EncodeI32(status)
	c.Check(ctx, "gate.http")
}

// httpStatus maps an exchange's error to the ABI's codes.
func httpStatus(err error) int32 {
	var op *net.OpError
	switch {
	case errors.Is(err, errBytesInBound):
		return StatusLimit
	case errors.As(err, &op) && op.Op == "dial":
		s := dialStatus(err)
		if s == StatusUnreachable && isTimeout(err) {
			s = StatusTimedOut
		}
		return s
	case isTLSError(err):
		return StatusTLS
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), isTimeout(err):
		return StatusTimedOut
	}
	return StatusClosed
}

// httpErrorText is the error without net/http's "Get \"URL\": " wrapper,
// whose URL holds the substituted query (or a redirect's, which the peer
// wrote). Nothing the peer wrote is quoted: a Location net/http could not
// parse is named, and a line it could not read is left out.
func httpErrorText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "failed to parse Location header") {
		return "a redirect's Location is not a URL"
	}
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		// net/http quotes what the peer sent that it could not read (a
		// status line, a header line), in the peer's own spelling, which
		// may be a value's: the host's words stop where the quote begins.
		return strings.TrimRight(msg[:i], " :") + " (what the peer sent is left out)"
	}
	return msg
}

// hostHTTPStatus is gate.http_status(handle) -> i32.
func hostHTTPStatus(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.http_status")
	if r := c.response(api.DecodeI32(stack[0])); r != nil {
		stack[0] = api.EncodeI32(int32(r.status))
	} else {
		stack[0] = api.EncodeI32(StatusBadHandle)
	}
	c.Check(ctx, "gate.http_status")
}

// hostHTTPHeader is gate.http_header(handle, name_ptr, name_len, buf_ptr,
// buf_cap) -> i32.
func hostHTTPHeader(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.http_header")
	key, ok := name(m, "gate.http_header", "name", api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	buf := view(m, "gate.http_header", "buf", api.DecodeU32(stack[3]), api.DecodeU32(stack[4]))
	r := c.response(api.DecodeI32(stack[0]))
	switch {
	case r == nil:
		stack[0] = api.EncodeI32(StatusBadHandle)
	case !ok:
		stack[0] = api.EncodeI32(StatusNotFound)
	default:
		if vs := r.header.Values(key); len(vs) > 0 {
			stack[0] = api.EncodeI32(copyOut(buf, vs[0]))
		} else {
			stack[0] = api.EncodeI32(StatusNotFound)
		}
	}
	c.Check(ctx, "gate.http_header")
}

// hostHTTPBody is gate.http_body(handle, buf_ptr, buf_cap) -> i32.
func hostHTTPBody(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.http_body")
	buf := view(m, "gate.http_body", "buf", api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	if r := c.response(api.DecodeI32(stack[0])); r != nil {
		copy(buf, r.body)
		stack[0] = api.EncodeI32(int32(len(r.body)))
	} else {
		stack[0] = api.EncodeI32(StatusBadHandle)
	}
	c.Check(ctx, "gate.http_body")
}

// response returns the HTTP response behind a handle, or nil.
func (c *Call) response(id int32) *response {
	h := c.lookup(id)
	if h == nil {
		return nil
	}
	if h.resp == nil {
		c.setLastError("handle " + strconv.Itoa(int(id)) + " is a stream, not an HTTP response")
		return nil
	}
	return h.resp
}
