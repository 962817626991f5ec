package host

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/grants"
)

// exchange is one gate.http request on its way: the parsed request and the
// facts its redirects are checked against.
type exchange struct {
	c *Call
	// net is c.Net, for the transport's dials, which may run on after the
	// run's Call is reset.
	net *Net
	// first is the request's own URL, current the one the last request
	// (after redirects) went to.
	first, current HTTPTarget
	insecure       bool
	// proxy is the transport's proxy function, nil for none.
	proxy func(*http.Request) (*url.URL, error)
	// carried is the set of secrets whose values have reached an origin
	// of this exchange's chain: those the request held, and those the run
	// had sent to an origin a redirect came from. No redirect goes on to a
	// destination one of them is not bound to (checkRedirect).
	carried SecretSet
	// headerCost is what each header line the probe wrote costs the
	// bytes-out bound, bodyCost what its body costs (placeholderCost):
	// charged again for each redirect that sends them again.
	headerCost map[string]int
	bodyCost   int
	// askedGzip is set when the host asked for gzip itself (see
	// decodeBody): the probe set no Accept-Encoding.
	askedGzip bool
	// slot is the socket slot reserved for the first connection.
	slot atomic.Pointer[socketSlot]
}

// reshapes reports whether a request header asks for a response's bytes
// to come back otherwise than as text the value may be found in: encoded
// (Accept-Encoding other than identity, TE), in part (Range, If-Range), or
// in a charset other than UTF-8 (Accept-Charset, or a charset parameter
// of Accept: a string written in UTF-16 holds no byte sequence of the
// value's). Redaction would then look for a value in bytes that do not
// hold it as it is, or hold part of it. In a run granted secrets the probe
// may not send them; the host asks for gzip itself and decodes it before
// redaction.
func reshapes(h headerLine) bool {
	switch h.name {
	case "Accept-Encoding":
		return !strings.EqualFold(strings.TrimSpace(h.value), "identity")
	case "Range", "If-Range", "Te":
		return true
	case "Accept-Charset":
		for _, cs := range strings.Split(h.value, ",") {
			if name, _, _ := strings.Cut(cs, ";"); !isUTF8(name) {
				return true
			}
		}
	case "Accept":
		for _, media := range strings.Split(h.value, ",") {
			params := strings.Split(media, ";")
			for _, p := range params[1:] {
				if k, v, _ := strings.Cut(p, "="); strings.EqualFold(strings.TrimSpace(k), "charset") && !isUTF8(strings.Trim(strings.TrimSpace(v), `"`)) {
					return true
				}
			}
		}
	}
	return false
}

// isUTF8 reports whether a charset name is UTF-8.
func isUTF8(name string) bool {
	name = strings.TrimSpace(name)
	return strings.EqualFold(name, "utf-8") || strings.EqualFold(name, "utf8")
}

