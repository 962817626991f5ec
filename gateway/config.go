package gateway

import (
	"io"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of NewConfig, and why each is what it is. They are the
// values the gateway uses: a test holds them to its own.
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
	// DefaultKeepAlive is how often an upstream is pinged, whatever
	// protocol version it speaks; a ping not answered before the next one
	// is due fails its session, hides its tools and reconnects: an
	// upstream that hangs is found within twice this long even when no
	// call is made. A ping that waited while a forwarded request was in
	// flight is not counted, until a call passes its call timeout: a
	// server that handles one message at a time answers it after the
	// call.
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
	// DefaultMaxListingBytes caps what gate keeps of one upstream's
	// listing: the definitions of its tools, as JSON, and the names and
	// reasons of those it hides. Past it the listing stops, as past
	// DefaultMaxTools: each tool may be at most 256 KiB, and 10,000 of
	// them would otherwise be gigabytes held, and sent to every client
	// that lists. An honest server's tools take a few hundred KiB.
	DefaultMaxListingBytes = 16 << 20
	// DefaultMaxResultBytes caps a forwarded call's result, as JSON: a
	// result over it is answered as a tool error that says so. Clients
	// pass results to a model, whose context is far smaller.
	DefaultMaxResultBytes = 4 << 20
	// DefaultMaxMessageBytes caps one message from an upstream, whatever
	// its transport: a stdio line, an HTTP response body, a line or event
	// of an SSE stream. It is read no further: the session fails and the
	// upstream is down, with why. 16 MiB is the SDK's own line cap for
	// stdio, far above any honest message and far below what would hurt.
	DefaultMaxMessageBytes = 16 << 20
	// DefaultUpstreamWriteTimeout bounds one write to an upstream: a
	// message to a stdio upstream's stdin, or an HTTP request that carries
	// an answer or a notification (and the headers of its event stream).
	// An upstream that takes longer has stopped reading: its session
	// fails.
	DefaultUpstreamWriteTimeout = 10 * time.Second
	// DefaultMaxPending caps, per upstream, the requests it sent that
	// gate has not answered yet and the notifications it sent that gate
	// has not handled yet. Past it gate reads nothing more from that
	// upstream until it has caught up, so a flood queues in the
	// upstream's own pipe or socket, never in gate's memory.
	DefaultMaxPending = 256
	// DefaultStopGrace is how long a stdio upstream is given to exit
	// after its stdin is closed, and again after SIGTERM to its process
	// group, before SIGKILL: closing one takes at most twice this.
	DefaultStopGrace = 2 * time.Second
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
	// DefaultMaxSessionRequests caps the requests of one client session
	// being handled at once (any transport), and the messages of one
	// JSON-RPC batch on /mcp: a request past it is answered at once with
	// an error that says so, and a larger batch is refused with 400. The
	// SDK handles every request of a session at once, with no bound, and
	// a 4 MiB batch holds tens of thousands: one client could otherwise
	// make gate hold as many forwarded calls, upstream connections and
	// file reads.
	DefaultMaxSessionRequests = 64
	// DefaultMaxSubscriptions caps the upstream resources one client
	// session may be subscribed to: each may have one update waiting in
	// its outbox, far below DefaultSessionQueue, so that an upstream
	// flooding notifications/resources/updated cannot make a session
	// overflow.
	DefaultMaxSubscriptions = 64
	// DefaultMaxUpstreamCalls caps the forwarded calls in flight to one
	// upstream, from all sessions: a call past it waits for one to end,
	// within its call timeout. It bounds the connections gate opens to an
	// HTTP upstream (one per call in flight) and the file descriptors
	// they take.
	DefaultMaxUpstreamCalls = 256
	// DefaultBreakerFailures is how many of a server's own failures in a
	// row (a connection not made, the session lost, gate's ping failing
	// at the transport, a 5xx two clients saw) open its breaker and hide
	// its tools. One or two fail when an upstream restarts or a
	// connection is reset and the next request works; five in a row, with
	// no answer between them, is an outage the probe has not seen yet.
	DefaultBreakerFailures = 5
	// DefaultBreakerWindow is the span those failures must fall within:
	// five failed keepalive pings fit in it many times over; failures
	// further apart than that are faults, not an outage.
	DefaultBreakerWindow = 5 * time.Minute
	// DefaultBreakerCooldown is how long an open breaker waits before a
	// trial call when no probe saw the failure: as long as the longest
	// wait between reconnections (DefaultBackoffMax), so that a server
	// that restarts is back within about as long as a reconnection
	// takes, and one that stays down costs a hide and a show of its tools
	// at most twice a minute (then less: each failed trial doubles it).
	DefaultBreakerCooldown = 30 * time.Second
	// DefaultStartupWait is how long a request that reads the offered set
	// (a listing, a call of a tool not offered) waits for upstreams still
	// making their first connection: a local server started with node or
	// python answers initialize and lists within a second or two, and a
	// client that lists once, right after initialize, then sees its
	// tools. A server slower than that is offered later, with
	// list_changed, and does not hold every client's first request for
	// as long as the connect timeout.
	DefaultStartupWait = 5 * time.Second
	// DefaultRequestBodyTimeout bounds reading one /mcp request body, from
	// its first byte asked to its last: a client that trickles or stalls
	// one is answered 408 and its connection closed. The server's own
	// read timeout may end it sooner.
	DefaultRequestBodyTimeout = 10 * time.Second
	// DefaultRequestBodiesPerCap is how many request caps
	// (WithMaxRequestBytes) the bodies being read may hold together by
	// default: 64 MiB at the default 4 MiB cap.
	DefaultRequestBodiesPerCap = 16
)

