package mcpgw

import (
	"io"
	"time"

	"github.com/gate-dev/gate/internal/tracing"
	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of NewConfig; gateway's Default consts document each and why.
const (
	DefaultCallTimeout          = 60 * time.Second
	DefaultConnectTimeout       = 10 * time.Second
	DefaultListTimeout          = 10 * time.Second
	DefaultKeepAlive            = 5 * time.Second
	DefaultBackoffMin           = 100 * time.Millisecond
	DefaultBackoffMax           = 30 * time.Second
	DefaultMaxTools             = 10_000
	DefaultMaxListingBytes      = 16 << 20
	DefaultMaxResultBytes       = 4 << 20
	DefaultMaxMessageBytes      = 16 << 20
	DefaultUpstreamWriteTimeout = 10 * time.Second
	DefaultMaxPending           = 256
	DefaultStopGrace            = 2 * time.Second
	DefaultMaxSessions          = 256
	DefaultSessionIdle          = 30 * time.Minute
	DefaultMaxRequestBytes      = 4 << 20
	DefaultWriteTimeout         = 10 * time.Second
	DefaultSessionQueue         = 1024
	DefaultMaxSessionRequests   = 64
	DefaultMaxSubscriptions     = 64
	DefaultMaxUpstreamCalls     = 256
	DefaultBreakerFailures      = 5
	DefaultBreakerWindow        = 5 * time.Minute
	DefaultBreakerCooldown      = 30 * time.Second
	DefaultStartupWait          = 5 * time.Second
)

// Config configures a Gateway. It is immutable: every With method returns
// a copy, so one Config can be shared.
type Config struct {
	callTimeout, connectTimeout, listTimeout, keepAlive time.Duration
	backoffMin, backoffMax                              time.Duration
	maxTools, maxResult, maxSessions, maxRequest        int
	maxMessage, maxPending                              int
	upstreamWrite, stopGrace                            time.Duration
	sessionQueue, maxSessionRequests                    int
	maxSubscriptions                                    int
	maxUpstreamCalls, maxListing                        int
	sessionIdle, writeTimeout                           time.Duration
	bodies                                              bodyLimits
	breakerFailures                                     int
	breakerWindow, breakerCooldown                      time.Duration
	listChangedInterval, startupWait                    time.Duration
	anyHost, stateless                                  bool
	log                                                 io.Writer
	debug                                               bool
	metrics                                             prometheus.Registerer
	version                                             string
	tracer                                              *tracing.Tracer
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
		maxMessage: DefaultMaxMessageBytes, maxPending: DefaultMaxPending,
		upstreamWrite: DefaultUpstreamWriteTimeout, stopGrace: DefaultStopGrace,
		sessionQueue: DefaultSessionQueue, maxSessionRequests: DefaultMaxSessionRequests,
		maxSubscriptions: DefaultMaxSubscriptions,
		maxUpstreamCalls: DefaultMaxUpstreamCalls, maxListing: DefaultMaxListingBytes,
		sessionIdle: DefaultSessionIdle, writeTimeout: DefaultWriteTimeout, version: "dev",
		breakerFailures: DefaultBreakerFailures, breakerWindow: DefaultBreakerWindow, breakerCooldown: DefaultBreakerCooldown,
		startupWait: DefaultStartupWait,
	}
}

// WithCallTimeout is gateway.Config.WithCallTimeout, documented there.
func (c Config) WithCallTimeout(d time.Duration) Config {
	c.callTimeout = orDefault(d, DefaultCallTimeout)
	return c
}

// WithConnectTimeout is gateway.Config.WithConnectTimeout, documented there.
func (c Config) WithConnectTimeout(d time.Duration) Config {
	c.connectTimeout = orDefault(d, DefaultConnectTimeout)
	return c
}

// WithListTimeout is gateway.Config.WithListTimeout, documented there.
func (c Config) WithListTimeout(d time.Duration) Config {
	c.listTimeout = orDefault(d, DefaultListTimeout)
	return c
}

// WithKeepAlive is gateway.Config.WithKeepAlive, documented there.
func (c Config) WithKeepAlive(d time.Duration) Config { c.keepAlive = d; return c }

// WithBackoff is gateway.Config.WithBackoff, documented there.
func (c Config) WithBackoff(least, most time.Duration) Config {
	c.backoffMin = orDefault(least, DefaultBackoffMin)
	c.backoffMax = max(orDefault(most, DefaultBackoffMax), c.backoffMin)
	return c
}

// WithMaxTools is gateway.Config.WithMaxTools, documented there.
func (c Config) WithMaxTools(n int) Config {
	c.maxTools = orDefault(n, DefaultMaxTools)
	return c
}

// WithMaxListingBytes is gateway.Config.WithMaxListingBytes, documented there.
func (c Config) WithMaxListingBytes(n int) Config {
	c.maxListing = orDefault(n, DefaultMaxListingBytes)
	return c
}

// WithMaxSubscriptions is gateway.Config.WithMaxSubscriptions, documented there.
func (c Config) WithMaxSubscriptions(n int) Config {
	c.maxSubscriptions = orDefault(n, DefaultMaxSubscriptions)
	return c
}

