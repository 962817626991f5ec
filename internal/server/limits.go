package server

import (
	"context"
	"net"
	"net/http"
	"time"
)

// Defaults of ServerOptions (docs/HTTP.md, "Limits").
const (
	// DefaultReadHeaderTimeout bounds reading a request's headers: a
	// client that trickles them is cut off.
	DefaultReadHeaderTimeout = 5 * time.Second
	// DefaultReadTimeout bounds reading a whole request, body included
	// (the API takes none): a client that trickles one is cut off.
	DefaultReadTimeout = 10 * time.Second
	// DefaultServerWriteTimeout bounds writing a whole answer, from the end of
	// the request's headers: a client that stops reading a large answer
	// is cut off. The event stream is exempt: each of its writes has its
	// own deadline (Options.WriteTimeout).
	DefaultServerWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a keep-alive connection may wait
	// for its next request.
	DefaultIdleTimeout = 30 * time.Second
	// DefaultMaxHeaderBytes bounds a request's headers (Go's server
	// allows 4 KiB more): a bearer token needs far less; beyond it the
	// answer is 431.
	DefaultMaxHeaderBytes = 16 << 10
	// MaxDefaultConns is the most connections a listener made by Listen
	// keeps open by default; see ServerOptions.MaxConns.
	MaxDefaultConns = 1024
)

// ServerOptions configure NewHTTPServer and Listen. The zero value gives
// the defaults above; a field <= 0 takes its default.
type ServerOptions struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// MaxConns caps the connections open at once. Beyond it, a new
	// connection takes the slot of one that has not yet carried a request
	// with the token (that one is closed): the oldest of the peer (remote
	// address) that holds the most, so that clients without the token,
	// idle or trickling, cannot keep out those with it; when every connection has shown the token, the new
	// one is accepted and closed at once (the client sees the connection
	// closed without an answer and may retry). Neither the process's
	// file descriptors nor the kernel's accept queue fill up, and the
	// server keeps answering those it holds.
	// Default: half the soft RLIMIT_NOFILE, at most MaxDefaultConns and
	// at least 16 (1,024 where the limit is unknown); the other half is
	// left for the manifest, probes, skills and the runtime.
	MaxConns int
	// MaxPeerConns caps the connections of one peer (its IP address; its
	// /64 for IPv6), with the token or without. Beyond it, the peer's new
	// connection takes the slot of its own oldest connection that has not
	// shown the token, which is closed; when all of its connections have,
	// the new one is accepted and closed at once. No other peer loses a
	// connection for it. Default: a quarter of MaxConns.
	MaxPeerConns int
}

func (o ServerOptions) withDefaults() ServerOptions {
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultServerWriteTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.MaxConns <= 0 {
		o.MaxConns = defaultMaxConns()
	}
	if o.MaxPeerConns <= 0 {
		o.MaxPeerConns = max(o.MaxConns/4, 1)
	}
	return o
}

// defaultMaxConns is half the soft limit on open files, within
// [16, MaxDefaultConns].
func defaultMaxConns() int {
	soft, ok := openFileLimit()
	if !ok {
		return MaxDefaultConns
	}
	return int(max(16, min(MaxDefaultConns, soft/2)))
}

// NewHTTPServer returns the http.Server for h (the handler of New) with
// the timeouts and header cap of opts. Serve it on a listener from
// Listen, which caps the connections. Every timeout is per request or per
// connection, never per event stream: /v1/events lifts the read deadline
// and sets its own write deadline before each write, so a stream lasts
// for hours.
func NewHTTPServer(h http.Handler, opts ServerOptions) *http.Server {
	opts = opts.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    opts.MaxHeaderBytes,
		// A request that passes the token check proves its connection
		// (see limitListener), through this.
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if lc, ok := c.(*limitConn); ok {
				return context.WithValue(ctx, connKey{}, lc)
			}
			return ctx
		},
	}
}

// Listen is net.Listen capped at opts.MaxConns open connections (see
// ServerOptions.MaxConns).
func Listen(network, addr string, opts ServerOptions) (net.Listener, error) {
	l, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	return newLimitListener(l, opts.MaxConns, opts.MaxPeerConns), nil
}