// Config configures a Gateway. It is immutable: every With method returns
// a copy, so one Config can be shared.
type Config struct{ c mcpgw.Config }

// NewConfig returns the defaults above, logging nothing and exporting no
// metrics.
func NewConfig() Config { return Config{mcpgw.NewConfig()} }

// WithCallTimeout sets the call timeout of servers whose manifest entry
// has no call_timeout; 0 or less selects DefaultCallTimeout.
func (c Config) WithCallTimeout(d time.Duration) Config { return Config{c.c.WithCallTimeout(d)} }

// WithConnectTimeout sets how long starting or reaching an upstream and
// its initialize may take; 0 or less selects DefaultConnectTimeout.
func (c Config) WithConnectTimeout(d time.Duration) Config { return Config{c.c.WithConnectTimeout(d)} }

// WithListTimeout sets how long one listing of an upstream's tools may
// take; one that takes longer closes the session (the upstream is treated
// as hung) and reconnects; 0 or less selects DefaultListTimeout.
func (c Config) WithListTimeout(d time.Duration) Config { return Config{c.c.WithListTimeout(d)} }

// WithKeepAlive sets how often upstreams are pinged; 0 turns pings off
// (a hung upstream is then found only by a call or listing that times
// out). Any answer to a ping, an error included, shows the upstream alive:
// the 2026-07-28 protocol has no ping method, and its servers answer one
// with "method not found".
func (c Config) WithKeepAlive(d time.Duration) Config { return Config{c.c.WithKeepAlive(d)} }

// WithBackoff sets the least and the most time between reconnections;
// 0 or less selects DefaultBackoffMin or DefaultBackoffMax (no wait would
// restart a failing upstream without end), and a most below the least is
// the least.
func (c Config) WithBackoff(least, most time.Duration) Config {
	return Config{c.c.WithBackoff(least, most)}
}

// WithMaxTools sets how many tools one upstream may list, and as many
// resources, resource templates and prompts; 0 or less selects
// DefaultMaxTools.
func (c Config) WithMaxTools(n int) Config { return Config{c.c.WithMaxTools(n)} }

// WithMaxListingBytes sets how many bytes of one upstream's tool
// definitions gate keeps, and as many of each of its lists of resources,
// resource templates and prompts; 0 or less selects
// DefaultMaxListingBytes.
func (c Config) WithMaxListingBytes(n int) Config { return Config{c.c.WithMaxListingBytes(n)} }