func (c *Call) http(ctx context.Context, raw []byte, flags, timeoutMS int32) int32 {
	if status, cut := c.cutOff("http"); cut {
		return status
	}
	if flags&^FlagInsecure != 0 {
		return c.fail(StatusBadRequest, "http: unknown flags")
	}
	// Counted as written, each placeholder at the most its value can take
	// (placeholderCost), before anything else can fail: a probe retrying
	// bad requests in a loop spends its bound too.
	if !c.takeOut(placeholderCost(raw, 1)) {
		return StatusLimit
	}
	pr, err := parseHTTPRequest(raw)
	if err != nil {
		return c.fail(StatusBadRequest, "http: bad request: "+err.Error())
	}
	t, err := grants.ParseHTTPTarget(pr.url)
	if err != nil {
		return c.fail(StatusBadRequest, "http: "+pr.url+": "+err.Error())
	}
	if !c.Policy.AllowHTTP(t) {
		return c.denyNet("http", pr.url)
	}
	if err := checkQueryEscapes(t.RawQuery); err != nil {
		return c.fail(StatusBadRequest, "http: "+pr.url+": "+err.Error())
	}
	x := &exchange{c: c, net: c.Net, first: t, current: t, insecure: flags&FlagInsecure != 0 && t.Scheme == "https"}
	if x.insecure {
		if hp := t.Addr(); !c.Policy.AllowInsecure(hp) {
			return c.denyNet("insecure", hp)
		}
	}
	if c.Policy.HasSecrets() {
		for _, h := range pr.header {
			if reshapes(h) {
				return c.fail(StatusBadRequest, "http: "+pr.url+": header "+h.name+" is refused in a run granted secrets: it would change the bytes redaction reads")
			}
		}
	}
	// A value escaped in the query may take three times its length.
	if !c.takeOut(placeholderCost([]byte(t.RawQuery), 2) - len(t.RawQuery)) {
		return StatusLimit
	}
	if c.inLeft() <= 0 || c.rawLeft() <= 0 {
		return c.fail(StatusLimit, "http: "+errBytesIn)
	}
	if !c.canOpen() {
		return StatusLimit
	}
	if c.Net != nil && c.Net.Proxy && t.Unix == "" {
		// Not for a unix socket: no proxy reaches it. A redirect from one
		// to a TCP URL goes direct too, as the first request did.
		x.proxy = http.ProxyFromEnvironment
		if c.Net.proxyFor != nil {
			x.proxy = c.Net.proxyFor
		}
	}
	req, status := x.build(pr)
	if status != StatusOK {
		return status
	}
	d, ok := c.clip("gate.http", timeoutMS)
	if !ok {
		return c.fail(StatusTimedOut, "http: "+pr.url+": no time left in the budget")
	}
	var resp *response
	c.wait(ctx, "gate.http", true, d, func(ctx context.Context) {
		ctx, cancel := c.workContext(ctx, d)
		defer cancel()
		resp, err = x.do(ctx, req)
	})
	if hit := (*echoHit)(nil); errors.As(err, &hit) {
		return c.withhold(hit.name, httpOrigin(x.current))
	}
	if err != nil {
		return c.failFrom(grants.HTTPDestination(x.current), httpOrigin(x.current), httpStatus(err), httpErrorText(err))
	}
	c.observe(responseFailure(resp.status))
	return c.net.add(&handle{resp: resp})
}

// checkQueryEscapes refuses a query that holds a placeholder and a '%'
// that does not begin a two-digit escape as the probe wrote it. The host
// query-escapes a value so that its destination decodes exactly the value;
// a '%' (or '%' and one hex digit) just before a placeholder would instead
// take the value's first escaped bytes as the end of an escape the probe
// began, and the destination would decode a byte of the probe's choosing
// and read the rest of the value raw: quoted back by a service that
// names the key it rejects, it is no longer the value redaction looks for.
func checkQueryEscapes(q string) error {
	if start, _, _ := nextPlaceholder([]byte(q), 0); start < 0 {
		return nil
	}
	for i := 0; i < len(q); i++ {
		if q[i] == '%' && (i+2 >= len(q) || !isHex(q[i+1]) || !isHex(q[i+2])) {
			return errors.New("a query that holds a ${secret:NAME} placeholder may hold '%' only as a two-digit escape, written whole: one it began would swallow the start of the value")
		}
	}
	return nil
}

// destination is where a request to t goes, for the secrets' bindings: a
// plain-http request through a proxy goes to the proxy too, which reads
// every header and the body, so no secret is bound to it.
func (x *exchange) destination(t HTTPTarget) Destination {
	d := grants.HTTPDestination(t)
	if x.proxy != nil && t.Scheme == "http" && t.Unix == "" {
		probe := &http.Request{URL: &url.URL{Scheme: "http", Host: hostInURL(t), Path: "/"}}
		if u, err := x.proxy(probe); err == nil && u != nil {
			d = d.ThroughProxy()
		}
	}
	return d
}

