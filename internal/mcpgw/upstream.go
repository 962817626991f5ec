package mcpgw

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/uplink"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Upstream states, as the gateway logs, publishes and exports them.
const (
	StateConnecting = "connecting" // starting or reaching it, then listing
	StateReady      = "ready"      // connected, its tools listed
	StateDown       = "down"       // the last session failed; waiting to retry
)

// maxPages bounds the pages of one listing: an upstream whose cursors never
// end would otherwise keep the listing going until its timeout.
const maxPages = 1000

var upstreamIDs atomic.Uint64

// upstream is the gateway's connection to one MCP server: it connects,
// lists the tools, relists on list_changed, and reconnects with backoff
// when the session ends, until it is stopped.
type upstream struct {
	id   uint64
	name string
	// conn is the part of the manifest entry the connection depends on;
	// a reload that changes it replaces the upstream.
	conn manifest.Upstream
	key  string
	dir  string // the manifest's directory, where a command runs
	gw   *Gateway

	relist chan struct{} // cap 1
	// pending is the lists (listKinds) to make on the next look at
	// relist (wantList).
	pending atomic.Uint32
	// levelKick says the log level gate asks of upstreams changed
	// (logging.go); cap 1.
	levelKick chan struct{}
	// rootsKick says the clients' roots changed (roots.go); cap 1.
	rootsKick chan struct{}
	// callSlots holds one token per forwarded call in flight, up to the
	// gateway's cap (Config.WithMaxUpstreamCalls).
	callSlots chan struct{}
	stop      context.CancelFunc
	done      chan struct{}
	schemas   compileSlot // its schema compiles, one at a time (compile.go)
	breaker   *breaker    // of its forwarded calls (breaker.go)
	// breakerPolicy is its server's, as last computed (for the
	// keepalive's verdicts).
	breakerPolicy atomic.Pointer[breakerPolicy]
	// timedOutAt is when a forwarded request last ran past its call
	// timeout (unix nanoseconds; 0: never), for the keepalive.
	timedOutAt atomic.Int64
	// retryAt is when it connects again while it is down (unix
	// nanoseconds on the wall clock), for the lists' ttlMs.
	retryAt atomic.Int64
	// started is when the gateway started it; settled is set once its
	// first connection ended, ready or down (firstlook.go).
	started time.Time
	settled atomic.Bool
	// secrets are the values of its credentials, taken out of every text
	// about it that gate shows (redact.go).
	secrets redactor

	mu      sync.Mutex // guards what follows; never held across I/O
	state   string
	lastErr string
	// cause is why its latest session failed, without the retry that
	// lastErr adds; kept while it connects again, "" once it is ready.
	cause   string
	session *mcp.ClientSession
	// sessionCtx ends with the session, with why as its cause; guard is
	// the session's.
	sessionCtx context.Context
	guard      *uplink.Guard
	tools      []listedTool
	over       bool             // it lists more tools than the gateway's cap
	feats      upstreamFeatures // its resources, templates and prompts (features.go)
	lists      uint64           // listings made, one per session and list_changed burst
	// routes maps the progress tokens gate sent upstream to the session
	// and token of the client whose call it forwarded.
	routes map[string]progressRoute
	nextTk uint64
	// callers are the requests in flight on behalf of clients, whom its
	// requests for input go to (relay.go).
	callers relayCallers
	// urlElicits are the client sessions its url-mode elicitations went
	// to (elicitcomplete.go).
	urlElicits urlElicitations
	// ties are its calls' event streams, over streamable HTTP, that tie
	// its requests for input to their call (relay.go).
	ties *uplink.Ties
}

// connKey is what the connection depends on: a reload that keeps it keeps
// the session (and the process) as it is.
func connKey(u *manifest.Upstream) string {
	k := u.URL + "\x00" + u.Transport + "\x00"
	for _, a := range u.Command {
		k += strconv.Quote(a)
	}
	return k + "\x00" + envKey(u) + "\x00" + credentialsKey(u)
}

