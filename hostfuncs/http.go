package hostfuncs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

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

// exchange is one gate.http request on its way: the parsed request and the
// facts its redirects are checked against.
type exchange struct {
	c *Call
	// net is c.Net, for the transport's dials, which may run on after the
	// run's Call is reset.
	net      *Net
	target   HTTPTarget
	insecure bool
	// secretHeaders are the headers whose values held a secret: sent again
	// only on a redirect to the same scheme, host and port.
	secretHeaders []string
	secretBody    bool
	denied        bool
	// slot is the socket slot reserved for the first connection.
	slot atomic.Pointer[socketSlot]
}

func (c *Call) http(ctx context.Context, raw []byte, flags, timeoutMS int32) int32 {
	if flags&^FlagInsecure != 0 {
		return c.fail(StatusBadRequest, "http: unknown flags")
	}
	// Counted as written, before anything else can fail: a probe retrying
	// bad requests in a loop spends its bound too.
	if !c.takeOut(len(raw)) {
		return StatusLimit
	}
	pr, err := parseHTTPRequest(raw)
	if err != nil {
		return c.fail(StatusBadRequest, "http: bad request: "+err.Error())
	}
	t, err := ParseHTTPTarget(pr.url)
	if err != nil {
		return c.fail(StatusBadRequest, "http: "+pr.url+": "+err.Error())
	}
	if !c.Policy.AllowHTTP(t) {
		return c.denyNet("http", pr.url)
	}
	x := &exchange{c: c, net: c.Net, target: t, insecure: flags&FlagInsecure != 0 && t.Scheme == "https"}
	if x.insecure {
		if hp := t.Addr(); !c.Policy.AllowInsecure(hp) {
			return c.denyNet("insecure", hp)
		}
	}
	if c.inLeft() <= 0 {
		return c.fail(StatusLimit, "http: "+errBytesIn)
	}
	if !c.canOpen() {
		return StatusLimit
	}
	req, status := x.build(pr)
	if status != StatusOK {
		return status
	}
	d, ok := c.clip(timeoutMS)
	if !ok {
		return c.fail(StatusTimedOut, "http: "+pr.url+": no time left in the budget")
	}
	var resp *response
	c.wait(ctx, "gate.http", true, func(ctx context.Context) {
		ctx, cancel := c.netContext(ctx, d)
		defer cancel()
		resp, err = x.do(ctx, req, d)
	})
	if err != nil {
		status := httpStatus(err)
		return c.fail(status, httpErrorText(err))
	}
	return c.net.add(&handle{resp: resp})
}

