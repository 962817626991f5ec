package host

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Net is how one probe's streams and HTTP requests reach the network (ABI
// v2). The zero value, or a nil *Net, means the system's TLS roots, no
// proxy, and a plain net.Dialer.
type Net struct {
	// RootCAs verifies TLS peers in place of the system roots; the
	// manifest's tls_ca sets it for one probe.
	RootCAs *x509.CertPool
	// Proxy, when true, sends HTTP requests through the proxy that the
	// host's HTTPS_PROXY, HTTP_PROXY and NO_PROXY variables name. It is
	// off by default: a probe asks about the service, not about the path
	// the host's shell happens to take to it.
	Proxy bool
	// proxyFor is the proxy Proxy selects: nil means the one the
	// variables name (http.ProxyFromEnvironment, which never proxies
	// loopback); tests set one that does.
	proxyFor func(*http.Request) (*url.URL, error)
	// DialContext, when set, makes every connection of gate.dial,
	// gate.connect and gate.http, after the grants allowed it; probetest
	// uses it to put scripted peers behind addresses. nil means a
	// net.Dialer.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Bounds on what one run may move through the network (ABI v2). They hold
// whatever the probe or its peers do: a peer that sends forever, a 10 GB
// response, a probe that opens handles in a loop.
const (
	// MaxOpenHandles is how many streams and responses a run may hold at
	// once; MaxHandlesPerRun how many it may open in all. Past either,
	// gate.connect and gate.http answer StatusLimit.
	MaxOpenHandles   = 8
	MaxHandlesPerRun = 32
	// MaxBytesOut is how many bytes a run may hand to gate.send and to
	// gate.http requests in all, counted as the probe wrote them with each
	// ${secret:NAME} placeholder at the most its value can take on the
	// wire (MaxSecret, three times that in a URL's query): the bound holds
	// on the wire, and the count tells nothing about a secret's length.
	MaxBytesOut = 64 << 10
	// MaxBytesIn is how many bytes a run may receive in all, as the probe
	// reads them (redacted): through gate.recv, and response heads and
	// bodies of gate.http.
	MaxBytesIn = 1 << 20
	// MaxRawBytesIn is how many bytes a run may read off the wire in all.
	// It is larger than MaxBytesIn because redaction makes what a peer
	// sends shorter (a 4 KiB value reads as its placeholder), and the
	// window the probe reads is measured in redacted bytes.
	MaxRawBytesIn = 4 << 20
	// MaxHTTPRequest is the longest request text gate.http reads;
	// MaxHTTPBody the part of a response body the host keeps (the rest is
	// never read: the connection is closed); MaxHTTPHead the longest
	// response head it reads.
	MaxHTTPRequest = 64 << 10
	MaxHTTPBody    = 64 << 10
	MaxHTTPHead    = 16 << 10
	// MaxRedirects is how many redirects gate.http follows, each of which
	// must be granted as the first request was.
	MaxRedirects = 5
	// MaxSecret is the longest secret value the host substitutes; a longer
	// one counts as not set.
	MaxSecret = 4096
	// MaxLastError is how many bytes of gate.last_error's text are kept.
	MaxLastError = 512
)

// Connect flags (gate.connect and gate.http).
const (
	// FlagInsecure skips TLS verification; it needs an insecure grant for
	// the address. gate.tls still reports whether verification would
	// have passed.
	FlagInsecure int32 = 1
)

// dialContext dials through Net.DialContext when one is set, else a plain
// net.Dialer; ctx carries the wait's deadline. The socket holds one of the
// process's socket slots until it is closed (see SocketBound).
func (n *Net) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return processSockets().dial(ctx, network, func() (net.Conn, error) { return n.rawDial(ctx, network, addr) })
}

// rawDial dials without a socket slot.
func (n *Net) rawDial(ctx context.Context, network, addr string) (net.Conn, error) {
	if n != nil && n.DialContext != nil {
		return n.DialContext(ctx, network, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

func (n *Net) rootCAs() *x509.CertPool {
	if n == nil {
		return nil
	}
	return n.RootCAs
}

// clip returns the probe's timeout, for the call where, clipped to the
// wait limit (what is left of the budget less the Reserve: see
// waitLimit); a timeout <= 0 means the limit. ok is false when no time is
// left to wait at all.
func (c *Call) clip(where string, timeoutMS int32) (d time.Duration, ok bool) {
	limit := c.waitLimit(where)
	if limit <= 0 {
		return 0, false
	}
	d = time.Duration(timeoutMS) * time.Millisecond
	if d <= 0 || d > limit {
		d = limit
	}
	return d, true
}

// netContext bounds one network wait: it ends after d, when ctx ends, or
// when the probe or the engine is being closed, so that a Close never waits
// for a peer that does not answer; then its cause is ErrStopped. cancel
// must be called.
func (c *Call) netContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.stoppable(context.WithTimeout(ctx, d))
}

// workContext is netContext for a wait whose host-side work needs the
// CPU as well as the peer (a TLS handshake, an HTTP exchange): a measured
// run's wait is bounded by its own time, as waitContext says, so that a
// loaded machine's delay to that work is not answered "timed out". Its
// cancellation cause is errWaitTimedOut when d is up.
func (c *Call) workContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.stoppable(c.waitContext(ctx, d))
}

// stoppable makes ctx, whose cancel is cancelTimeout, end too when the
// probe or the engine is being closed.
func (c *Call) stoppable(ctx context.Context, cancelTimeout context.CancelFunc) (context.Context, context.CancelFunc) {
	var stop <-chan struct{}
	if c.Stop != nil {
		stop = c.Stop.Done()
	}
	engineStop := c.EngineStop // not c: the goroutine may outlive the run's Call
	if stop == nil && engineStop == nil {
		return ctx, cancelTimeout
	}
	ctx, cancelCause := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
			cancelCause(ErrStopped)
		case <-engineStop:
			cancelCause(ErrStopped)
		}
	}()
	return ctx, func() { cancelCause(nil); cancelTimeout() }
}

// stopped reports whether a wait under a netContext ended because the
// probe or the engine is being closed.
func stopped(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrStopped) }

// aLongTimeAgo is a deadline in the past: setting it makes a blocked read
// or write return at once.
var aLongTimeAgo = time.Unix(1, 0)

// onConn runs op (a read, a write or a handshake on conn) with conn's
// deadline at d from now, and cuts it short when ctx (see netContext) ends
// first. When it returns, nothing touches conn's deadline any more, so the
// next operation's deadline is its own.
func onConn(ctx context.Context, conn net.Conn, op func() error) error {
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		conn.SetDeadline(aLongTimeAgo)
		close(done)
	})
	err := op()
	if !stop() {
		<-done
	}
	return err
}