func newUpstream(gw *Gateway, name, dir string, conn manifest.Upstream) *upstream {
	return &upstream{
		id: upstreamIDs.Add(1), name: name, conn: conn, key: dir + "\x00" + connKey(&conn), dir: dir, gw: gw,
		relist: make(chan struct{}, 1), levelKick: make(chan struct{}, 1), rootsKick: make(chan struct{}, 1), done: make(chan struct{}), callSlots: make(chan struct{}, gw.cfg.maxUpstreamCalls),
		state: StateConnecting, routes: map[string]progressRoute{}, breaker: newBreaker(), started: time.Now(),
		ties: uplink.NewTies(relayedInput),
	}
}

// snapshot is what the offered set is computed from.
func (u *upstream) snapshot() (state, lastErr string, tools []listedTool, over bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.state, u.lastErr, u.tools, u.over
}

func (u *upstream) setState(state, why string) { u.setStateNote(state, why, "") }

// setStateNote is setState with note, what the gateway does next (its
// retry), added to why where the state is logged and shown; cause keeps
// why alone.
func (u *upstream) setStateNote(state, why, note string) {
	why = u.secrets.text(why)
	u.mu.Lock()
	changed := u.state != state
	u.state, u.lastErr = state, why+note
	switch state {
	case StateReady:
		u.cause = ""
	case StateDown:
		u.cause = why
	}
	u.mu.Unlock()
	if state != StateConnecting {
		u.settled.Store(true)
	}
	if changed {
		u.gw.upstreamState(u, state, why+note)
	}
	u.gw.poke()
}

// retryTime is when it connects again while it is down.
func (u *upstream) retryTime() time.Time { return time.Unix(0, u.retryAt.Load()) }

// run keeps a session open until ctx is done.
func (u *upstream) run(ctx context.Context) {
	defer close(u.done)
	backoff := u.gw.cfg.backoffMin
	for {
		start := time.Now()
		err := u.serve(ctx)
		if ctx.Err() != nil {
			u.mu.Lock()
			u.session = nil
			u.mu.Unlock()
			return
		}
		if time.Since(start) >= u.gw.cfg.backoffMax {
			backoff = u.gw.cfg.backoffMin
		}
		if errors.Is(err, errCredentialsRejected) {
			backoff = u.gw.cfg.backoffMax
		}
		u.retryAt.Store(time.Now().Add(backoff).UnixNano())
		u.setStateNote(StateDown, err.Error(), fmt.Sprintf(" (retrying in %v)", backoff.Round(time.Millisecond)))
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, u.gw.cfg.backoffMax)
		u.setState(StateConnecting, "")
	}
}