// WithMaxSubscriptions sets how many upstream resources one client
// session may be subscribed to; 0 or less selects
// DefaultMaxSubscriptions.
func (c Config) WithMaxSubscriptions(n int) Config { return Config{c.c.WithMaxSubscriptions(n)} }

// WithMaxResultBytes sets the largest forwarded result, as JSON bytes; 0
// or less selects DefaultMaxResultBytes.
func (c Config) WithMaxResultBytes(n int) Config { return Config{c.c.WithMaxResultBytes(n)} }

// WithMaxMessageBytes sets the largest message read from an upstream; 0
// or less selects DefaultMaxMessageBytes.
func (c Config) WithMaxMessageBytes(n int) Config { return Config{c.c.WithMaxMessageBytes(n)} }

// WithUpstreamWriteTimeout sets how long one write to an upstream may
// take; 0 or less selects DefaultUpstreamWriteTimeout.
func (c Config) WithUpstreamWriteTimeout(d time.Duration) Config {
	return Config{c.c.WithUpstreamWriteTimeout(d)}
}

// WithMaxPending sets how many requests and notifications of one upstream
// may wait for gate before it stops reading that upstream; 0 or less
// selects DefaultMaxPending.
func (c Config) WithMaxPending(n int) Config { return Config{c.c.WithMaxPending(n)} }

// WithStopGrace sets how long a stdio upstream is given to exit after its
// stdin is closed, and again after SIGTERM, before SIGKILL; 0 or less
// selects DefaultStopGrace.
func (c Config) WithStopGrace(d time.Duration) Config { return Config{c.c.WithStopGrace(d)} }

// WithMaxSessions sets how many streamable-HTTP sessions may be open; 0
// or less selects DefaultMaxSessions.
func (c Config) WithMaxSessions(n int) Config { return Config{c.c.WithMaxSessions(n)} }

// WithMaxRequestBytes sets the largest request body /mcp reads; 0 or
// less selects DefaultMaxRequestBytes.
func (c Config) WithMaxRequestBytes(n int) Config { return Config{c.c.WithMaxRequestBytes(n)} }

// WithSessionIdle sets how long an idle streamable-HTTP session is kept;
// 0 or less selects DefaultSessionIdle (the SDK would keep it for ever).
func (c Config) WithSessionIdle(d time.Duration) Config { return Config{c.c.WithSessionIdle(d)} }

// WithWriteTimeout sets how long each write to a /mcp client may take
// before its session is dropped; 0 or less selects DefaultWriteTimeout.
func (c Config) WithWriteTimeout(d time.Duration) Config { return Config{c.c.WithWriteTimeout(d)} }

// WithSessionQueue sets how many notifications may wait for one session;
// 0 or less selects DefaultSessionQueue.
func (c Config) WithSessionQueue(n int) Config { return Config{c.c.WithSessionQueue(n)} }

// WithMaxSessionRequests sets how many requests of one client session
// are handled at once, and how many messages a batch may hold; 0 or less
// selects DefaultMaxSessionRequests.
func (c Config) WithMaxSessionRequests(n int) Config { return Config{c.c.WithMaxSessionRequests(n)} }

// WithMaxUpstreamCalls sets how many forwarded calls may be in flight to
// one upstream; 0 or less selects DefaultMaxUpstreamCalls.
func (c Config) WithMaxUpstreamCalls(n int) Config { return Config{c.c.WithMaxUpstreamCalls(n)} }

// WithBreaker sets the breaker of servers whose manifest entry has no
// breaker table, or leaves out some of its keys (docs/MCP.md, "The
// breaker"): failures of the server's own in a row (not a call's
// timeout, 4xx or 429), within window, hide a server's tools; cooldown is how long they
// stay hidden, when no probe saw the failure, before a trial call.
// failures 0 turns the breaker off, less than 0 selects
// DefaultBreakerFailures; a window or cooldown of 0 or less selects its
// default.
func (c Config) WithBreaker(failures int, window, cooldown time.Duration) Config {
	return Config{c.c.WithBreaker(failures, window, cooldown)}
}