// build makes the request: secrets substituted in header values, body and
// query (query-escaped there), each bound to the request's URL.
func (x *exchange) build(pr httpRequest) (*http.Request, int32) {
	c := x.c
	t := x.first
	dest := x.destination(t)
	query, used, status, why := c.substitute([]byte(t.RawQuery), dest, url.QueryEscape)
	if status != StatusOK {
		return nil, c.fail(status, why)
	}
	x.bodyCost = placeholderCost(pr.body, 1)
	body, bodySecrets, status, why := c.substitute(pr.body, dest, nil)
	if status != StatusOK {
		return nil, c.fail(status, why)
	}
	used |= bodySecrets
	t.RawQuery = string(query)
	parsed, err := url.Parse(requestURL(t))
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
		Host:       requestHost(t, parsed),
	}
	if len(body) > 0 {
		req.ContentLength = int64(len(body))
		if bodySecrets != 0 {
			// A Content-Length the host computed would tell the value's
			// length to whoever reads the request's headers back (a peer
			// that echoes them): the body goes chunked, its length unsaid.
			req.ContentLength = -1
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	for _, h := range pr.header {
		switch h.name {
		case "Host", "Content-Length", "Transfer-Encoding", "Connection":
			// The host writes these itself (docs/ABI.md).
			continue
		}
		if x.headerCost == nil {
			x.headerCost = map[string]int{}
		}
		x.headerCost[h.name] += len(h.name) + len(": \r\n") + placeholderCost([]byte(h.value), 1)
		v, set, status, why := c.substitute([]byte(h.value), dest, nil)
		if status != StatusOK {
			return nil, c.fail(status, why)
		}
		if set != 0 {
			used |= set
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
	// The host asks for gzip itself, as Go's transport would, but decodes
	// it itself too (decodeBody): the transport reads only the first
	// Content-Encoding line and then deletes them all.
	if _, ok := req.Header["Accept-Encoding"]; !ok && req.Header.Get("Range") == "" && req.Method != http.MethodHead {
		req.Header.Set("Accept-Encoding", "gzip")
		x.askedGzip = true
	}
	c.markSentTo(t.Addr(), used)
	x.carried = used
	return req, StatusOK
}

// requestURL is the URL the host sends for t: what the grants matched,
// byte for byte, with unixHost for a socket.
func requestURL(t HTTPTarget) string {
	u := t.Scheme + "://" + unixHost
	if t.Unix == "" {
		u = t.Scheme + "://" + hostInURL(t)
	}
	u += t.Path
	if t.RawQuery != "" {
		u += "?" + t.RawQuery
	}
	return u
}

func requestHost(t HTTPTarget, u *url.URL) string {
	if t.Unix != "" {
		return "localhost"
	}
	return u.Host
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

// errEncoded is the failure of a response whose body redaction could not
// read.
type errEncoded string

func (e errEncoded) Error() string {
	return fmt.Sprintf("the response body is encoded (%s), which redaction cannot read; refused where a secret was sent", string(e))
}

// do sends the request and reads the response: the head (MaxHTTPHead at
// most), then MaxHTTPBody of the body at most (in redacted bytes), and
// closes the connection without reading more. ctx bounds it whole (see
// workContext): the transport's own timeouts would be the wall clock's.
func (x *exchange) do(ctx context.Context, req *http.Request) (*response, error) {
	c := x.c
	release, err := x.reserveSocket(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	tr := &http.Transport{
		DisableKeepAlives:      true,
		DialContext:            x.dial,
		DialTLSContext:         x.dialTLS,
		TLSClientConfig:        c.tlsConfig(ctx, "", x.tlsPeer, x.insecure),
		MaxResponseHeaderBytes: MaxHTTPHead,
		ForceAttemptHTTP2:      false,
		Proxy:                  x.proxy,
		// build asks for gzip and decodeBody undoes it.
		DisableCompression: true,
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
	r := c.redactorOf(c.scopeOf(x.destination(x.current)))
	decoded, err := x.decodeBody(resp, r != nil)
	if err != nil {
		return nil, err
	}
	body, whole, err := c.readBody(decoded, r, min(MaxHTTPBody, left))
	if err != nil {
		return nil, err
	}
	c.countIn(len(body))
	out := &response{status: resp.StatusCode, body: body, header: make(http.Header, len(resp.Header))}
	for k, vs := range resp.Header {
		v := strings.Join(vs, ", ")
		if name := r.firstHit([]byte(v)); name != "" {
			// Withheld whole, as the body is (echo.go).
			return nil, &echoHit{name}
		}
		out.header[k] = []string{v}
	}
	if r != nil && resp.Header.Get("Content-Length") != "" {
		// The peer's count would tell the length of a secret it echoed in
		// the body; the probe gets the length of what it can read, or none.
		delete(out.header, "Content-Length")
		if whole {
			out.header.Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	// The head counts as the probe can read it, as the body does: the
	// status code and each header's value, redacted. Neither the reason
	// phrase nor a header's name can be read, and a peer may quote a value
	// in either (a name in the form net/http gives it, which redaction
	// does not know): counted, they would let a probe that reads up to the
	// bound tell how long the value is.
	head := len("HTTP/1.1 200\r\n\r\n")
	for _, vs := range out.header {
		head += len(vs[0]) + len(": \r\n")
	}
	c.countIn(head)
	if resp.TLS != nil {
		// The last request's host: a redirect may have gone elsewhere.
		out.tls = c.tlsFactsOf(*resp.TLS, resp.Request.URL.Hostname(), x.insecure)
	}
	return out, nil
}

// decodeBody returns resp's body as text: gzip the host asked for is
// decoded, and the response's Content-Encoding and Content-Length (which
// count the encoded bytes) go with it. Every Content-Encoding line counts,
// each a list of codings applied in turn: a body encoded any other way,
// or more than once, is returned as it is, or refused (errEncoded) when
// text is needed, because redaction cannot read it: a server, or a proxy
// in front of it, that compresses twice says so in two lines.
func (x *exchange) decodeBody(resp *http.Response, text bool) (io.Reader, error) {
	var codings []string
	for _, line := range resp.Header.Values("Content-Encoding") {
		for _, e := range strings.Split(line, ",") {
			if e = strings.TrimSpace(e); e != "" && !strings.EqualFold(e, "identity") {
				codings = append(codings, e)
			}
		}
	}
	switch {
	case len(codings) == 0:
		return resp.Body, nil
	case x.askedGzip && len(codings) == 1 && (strings.EqualFold(codings[0], "gzip") || strings.EqualFold(codings[0], "x-gzip")):
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		if resp.ContentLength == 0 || resp.Request.Method == http.MethodHead {
			return resp.Body, nil
		}
		return &gunzip{body: resp.Body}, nil
	case text:
		return nil, errEncoded(strings.Join(codings, ", "))
	}
	return resp.Body, nil
}

// gunzip decodes a gzip body, reading its header on the first Read (so
// that an empty body reads as one, as net/http's own does).
type gunzip struct {
	body io.Reader
	zr   *gzip.Reader
}

func (g *gunzip) Read(p []byte) (int, error) {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.body)
		if err != nil {
			return 0, err
		}
		g.zr = zr
	}
	return g.zr.Read(p)
}

// readBody reads what the probe may keep of a body: at most keep bytes as
// it reads them, redacted by r (nil: none), and whether that is all of
// it. With r, raw bytes are read until the redacted text passes keep or
// the body ends (within the raw bound), and only the redacted text is
// cut: the kept window is the body's redacted text's first keep bytes,
// whatever the values' lengths, and no value is split by its edge.
func (c *Call) readBody(body io.Reader, r *redactor, keep int64) (kept []byte, whole bool, err error) {
	var out []byte
	var held redactStream
	buf := make([]byte, 32<<10)
	ended := false
	for int64(len(out)) <= keep {
		left := c.rawLeft()
		if left <= 0 {
			break
		}
		if r == nil {
			// Nothing to redact: one more byte than is kept tells whether
			// the body ends there.
			left = min(left, keep+1-int64(len(out)))
		}
		n, err := body.Read(buf[:min(int64(len(buf)), left)])
		c.countRaw(n)
		held.push(buf[:n])
		if errors.Is(err, io.EOF) {
			ended = true
			out = append(out, held.release(r, true)...)
		} else if err == nil {
			out = append(out, held.release(r, false)...)
		}
		if held.found != "" {
			// The body held a value the run sent: withheld whole.
			return nil, false, &echoHit{held.found}
		}
		if ended {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	whole = ended && int64(len(out)) <= keep
	return out[:min(int64(len(out)), keep)], whole, nil
}

var errBytesInBound = errors.New(errBytesIn)

// dial connects the transport: the unix socket for unixHost, else the
// address the URL names, which the grants allowed (or the proxy's, which
// the manifest allowed).
func (x *exchange) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if host, _, _ := net.SplitHostPort(addr); host == unixHost && x.first.Unix != "" {
		return x.dialHeld(ctx, "unix", x.first.Unix)
	}
	return x.dialHeld(ctx, network, addr)
}

// checkRedirect follows at most MaxRedirects redirects, each granted as the
// first request was and sent as it was checked; one that is not is not
// followed, and its own 3xx is the answer.
//
// A redirect is judged by where it goes, never by what its Location holds:
// once a secret's value has reached a hop's origin (this request carried
// it there, or the run sent it there before), that origin may write the
// value into a Location in any spelling it likes (an open redirect that
// re-encodes a parameter writes one the host cannot predict), so no
// redirect from it is followed to a destination the secret is not bound
// to, and neither is any later hop of the chain. The decision depends on
// the grants and on which secrets were sent where, never on a value, so
// whether a redirect is followed tells the probe nothing about one. No
// Referer is sent (Go's would carry the last URL, query and all), and
// Authorization, Cookie and Proxy-Authorization, whatever they held, go
// only to the same scheme, host and port. A denial names the target's
// scheme, host and port only: the rest of the Location is the peer's text.
func (x *exchange) checkRedirect(req *http.Request, via []*http.Request) error {
	c := x.c
	if len(via) > MaxRedirects {
		return http.ErrUseLastResponse
	}
	raw := req.URL.String()
	if req.URL.Hostname() == unixHost && x.first.Unix != "" {
		raw = "unix:" + x.first.Unix + ":" + req.URL.RequestURI()
	}
	origin := x.redirectOrigin(req.URL)
	t, err := grants.ParseHTTPTarget(raw)
	granted := err == nil && c.Policy.AllowHTTP(t)
	// The secrets first, so that which denial a redirect gets does not
	// depend on how the Location spells what it holds either.
	x.carried |= c.sentToAddr(x.current.Addr())
	if x.carried != 0 {
		var bound SecretSet
		if granted {
			bound = c.Policy.BoundTo(x.destination(t))
		}
		if stray := x.carried &^ bound; stray != 0 {
			c.record(Denial{Kind: "secret", Request: c.Policy.SecretNames(stray)[0], To: origin, Probe: c.Probe})
			return http.ErrUseLastResponse
		}
	}
	if !granted {
		c.deny("http", origin)
		return http.ErrUseLastResponse
	}
	if x.insecure && t.Scheme == "https" && !c.Policy.AllowInsecure(t.Addr()) {
		c.deny("insecure", t.Addr())
		return http.ErrUseLastResponse
	}
	u, err := url.Parse(requestURL(t))
	if err != nil {
		c.deny("http", origin)
		return http.ErrUseLastResponse
	}
	req.URL, req.Host = u, requestHost(t, u)
	req.Header.Del("Referer")
	if t.Scheme != x.first.Scheme || t.Host != x.first.Host || t.Port != x.first.Port || t.Unix != x.first.Unix {
		for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
			req.Header.Del(h)
		}
	}
	// What the redirect sends again counts against the bytes-out bound as
	// the first request did: its request line, the probe's headers it
	// still carries, and a 307's or 308's body. Past the bound it is not
	// followed, and its own response is the answer.
	cost := len(req.Method) + len(req.URL.RequestURI()) + len("  HTTP/1.1\r\n")
	for h, n := range x.headerCost {
		if _, ok := req.Header[h]; ok {
			cost += n
		}
	}
	if req.GetBody != nil {
		cost += x.bodyCost
	}
	if !c.fitsOut(cost) {
		return http.ErrUseLastResponse
	}
	x.current = t
	return nil
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// redirectOrigin is a redirect's target as a denial names it: scheme,
// host and port, or the socket; never the path or query, which the peer
// that wrote the Location chose and may have spelt a value into.
func (x *exchange) redirectOrigin(u *url.URL) string {
	if u.Hostname() == unixHost && x.first.Unix != "" {
		return "unix:" + x.first.Unix
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port)
}