// serve runs one session: connect, list, relist on demand, until the
// session ends or ctx is done. It returns why the session ended.
func (u *upstream) serve(ctx context.Context) error {
	cfg := &u.gw.cfg
	g := uplink.NewGuard(cfg.maxPending, reachesGate)
	l, err := u.link(g)
	if err != nil {
		return err
	}
	opts := &mcp.ClientOptions{
		// No KeepAlive: gate pings every session itself (keepAlive).
		ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { u.wantList(listTools) },
		ResourceListChangedHandler:  func(context.Context, *mcp.ResourceListChangedRequest) { u.wantList(listResources) },
		PromptListChangedHandler:    func(context.Context, *mcp.PromptListChangedRequest) { u.wantList(listPrompts) },
		ResourceUpdatedHandler:      u.resourceUpdated,
		ProgressNotificationHandler: u.progress,
		//lint:ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it
		LoggingMessageHandler: u.forwardLog,
	}
	// Its capabilities, and its handlers of the upstream's requests
	// (relay.go).
	u.clientCapabilities(opts)
	client := mcp.NewClient(&mcp.Implementation{Name: "gate", Version: cfg.version}, opts)
	u.addClientMiddleware(client, g)
	var transport mcp.Transport = l
	if _, ok := l.(*uplink.StdioLink); ok {
		// An HTTP link scans its bodies for progress itself (link).
		transport = u.countProgress(l)
	}
	transport = u.recoverReads(transport, g)
	cctx, cancel := context.WithTimeout(ctx, cfg.connectTimeout)
	// A handshake cut short (its timeout, gate stopping) kills the link at
	// once: the SDK would otherwise wait on the cancellation it sends an
	// upstream that answers nothing.
	stopKill := context.AfterFunc(cctx, l.Kill)
	cs, err := client.Connect(cctx, transport, nil)
	stopKill()
	timedOut := errors.Is(cctx.Err(), context.DeadlineExceeded)
	cancel()
	if err != nil {
		l.Kill()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return connectError(l, err, timedOut, cfg.connectTimeout)
	}
	l.HandshakeDone()
	// sctx is the session's: its calls, listings and pings end with it,
	// with why it ended as the cause.
	sctx, end := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-g.Broken():
			end(g.Reason())
		case <-sctx.Done():
		}
	}()
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }()
	// The keepalive ends with the session, before serve returns: what it
	// tells the breaker is over once the upstream is stopped.
	pinging := make(chan struct{})
	// Each goroutine that handles the upstream's answers makes a panic
	// while it does its session's failure (panics.go).
	go func() {
		defer close(pinging)
		defer u.failOnPanic(g, "its answer to a ping")
		u.keepAlive(sctx, cs, g, cfg.keepAlive)
	}()
	go func() {
		defer u.failOnPanic(g, "its answer to logging/setLevel")
		u.keepLogLevel(sctx, cs)
	}()
	go u.keepRoots(sctx, client)
	var why error
	defer func() {
		u.closeSession(cs, l, end, why, ctx.Err() == nil)
		<-pinging
	}()
	u.mu.Lock()
	u.session, u.sessionCtx, u.guard = cs, sctx, g
	u.mu.Unlock()
	// Drain a list_changed that arrived before the session was usable: the
	// first listing below sees it, and lists every kind.
	select {
	case <-u.relist:
	default:
	}
	u.pending.Store(uint32(listAll))
	for first := true; ; first = false {
		if why = u.listPending(sctx, cs); why != nil {
			return why
		}
		if first {
			go func() {
				defer u.failOnPanic(g, "its answer to resources/subscribe")
				u.gw.resubscribe(sctx, u, cs)
			}()
		}
		select {
		case <-sctx.Done():
			why = context.Cause(sctx)
			return why
		case err := <-ended:
			why = sessionEnded(l, err)
			return why
		case <-u.relist:
		}
	}
}

// closeSlack is what closing a session may take beyond twice its
// upstream's stop grace before the link is killed under it; cancelFlush
// bounds waiting, before the close, for the cancellations of the calls
// that ended with the session to be sent.
const (
	closeSlack  = time.Second
	cancelFlush = time.Second
)

// closeSession ends a session: the calls, listings and pings still on it
// end with why, the upstream is down (unless it is being stopped), then
// the session is closed as MCP says (stdin, SIGTERM, SIGKILL to a stdio
// upstream's group; a DELETE over HTTP), and whatever of it is left after
// twice the stop grace and closeSlack is killed.
func (u *upstream) closeSession(cs *mcp.ClientSession, l link, end context.CancelCauseFunc, why error, failed bool) {
	deadline := time.Now().Add(2*u.gw.cfg.stopGrace + closeSlack)
	u.mu.Lock()
	u.session, u.sessionCtx, u.guard = nil, nil, nil
	u.mu.Unlock()
	if why == nil {
		why = uplink.ErrSessionOver
	}
	end(why)
	if failed {
		// Its tools are hidden now, not once it has been stopped.
		u.setState(StateDown, why.Error())
	}
	g := l.Guard()
	if g.Reason() == nil {
		// A session closed whole: the calls just ended are cancelled at
		// the upstream first, so that its tools stop too.
		flush := time.Now().Add(cancelFlush)
		if deadline.Before(flush) {
			flush = deadline
		}
		g.Cancels.Flushed(flush)
	}
	g.Fail(uplink.ErrSessionOver)
	closed, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(closed)
		_ = cs.Close()
	}()
	// The SDK closes the transport only once nothing is in flight on the
	// session; a stdio upstream is stopped now, whatever is (a write it
	// does not read, a handler), which ends it.
	go func() {
		defer close(stopped)
		l.Stop()
	}()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for closed != nil || stopped != nil {
		select {
		case <-closed:
			closed = nil
		case <-stopped:
			stopped = nil
		case <-t.C:
			l.Kill()
			return
		}
	}
	l.Kill()
}