// WithStateless has Handler serve MCP 2026-07-28 beside the older
// versions: a POST without Mcp-Session-Id whose MCP-Protocol-Version
// header or _meta names 2026-07-28 or later is served without a session
// (server/discover lists 2026-07-28; subscriptions/listen carries list
// changes, resource updates and log messages), every other request as
// before. Off by default: a client that speaks 2026-07-28 and an older
// version, as the MCP Go SDK's does, then speaks the newer, which has no
// roots, logging/setLevel, elicitation or sampling requests. gatectl serve
// turns it on.
func (c Config) WithStateless(on bool) Config { return Config{c.c.WithStateless(on)} }

// WithListChangedInterval sets the least time between two
// notifications/tools/list_changed to one session: a change of the
// offered tools within it waits for its end, and goes out with every
// other change made meanwhile as one notification, so that a client
// re-reads its tool list (and a model provider re-bills its prompt) at
// most once per interval. 0 or less, the default, sends each change as
// it is made (within the MCP SDK's 10 ms, which joins a burst of changes
// into one).
func (c Config) WithListChangedInterval(d time.Duration) Config {
	return Config{c.c.WithListChangedInterval(d)}
}

// WithStartupWait sets how long a request that reads the offered set (a
// listing, a call of a tool not offered) waits while an upstream is making
// its first connection, so that a client's first look holds every
// upstream that starts within it (docs/MCP.md, "The first look"). 0
// selects DefaultStartupWait; less than 0 waits for nothing, answering
// from the set as it is.
func (c Config) WithStartupWait(d time.Duration) Config { return Config{c.c.WithStartupWait(d)} }

// WithAnyHost turns off the MCP SDK's DNS-rebinding check in Handler,
// which refuses a request that arrives on a loopback address but names
// another Host. Turn it off only where something else authenticates each
// request: gatectl serve does when it has a bearer token (a page that
// rebinds a name to 127.0.0.1 cannot send the token), so that a reverse
// proxy on the same machine that keeps the client's Host header is
// served, as the rest of its API serves it. Off by default.
func (c Config) WithAnyHost(on bool) Config { return Config{c.c.WithAnyHost(on)} }

// WithLog sets where the gateway writes a line for each upstream state
// change and each line an upstream command writes on its stderr (nil:
// nowhere). Lines are escaped for a terminal.
func (c Config) WithLog(w io.Writer) Config { return Config{c.c.WithLog(w)} }

// WithMetrics registers the gateway's metrics (docs/MCP.md, "Metrics") on
// reg; nil, the default, exports none.
func (c Config) WithMetrics(reg prometheus.Registerer) Config { return Config{c.c.WithMetrics(reg)} }

// WithVersion sets the version the gateway gives in its initialize
// answers and to its upstreams.
func (c Config) WithVersion(v string) Config { return Config{c.c.WithVersion(v)} }

// WithRequestBodyBudget sets how many bytes the /mcp request bodies being
// read may hold at once, all clients together (total), and one peer
// (perPeer: the client's IP address, its /64 for IPv6). The bytes are
// counted as they are read, in the buffers that hold them, and given back
// when the request has been handled. A body that would take its peer past
// perPeer is refused with 429, one that would take all past total with
// 503, both with Retry-After; the other peers' bodies go on. 0 or less
// selects the defaults: total DefaultRequestBodiesPerCap request caps
// (64 MiB), perPeer a quarter of total (16 MiB, four bodies of the largest
// size at once). A perPeer below the request cap refuses the bodies that
// would pass it.
func (c Config) WithRequestBodyBudget(total, perPeer int) Config {
	return Config{c.c.WithRequestBodyBudget(total, perPeer)}
}

// WithRequestBodyTimeout sets how long reading one /mcp request body may
// take; 0 or less selects DefaultRequestBodyTimeout.
func (c Config) WithRequestBodyTimeout(d time.Duration) Config {
	return Config{c.c.WithRequestBodyTimeout(d)}
}