// WithMaxResultBytes is gateway.Config.WithMaxResultBytes, documented there.
func (c Config) WithMaxResultBytes(n int) Config {
	c.maxResult = orDefault(n, DefaultMaxResultBytes)
	return c
}

// WithMaxMessageBytes is gateway.Config.WithMaxMessageBytes, documented there.
func (c Config) WithMaxMessageBytes(n int) Config {
	c.maxMessage = orDefault(n, DefaultMaxMessageBytes)
	return c
}

// WithUpstreamWriteTimeout is gateway.Config.WithUpstreamWriteTimeout, documented there.
func (c Config) WithUpstreamWriteTimeout(d time.Duration) Config {
	c.upstreamWrite = orDefault(d, DefaultUpstreamWriteTimeout)
	return c
}

// WithMaxPending is gateway.Config.WithMaxPending, documented there.
func (c Config) WithMaxPending(n int) Config {
	c.maxPending = orDefault(n, DefaultMaxPending)
	return c
}

// WithStopGrace is gateway.Config.WithStopGrace, documented there.
func (c Config) WithStopGrace(d time.Duration) Config {
	c.stopGrace = orDefault(d, DefaultStopGrace)
	return c
}

// orDefault is v, or def when v is not more than 0: a bound of 0 would
// fail every upstream, call or session at once, refuse every session,
// stop reading an upstream for ever or restart it without a pause.
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// WithMaxSessions is gateway.Config.WithMaxSessions, documented there.
func (c Config) WithMaxSessions(n int) Config {
	c.maxSessions = orDefault(n, DefaultMaxSessions)
	return c
}

// WithMaxRequestBytes is gateway.Config.WithMaxRequestBytes, documented there.
func (c Config) WithMaxRequestBytes(n int) Config {
	c.maxRequest = orDefault(n, DefaultMaxRequestBytes)
	return c
}

// WithSessionIdle is gateway.Config.WithSessionIdle, documented there.
func (c Config) WithSessionIdle(d time.Duration) Config {
	c.sessionIdle = orDefault(d, DefaultSessionIdle)
	return c
}

// WithWriteTimeout is gateway.Config.WithWriteTimeout, documented there.
func (c Config) WithWriteTimeout(d time.Duration) Config {
	c.writeTimeout = orDefault(d, DefaultWriteTimeout)
	return c
}

// WithSessionQueue is gateway.Config.WithSessionQueue, documented there.
func (c Config) WithSessionQueue(n int) Config {
	c.sessionQueue = orDefault(n, DefaultSessionQueue)
	return c
}

// WithMaxSessionRequests is gateway.Config.WithMaxSessionRequests, documented there.
func (c Config) WithMaxSessionRequests(n int) Config {
	c.maxSessionRequests = orDefault(n, DefaultMaxSessionRequests)
	return c
}

// WithMaxUpstreamCalls is gateway.Config.WithMaxUpstreamCalls, documented there.
func (c Config) WithMaxUpstreamCalls(n int) Config {
	c.maxUpstreamCalls = orDefault(n, DefaultMaxUpstreamCalls)
	return c
}

// WithBreaker is gateway.Config.WithBreaker, documented there.
func (c Config) WithBreaker(failures int, window, cooldown time.Duration) Config {
	if failures < 0 {
		failures = DefaultBreakerFailures
	}
	c.breakerFailures = failures
	c.breakerWindow = orDefault(window, DefaultBreakerWindow)
	c.breakerCooldown = orDefault(cooldown, DefaultBreakerCooldown)
	return c
}

// WithStateless is gateway.Config.WithStateless, documented there.
func (c Config) WithStateless(on bool) Config {
	c.stateless = on
	return c
}

// WithListChangedInterval is gateway.Config.WithListChangedInterval, documented there.
func (c Config) WithListChangedInterval(d time.Duration) Config {
	c.listChangedInterval = max(d, 0)
	return c
}

// WithStartupWait is gateway.Config.WithStartupWait, documented there.
func (c Config) WithStartupWait(d time.Duration) Config {
	switch {
	case d == 0:
		c.startupWait = DefaultStartupWait
	case d < 0:
		c.startupWait = 0
	default:
		c.startupWait = d
	}
	return c
}

// WithAnyHost is gateway.Config.WithAnyHost, documented there.
func (c Config) WithAnyHost(on bool) Config { c.anyHost = on; return c }

// WithLog is gateway.Config.WithLog, documented there.
func (c Config) WithLog(w io.Writer) Config { c.log = w; return c }

// WithDebug has the log (WithLog) also take the gateway's debug lines:
// what only someone chasing a client's behaviour needs, such as a client
// session that declared roots failing to answer roots/list (once per
// session). Off by default; gatectl's -v turns it on.
func (c Config) WithDebug(on bool) Config { c.debug = on; return c }

// WithMetrics is gateway.Config.WithMetrics, documented there.
func (c Config) WithMetrics(reg prometheus.Registerer) Config { c.metrics = reg; return c }

// WithVersion is gateway.Config.WithVersion, documented there.
func (c Config) WithVersion(v string) Config { c.version = v; return c }