// link is the transport of one upstream session, with what gate needs of
// it beyond the SDK's Transport.
type link interface {
	mcp.Transport
	Guard() *uplink.Guard
	// HandshakeDone marks the session open: from now on it is closed
	// gracefully.
	HandshakeDone()
	// Ended says how a stdio upstream's command ended on its own, and
	// its last line on stderr; the zero Ending for one that runs, that
	// gate ended, or an HTTP upstream.
	Ended() uplink.Ending
	// Stop ends the session gracefully below the SDK, where the SDK's
	// Close would wait: a stdio upstream's command is stopped.
	Stop()
	// Kill ends the session at once, below the SDK.
	Kill()
}

// connectError says why a session could not be opened: what gate saw of
// the upstream, before the SDK's account of it.
func connectError(l link, err error, timedOut bool, timeout time.Duration) error {
	var nostart *uplink.StartFailure
	if r := l.Guard().Reason(); r != nil && r != uplink.ErrSessionOver {
		return r
	}
	if errors.As(err, &nostart) {
		return err
	}
	if e := endedSettled(l); e.How != "" {
		return fmt.Errorf("the command %s before answering initialize%s%s", e.How, lastWords(e.LastLine), exitHint(e.Status))
	}
	if hl, ok := l.(*uplink.HTTPLink); ok {
		if refused := hl.Refused(); refused != "" {
			return errors.New(refused)
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			return fmt.Errorf("nothing accepts connections at %s (connection refused)", hl.URL())
		}
	}
	if timedOut {
		return fmt.Errorf("no answer to initialize within %v", timeout)
	}
	return fmt.Errorf("connect: %v", err)
}

// endSettle bounds how long a failed connection waits to learn how its
// command ended.
const endSettle = 250 * time.Millisecond

// endedSettled is how l's command ended on its own, waiting at most
// endSettle for it to end: a handshake that failed on a closed pipe fails
// a moment before the command that closed it is waited for, and how the
// command ended (status 127: not found) says more than the broken pipe.
func endedSettled(l link) uplink.Ending {
	if s, ok := l.(interface {
		EndedWithin(time.Duration) uplink.Ending
	}); ok {
		return s.EndedWithin(endSettle)
	}
	return l.Ended()
}

// lastWords is a command's last line on stderr, for the reason of its end.
func lastWords(line string) string {
	if line == "" {
		return ""
	}
	return "; its last line on stderr: " + line
}

// statusNotFound is the exit status a POSIX shell (and env, npx, uvx,
// which run programs the way it does) gives when it cannot find the
// program it was asked to run.
const statusNotFound = 127

// exitHint says what a command's exit status likely means, for the
// reason of its end: status 127 is a program it runs that is not on the
// PATH gate gives it. "" for any other status.
func exitHint(status int) string {
	if status != statusNotFound {
		return ""
	}
	return "; status 127 is a shell's \"command not found\": is the program it runs on the PATH that default_env or pass_env gives it?"
}

// sessionEnded says why an open session ended.
func sessionEnded(l link, err error) error {
	if r := l.Guard().Reason(); r != nil && r != uplink.ErrSessionOver {
		return r
	}
	if e := l.Ended(); e.How != "" {
		return fmt.Errorf("the command %s%s%s", e.How, lastWords(e.LastLine), exitHint(e.Status))
	}
	if err == nil {
		return errors.New("the server closed the session")
	}
	return fmt.Errorf("session ended: %w", err)
}

