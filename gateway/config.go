package gateway

import (
	"io"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of NewConfig.
const (
	// DefaultCallTimeout bounds a forwarded tools/call when the server's
	// manifest entry sets no call_timeout: long enough for a slow tool, short
	// enough that a client never waits on an upstream that stopped
	// answering.
	DefaultCallTimeout = 60 * time.Second
	// DefaultConnectTimeout bounds starting or reaching an upstream and its
	// initialize handshake.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultListTimeout bounds one tools/list of an upstream (all pages).
	DefaultListTimeout = 10 * time.Second
	// DefaultKeepAlive is how often an upstream is pinged; a missed answer
	// closes its session, hides its tools and reconnects: an upstream that
	// hangs is found within about this long even when no call is made.
	DefaultKeepAlive = 5 * time.Second
	// DefaultBackoffMin and DefaultBackoffMax bound the wait between
	// reconnections to an upstream; it doubles on each failure and starts
	// again from the minimum once a session has lasted DefaultBackoffMax.
	DefaultBackoffMin = 100 * time.Millisecond
	DefaultBackoffMax = 30 * time.Second
	// DefaultMaxTools is how many tools one upstream may list; the rest
	// are hidden and reported. A hostile or broken upstream cannot make
	// every client's tools/list unbounded.
	DefaultMaxTools = 10_000
	// DefaultMaxResultBytes caps a forwarded call's result, as JSON: a
	// result over it is answered as a tool error that says so. Clients
	// pass results to a model, whose context is far smaller.
	DefaultMaxResultBytes = 4 << 20
	// DefaultMaxSessions caps the streamable-HTTP sessions open at once,
	// with the requests being served that could open one (any POST
	// without Mcp-Session-Id); such a request past it is refused with 503.
	DefaultMaxSessions = 256
	// DefaultSessionIdle closes a streamable-HTTP session idle this long.
	DefaultSessionIdle = 30 * time.Minute
	// DefaultMaxRequestBytes caps the body of a request to /mcp.
	DefaultMaxRequestBytes = 4 << 20
	// DefaultWriteTimeout bounds each write to a /mcp client (an answer,
	// one event of a stream): a write that does not complete within it
	// drops the client's session, so a client that stops reading holds
	// nothing for longer, and waits on it block only its own session. A
	// client reading at any speed a person could notice is far faster.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultSessionQueue is how many notifications (list_changed,
	// resource updates, progress) may wait for one session, over any
	// transport; one more that cannot be coalesced with one waiting drops
	// the session (docs/MCP.md, "Limits"). As /v1/events's stream buffer:
	// a client reading at all never gets near it.
	DefaultSessionQueue = 1024
)

// Config configures a Gateway. It is immutable: every With method returns
// a copy, so one Config can be shared.
type Config struct {
	callTimeout, connectTimeout, listTimeout, keepAlive time.Duration
	backoffMin, backoffMax                              time.Duration
	maxTools, maxResult, maxSessions, maxRequest        int
	sessionQueue                                        int
	sessionIdle, writeTimeout                           time.Duration
	anyHost                                             bool
	log                                                 io.Writer
	metrics                                             prometheus.Registerer
	version                                             string
}

// NewConfig returns the defaults above, logging nothing and exporting no
// metrics.
func NewConfig() Config {
	return Config{
		callTimeout: DefaultCallTimeout, connectTimeout: DefaultConnectTimeout,
		listTimeout: DefaultListTimeout, keepAlive: DefaultKeepAlive,
		backoffMin: DefaultBackoffMin, backoffMax: DefaultBackoffMax,
		maxTools: DefaultMaxTools, maxResult: DefaultMaxResultBytes,
		maxSessions: DefaultMaxSessions, maxRequest: DefaultMaxRequestBytes,
		sessionQueue: DefaultSessionQueue,
		sessionIdle:  DefaultSessionIdle, writeTimeout: DefaultWriteTimeout, version: "dev",
	}
}

// WithCallTimeout sets the call timeout of servers whose manifest entry
// has no call_timeout.
func (c Config) WithCallTimeout(d time.Duration) Config { c.callTimeout = d; return c }

// WithConnectTimeout sets how long starting or reaching an upstream and
// its initialize may take.
func (c Config) WithConnectTimeout(d time.Duration) Config { c.connectTimeout = d; return c }

// WithListTimeout sets how long one listing of an upstream's tools may
// take; one that takes longer closes the session (the upstream is treated
// as hung) and reconnects.
func (c Config) WithListTimeout(d time.Duration) Config { c.listTimeout = d; return c }

// WithKeepAlive sets how often upstreams are pinged; 0 turns pings off
// (a hung upstream is then found only by a call or listing that times
// out).
func (c Config) WithKeepAlive(d time.Duration) Config { c.keepAlive = d; return c }

// WithBackoff sets the least and the most time between reconnections.
func (c Config) WithBackoff(least, most time.Duration) Config {
	c.backoffMin, c.backoffMax = least, most
	return c
}

// WithMaxTools sets how many tools one upstream may list.
func (c Config) WithMaxTools(n int) Config { c.maxTools = n; return c }

// WithMaxResultBytes sets the largest forwarded result, as JSON bytes.
func (c Config) WithMaxResultBytes(n int) Config { c.maxResult = n; return c }

// WithMaxSessions sets how many streamable-HTTP sessions may be open.
func (c Config) WithMaxSessions(n int) Config { c.maxSessions = n; return c }

// WithMaxRequestBytes sets the largest request body /mcp reads.
func (c Config) WithMaxRequestBytes(n int) Config { c.maxRequest = n; return c }

// WithSessionIdle sets how long an idle streamable-HTTP session is kept.
func (c Config) WithSessionIdle(d time.Duration) Config { c.sessionIdle = d; return c }

// WithWriteTimeout sets how long each write to a /mcp client may take
// before its session is dropped.
func (c Config) WithWriteTimeout(d time.Duration) Config { c.writeTimeout = d; return c }

// WithSessionQueue sets how many notifications may wait for one session.
func (c Config) WithSessionQueue(n int) Config { c.sessionQueue = n; return c }

// WithAnyHost turns off the MCP SDK's DNS-rebinding check in Handler,
// which refuses a request that arrives on a loopback address but names
// another Host. Turn it off only where something else authenticates each
// request: gatectl serve does when it has a bearer token (a page that
// rebinds a name to 127.0.0.1 cannot send the token), so that a reverse
// proxy on the same machine that keeps the client's Host header is
// served, as the rest of its API serves it. Off by default.
func (c Config) WithAnyHost(on bool) Config { c.anyHost = on; return c }

// WithLog sets where the gateway writes a line for each upstream state
// change and each line an upstream command writes on its stderr (nil:
// nowhere). Lines are escaped for a terminal.
func (c Config) WithLog(w io.Writer) Config { c.log = w; return c }

// WithMetrics registers the gateway's metrics (docs/MCP.md, "Metrics") on
// reg; nil, the default, exports none.
func (c Config) WithMetrics(reg prometheus.Registerer) Config { c.metrics = reg; return c }

// WithVersion sets the version the gateway gives in its initialize
// answers and to its upstreams.
func (c Config) WithVersion(v string) Config { c.version = v; return c }
