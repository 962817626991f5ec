package uplink

import (
	"net/http"
	"time"
)

// ownRequests is how many connections the idle pool of an HTTP upstream
// keeps beyond one per forwarded call: for gate's own requests, which no
// call slot counts (a ping, a listing, an answer to the upstream's
// request, a notification, a cancellation).
const ownRequests = 8

// upstreamIdle is how long a connection to an HTTP upstream is kept idle.
// A burst of calls leaves as many connections as it had in flight, each
// with the transport's two goroutines, and they are of use only to calls
// that come soon: at any rate of calls where a dial would show (one a
// second or more on a connection) the next comes sooner than this, and a
// burst's connections are gone a second after it. A quiet upstream's
// pings, seconds apart, each open one.
const upstreamIdle = time.Second

// transport is the HTTP transport of one upstream session: the
// default transport's dialer, proxy and timeouts, with an idle pool as
// large as the connections the session may use at once. The default keeps
// two idle connections a host: past two calls in flight, every call that
// ends closes its connection and the next opens one, which costs a dial
// and the upstream an accept per call and leaves a socket in TIME_WAIT
// for each.
//
// What bounds the pool is what bounds the connections: a connection is
// opened only for a request, and the forwarded requests in flight to one
// upstream are capped (Limits.MaxCalls, the gateway's call slots), so
// the pool never holds more than the cap and gate's own requests made at
// once; idle ones close after upstreamIdle.
func transport(lim Limits) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.IdleConnTimeout = upstreamIdle
	t.MaxIdleConnsPerHost = lim.MaxCalls + ownRequests
	t.MaxIdleConns = t.MaxIdleConnsPerHost
	return t
}