// list reads every page of the upstream's tools, checks each, and makes
// the upstream ready. A listing that fails or times out ends the session:
// an upstream that cannot list cannot be trusted to answer calls.
func (u *upstream) list(session context.Context, cs *mcp.ClientSession) error {
	ctx, cancel := context.WithTimeout(session, u.gw.cfg.listTimeout)
	defer cancel()
	var tools []listedTool
	over, cursor, size := false, "", 0
	_, _, last, _ := u.snapshot()
	prev := make(map[string]listedTool, len(last))
	for _, lt := range last {
		if lt.tool != nil {
			prev[lt.name] = lt
		}
	}
	for page := 0; ; page++ {
		if page == maxPages {
			return fmt.Errorf("tools/list: more than %d pages", maxPages)
		}
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			switch {
			case session.Err() != nil:
				return context.Cause(session)
			case ctx.Err() != nil:
				return fmt.Errorf("tools/list: no answer within %v", u.gw.cfg.listTimeout)
			}
			return fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range res.Tools {
			if len(tools) >= u.gw.cfg.maxTools {
				over = true
				break
			}
			lt := checkTool(ctx, t, &u.schemas, prev)
			if size += lt.size(); size > u.gw.cfg.maxListing {
				over = true
				break
			}
			tools = append(tools, lt)
		}
		if res.NextCursor == "" || over {
			break
		}
		cursor = res.NextCursor
	}
	sortListing(tools, listedTool.sortKey, listedTool.sortDef)
	u.mu.Lock()
	u.tools, u.over = tools, over
	u.lists++
	u.mu.Unlock()
	if over {
		u.gw.logf("upstream %s lists more tools than the gateway keeps of one server (%d, or %d bytes of their definitions): those past it are not offered", u.name, u.gw.cfg.maxTools, u.gw.cfg.maxListing)
	}
	u.setState(StateReady, "")
	return nil
}

// link makes the transport the manifest entry asks for.
func (u *upstream) link(g *uplink.Guard) (link, error) {
	if u.conn.URL != "" {
		l := uplink.NewHTTP(u.conn.URL, g, u.gw.cfg.linkLimits(), forwardedMethod, statusOfCall)
		if u.conn.Transport == manifest.TransportSSE {
			if err := l.UseSSE(); err != nil {
				return nil, err
			}
		} else {
			l.TieCalls(u.ties)
		}
		creds, err := newCredentials(&u.conn, &u.gw.cfg, g, l.Base(), &u.secrets)
		if err != nil {
			return nil, err
		}
		// Progress is counted as the upstream's bodies are read, below
		// gate's bounds on them (countProgress); the credentials go on
		// below that, to the url's origin only (credentials.go).
		l.SetNext(&progressScanTransport{base: u.gw.cfg.tracer.Transport(creds), u: u})
		// A panic while its bodies are read is the upstream's failure
		// (panics.go): the other links are wrapped by recoverReads.
		l.WatchBodies(func(v any) error { return u.panicked("the bytes of a message", v) }, func() { u.hookData("read") })
		return l, nil
	}
	if len(u.conn.Command) == 0 {
		return nil, errors.New("no command or url")
	}
	env, err := commandEnv(&u.conn, &u.secrets)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(u.conn.Command[0], u.conn.Command[1:]...)
	cmd.Env = env // only what the manifest passes: non-nil, possibly empty
	// It runs in the manifest's directory, so that its relative
	// arguments mean what they mean beside the manifest.
	cmd.Dir = u.dir
	log := u.gw.lineLog("upstream " + u.name + ": ")
	log.secrets = &u.secrets
	return uplink.NewStdio(g, cmd, log, u.gw.cfg.linkLimits()), nil
}

// linkLimits are the bounds of the gateway's config its links keep.
func (c *Config) linkLimits() uplink.Limits {
	return uplink.Limits{MaxMessage: c.maxMessage, WriteTimeout: c.upstreamWrite, MaxCalls: c.maxUpstreamCalls, StopGrace: c.stopGrace}
}
