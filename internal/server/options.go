package server

import (
	"net/http"
	"time"
)

// Defaults of Options.
const (
	DefaultPingInterval = 15 * time.Second
	DefaultStreamBuffer = 1024
	DefaultWriteTimeout = 10 * time.Second
	// DefaultMaxStreams is how many event streams may be open at once: a
	// quarter of the default connection cap (MaxDefaultConns), so that
	// streams, which hold their connection for hours, leave the rest to
	// requests.
	DefaultMaxStreams = MaxDefaultConns / 4
	// DefaultMaxPeerStreams is how many of them one peer may hold: an
	// eighth, more than a browser opens to one host (six) with room for
	// several tools on one machine, every loopback client being one peer.
	DefaultMaxPeerStreams = DefaultMaxStreams / 8
)

// Options configure New. The zero value serves without a token, with the
// defaults above.
type Options struct {
	// Token, when not empty, is required as "Authorization: Bearer
	// <token>" on every endpoint but /healthz.
	Token string
	// Done ends every event stream and the server's subscription to the
	// service when closed: close it on shutdown (http.Server.Shutdown
	// waits for handlers, and a stream never returns by itself). Nil: the
	// streams end only when their clients go away.
	Done <-chan struct{}
	// PingInterval is how often an idle event stream gets a ": ping"
	// comment, so that proxies and clients see the connection is alive.
	PingInterval time.Duration
	// StreamBuffer is how many events a stream may fall behind before it
	// is closed with "event: overflow" (the client must resync). A reload
	// can publish one event per tool at once, so it is generous.
	StreamBuffer int
	// WriteTimeout bounds each write to an event stream: a client that
	// stops reading is disconnected after it, and holds nothing meanwhile
	// but its own goroutine and buffer.
	WriteTimeout time.Duration
	// MaxStreams caps the event streams open at once, all clients
	// together, and MaxPeerStreams those of one peer (its IP address; its
	// /64 for IPv6). A stream past its peer's share is refused with 429,
	// one past the total with 503, both with Retry-After and the
	// connection closed; a stream that ends gives its place back.
	MaxStreams, MaxPeerStreams int
	// MCP, when not nil, is served at /mcp (mcpgw.Gateway.Handler, the
	// MCP gateway over streamable HTTP), after the same Host and token
	// checks as every other endpoint; it takes the methods and bodies the
	// MCP transport needs, under its own caps.
	MCP http.Handler
	// Trace, when not nil, wraps the handling of each request that passed
	// the Host and token checks (tracing.Tracer.Handler): a request
	// refused by them makes no span, and its headers name no parent.
	Trace func(http.Handler) http.Handler
}

func (o Options) withDefaults() Options {
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.StreamBuffer <= 0 {
		o.StreamBuffer = DefaultStreamBuffer
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.MaxPeerStreams <= 0 {
		o.MaxPeerStreams = DefaultMaxPeerStreams
	}
	o.MaxPeerStreams = min(o.MaxPeerStreams, o.MaxStreams)
	return o
}