// build makes the request: secrets substituted in header values, body and
// query (query-escaped there).
func (x *exchange) build(pr httpRequest) (*http.Request, int32) {
	c := x.c
	t := x.target
	query, status, why := c.substituteEscaped([]byte(t.RawQuery), url.QueryEscape)
	if status != StatusOK {
		return nil, c.fail(status, why)
	}
	body, status, why := c.substitute(pr.body)
	if status != StatusOK {
		return nil, c.fail(status, why)
	}
	x.secretBody = !bytes.Equal(body, pr.body)
	u := t.Scheme + "://" + unixHost
	if t.Unix == "" {
		u = t.Scheme + "://" + hostInURL(t)
	}
	u += t.Path
	if len(query) > 0 {
		u += "?" + string(query)
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return nil, c.fail(StatusBadRequest, "http: "+pr.url+": "+err.Error())
	}
	req := &http.Request{
		Method:     pr.method,
		URL:        parsed,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     make(http.Header, len(pr.header)+1),
		Host:       parsed.Host,
	}
	if t.Unix != "" {
		req.Host = "localhost"
	}
	if len(body) > 0 {
		req.ContentLength = int64(len(body))
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	for _, h := range pr.header {
		switch h.name {
		case "Host", "Content-Length", "Transfer-Encoding", "Connection":
			// The host writes these itself (docs/ABI.md).
			continue
		}
		v, status, why := c.substitute([]byte(h.value))
		if status != StatusOK {
			return nil, c.fail(status, why)
		}
		if string(v) != h.value {
			x.secretHeaders = append(x.secretHeaders, h.name)
			if hasCTL(string(v)) {
				// A value with a line break would split the header.
				return nil, c.fail(StatusBadRequest, "http: "+pr.url+": header "+h.name+": a secret's value holds control characters")
			}
		}
		req.Header.Add(h.name, string(v))
	}
	if _, ok := req.Header["User-Agent"]; !ok {
		req.Header.Set("User-Agent", "gate-probe")
	}
	return req, StatusOK
}

// hostInURL is the target's host and port as a URL writes them.
func hostInURL(t HTTPTarget) string {
	host := t.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if (t.Scheme == "http" && t.Port == 80) || (t.Scheme == "https" && t.Port == 443) {
		return host
	}
	return host + ":" + strconv.Itoa(int(t.Port))
}

// do sends the request and reads the response: the head (MaxHTTPHead at
// most), then MaxHTTPBody of the body at most, and closes the connection
// without reading more.
func (x *exchange) do(ctx context.Context, req *http.Request, d time.Duration) (*response, error) {
	c := x.c
	release, err := x.reserveSocket(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	tr := &http.Transport{
		DisableKeepAlives:      true,
		DialContext:            x.dial,
		TLSClientConfig:        c.tlsConfig("", x.insecure),
		MaxResponseHeaderBytes: MaxHTTPHead,
		ResponseHeaderTimeout:  d,
		TLSHandshakeTimeout:    d,
		ForceAttemptHTTP2:      false,
	}
	if c.Net != nil && c.Net.Proxy && x.target.Unix == "" {
		// Not for a unix socket: no proxy reaches it. A redirect from one
		// to a TCP URL goes direct too, as the first request did.
		tr.Proxy = http.ProxyFromEnvironment
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, CheckRedirect: x.checkRedirect}
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	left := c.inLeft()
	if left <= 0 {
		return nil, errBytesInBound
	}
	// The window read is the same whatever the secrets are: MaxHTTPBody
	// and room for a value that starts before the cut to end inside it.
	// The whole window is redacted and the redacted text is cut, so a
	// value that spans the cut is never half shown, and neither what is
	// kept nor whether the body counts as whole depends on a value's
	// length (a window sized by the longest value would tell it).
	limit := min(int64(MaxHTTPBody+MaxSecret), left+MaxSecret)
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, err
	}
	ended := int64(len(raw)) < limit // the body ended inside what was read
	body := c.redact(raw)
	whole := ended && len(body) <= MaxHTTPBody
	body = body[:min(len(body), MaxHTTPBody)]
	c.countIn(len(body))
	r := &response{status: resp.StatusCode, body: body, header: make(http.Header, len(resp.Header))}
	head := len(resp.Status) + len("HTTP/1.1 \r\n\r\n")
	for k, vs := range resp.Header {
		v := string(c.redact([]byte(strings.Join(vs, ", "))))
		r.header[k] = []string{v}
		head += len(k) + len(v) + 4
	}
	// The head counts as the probe can read it, redacted, as the body
	// does: a raw count would let a probe that reads up to the bound tell
	// how long an echoed value is.
	c.countIn(head)
	if c.redactorFor() != nil && resp.Header.Get("Content-Length") != "" {
		// The peer's count would tell the length of a secret it echoed in
		// the body; the probe gets the length of what it can read, or none.
		delete(r.header, "Content-Length")
		if whole {
			r.header.Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	if resp.TLS != nil {
		// The last request's host: a redirect may have gone elsewhere.
		r.tls = c.tlsFactsOf(*resp.TLS, resp.Request.URL.Hostname(), x.insecure)
	}
	return r, nil
}

var errBytesInBound = errors.New(errBytesIn)

// dial connects the transport: the unix socket for unixHost, else the
// address the URL names, which the grants allowed (or the proxy's, which
// the manifest allowed).
func (x *exchange) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if host, _, _ := net.SplitHostPort(addr); host == unixHost && x.target.Unix != "" {
		return x.dialHeld(ctx, "unix", x.target.Unix)
	}
	return x.dialHeld(ctx, network, addr)
}

// checkRedirect follows at most MaxRedirects redirects, each granted as the
// first request was; one that is not is not followed, and its own 3xx is
// the answer. Headers that held a secret (and Authorization and Cookie,
// whatever they held) go only to the same scheme, host and port.
func (x *exchange) checkRedirect(req *http.Request, via []*http.Request) error {
	c := x.c
	if len(via) > MaxRedirects {
		return http.ErrUseLastResponse
	}
	raw := req.URL.String()
	if req.URL.Hostname() == unixHost && x.target.Unix != "" {
		raw = "unix:" + x.target.Unix + ":" + req.URL.RequestURI()
	}
	t, err := ParseHTTPTarget(raw)
	if err != nil || !c.Policy.AllowHTTP(t) {
		c.deny("http", c.Redact(raw))
		return http.ErrUseLastResponse
	}
	if x.insecure && t.Scheme == "https" && !c.Policy.AllowInsecure(t.Addr()) {
		c.deny("insecure", t.Addr())
		return http.ErrUseLastResponse
	}
	if t.Scheme != x.target.Scheme || t.Host != x.target.Host || t.Port != x.target.Port || t.Unix != x.target.Unix {
		if x.secretBody && req.GetBody != nil {
			// A 307 or 308 would send the body, secret and all, to
			// somebody else.
			return http.ErrUseLastResponse
		}
		for _, h := range x.secretHeaders {
			req.Header.Del(h)
		}
		for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
			req.Header.Del(h)
		}
	}
	return nil
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
// whose URL holds the substituted query.
func httpErrorText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
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
