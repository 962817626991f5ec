package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The soak's parties that each push one of gate's bounds (docs/MCP.md,
// "Limits"), beside those of TestServeMCPUnderEveryHostileParty.
const (
	// manyTemplates is how many resource templates "many" lists: near the
	// cap of 10,000 a kind.
	manyTemplates = 9_990
	// soakSubscribers open sessions that each subscribe to the cap's
	// worth of URIs, then close.
	soakSubscribers  = 4
	maxSubscriptions = 64
	// stalledBodies are sent from three loopback addresses, each a peer of
	// its own: together they would hold three peers' shares of the body
	// budget, and the honest clients (127.0.0.1) keep theirs.
	stalledBodies = 200
	// peerStreams is more /v1/events streams than one peer may hold (32).
	peerStreams = 40
	// singleBlock is how long the single-threaded upstream's call lasts:
	// two keepalive intervals, so that a ping waits behind it past the
	// next.
	singleBlock = "10s"
)

// soakSecret is the OAuth client secret of the upstream "oauth", given
// to gatectl serve in its environment.
const soakSecret = "GATE_TEST_SOAK_CLIENT_SECRET=client-secret-of-the-soak"

// soakParties are the upstreams of the soak's hostile generation that
// push the gateway's newer bounds, and the clients that do.
type soakParties struct {
	exe, docs                                   string
	vars, many, status, slow, notes, legacy, oa string // their URLs
	tokenURL                                    string
	templates                                   *mcptest.Templates // docs's, which takes the subscriptions
	tokens                                      *mcptest.ShortTokens
	blank                                       *mcptest.BlankLines

	// sessions opened before the session cap fills, used by the attack
	level, roots *mcptest.Raw
	subscribers  []*mcptest.Raw

	allSubscribed                              chan struct{} // a token, once gate is subscribed upstream to every URI
	mostBodies                                 atomic.Int64
	streamsHeld, streamsRefused, streamsFailed atomic.Int64
	singleAnswer                               chan string
	release                                    func() // ends holdConnections' streams and bodies
	honestEchoes                               atomic.Int64
	hugeReads                                  atomic.Int64 // reads of a 100 KB URI answered
	bodiesEnded                                atomic.Int64
	subscribed                                 atomic.Int64 // subscriptions answered without error
	tokensBefore                               int64
	attackBegan                                time.Time
	mu                                         sync.Mutex
	notConnected                               []string // servers an honest call found not connected
}

// startSoakParties serves the HTTP upstreams (serve is the soak's
// httptest server maker).
func startSoakParties(t *testing.T, exe string, serve func(http.Handler) string) *soakParties {
	p := &soakParties{exe: exe, singleAnswer: make(chan string, 1), allSubscribed: make(chan struct{}, 1)}
	sdk := func(s *mcp.Server) http.Handler {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	}
	p.vars = serve(sdk(mcptest.NewTemplates("vars", mcptest.ManyVariables(1002)).Server))
	p.templates = mcptest.NewTemplates("docs", "doc://{session}/{id}")
	p.docs = serve(sdk(p.templates.Server))
	many := make([]string, manyTemplates)
	for i := range many {
		many[i] = fmt.Sprintf("many://t%d/{id}", i)
	}
	p.many = serve(sdk(mcptest.NewTemplates("many", many...).Server))
	p.status = serve(&mcptest.StatusHTTP{Next: sdk(mcptest.StatusServer(400, 403, 413, 429))})
	p.slow = serve(sdk(mcptest.Server()))
	p.notes = serve(&mcptest.UndecodableNotes{Next: sdk(mcptest.Server()), Notes: 300})
	legacy := mcptest.Server()
	p.blank = &mcptest.BlankLines{Next: mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return legacy }, nil)}
	p.legacy = serve(p.blank)
	p.tokens = &mcptest.ShortTokens{Life: 3 * time.Second}
	p.tokenURL = serve(p.tokens) + "/token"
	p.oa = serve(p.tokens.Guard(sdk(mcptest.Server())))
	return p
}

// servers is the manifest's entries of the parties' upstreams.
func (p *soakParties) servers() string {
	url := func(name, url, extra string) string {
		return fmt.Sprintf("\n[[servers]]\nname = %q\nprefix = \"%s_\"\nurl = %q\n%s", name, name, url, extra)
	}
	breaker := "breaker = { failures = 2, window = \"1h\", cooldown = \"1h\" }\n"
	return url("docs", p.docs, "") + url("vars", p.vars, "") + url("many", p.many, "") +
		url("status", p.status, breaker) +
		url("slow", p.slow, "call_timeout = \"2s\"\n"+breaker) +
		url("notes", p.notes, "") +
		url("legacy", p.legacy+"/sse", "transport = \"sse\"\n") +
		url("oauth", p.oa, fmt.Sprintf("oauth = { token_url = %q, client_id = \"gate\", client_secret = \"${secret:%s}\" }\n",
			p.tokenURL, strings.SplitN(soakSecret, "=", 2)[0])) +
		hostileEntry(p.exe, "single", "single")
}

// listedTools are a tool of each of the parties' upstreams that must be
// offered before the attack (the legacy upstream's stream of blank lines
// delays its own answers without bound, so it need not be).
var listedTools = []string{"docs_echo", "vars_echo", "many_echo", "status_s403", "slow_wait", "notes_echo", "oauth_echo", "single_block"}

// block calls the single-threaded upstream's tool that keeps it busy
// for singleBlock: gate's pings wait behind it, and it must not be killed
// for them.
func (p *soakParties) block(c *goClient) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*mcpWait)
		defer cancel()
		res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "single_block", Arguments: map[string]any{"text": singleBlock}})
		if err != nil {
			p.singleAnswer <- err.Error()
			return
		}
		p.singleAnswer <- mcptest.Text(res)
	}()
}

// openSessions opens the sessions the attack uses, before the session
// cap fills.
func (p *soakParties) openSessions(t *testing.T, endpoint, token string) {
	raw := func(caps string) *mcptest.Raw {
		c := &mcptest.Raw{T: t, Endpoint: endpoint, Token: token, Capabilities: caps}
		c.Open()
		return c
	}
	p.level = raw("")
	p.roots = raw(`{"roots":{"listChanged":true}}`)
	for range soakSubscribers {
		p.subscribers = append(p.subscribers, raw(""))
	}
}

// attack adds the parties' clients to h's attack: hostile ones from the
// sessions openSessions opened, from h and from other loopback addresses,
// and calls by attacker and second (the hostile upstreams' tools) and by
// honest (their other tools, which must keep answering).
func (p *soakParties) attack(t *testing.T, h *hostileClients, attacker, second, honest *goClient) {
	p.attackBegan = time.Now()
	p.tokensBefore = p.tokens.Asked()
	for _, c := range []*goClient{attacker, second} {
		p.callRefused(t, h, c)
		p.callSlow(h, c)
	}
	p.callHonest(t, h, honest)
	p.readHuge(t, h, attacker)
	p.subscribe(t, h)
	h.wg.Go(func() {
		_, _, _ = p.level.Exchange(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`)
		<-h.ctx.Done()
		p.level.Close()
	})
	h.loop(func() {
		_, _, _ = p.roots.Exchange(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	})
	h.wg.Go(func() {
		<-h.ctx.Done()
		p.roots.Close()
	})
	h.loop(func() {
		p.mostBodies.Store(max(p.mostBodies.Load(), int64(h.s.gauge(t, "gate_mcp_request_body_bytes"))))
		time.Sleep(50 * time.Millisecond)
	})
}

// readHuge reads, over and over, a URI of 100 KB in the space of the
// 1,002-variable template: refused by its length before it is matched,
// without the URI carried back. (Longer ones cost the SDK's decoders,
// under the race detector, seconds of both processes' CPU a read, which
// the body budget bounds; gate's matching is the same refusal at any
// length past 8 KiB.)
func (p *soakParties) readHuge(t *testing.T, h *hostileClients, c *goClient) {
	uri := "x://h/" + strings.Repeat("a", 100_000)
	h.loop(func() {
		// Each read has its own wait, past the attack's end: a loaded
		// machine may answer none within the attack.
		ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
		defer cancel()
		_, err := c.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if ctx.Err() == nil {
			p.hugeReads.Add(1)
			if assert.Error(t, err, "a read of a 100 KB URI") {
				assert.Less(t, len(err.Error()), 1024, "the URI is carried back")
			}
		}
	})
}

// callRefused calls the tools answered 403 insufficient_scope, 400, 413
// and 429, over and over: each is its call's error, told without the
// upstream's words.
func (p *soakParties) callRefused(t *testing.T, h *hostileClients, c *goClient) {
	h.loop(func() {
		for _, code := range []int{400, 403, 413, 429} {
			_, err := c.Session.CallTool(h.ctx, &mcp.CallToolParams{Name: fmt.Sprintf("status_s%d", code), Arguments: map[string]any{}})
			if err != nil && h.ctx.Err() == nil {
				assert.NotContains(t, err.Error(), "PEER-WORDS", "the upstream's words are passed on")
			}
		}
	})
}

// callSlow calls, five at once, over and over, a tool that runs past its
// call_timeout.
func (p *soakParties) callSlow(h *hostileClients, c *goClient) {
	h.loop(func() {
		done := make(chan struct{}, 5)
		for range 5 {
			go func() {
				_, _ = c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow_wait", Arguments: map[string]any{}})
				done <- struct{}{}
			}()
		}
		for range 5 {
			<-done
		}
	})
}

// callHonest calls, over and over, the other tools of the upstreams whose
// calls are refused, whose notifications do not decode and whose tokens
// expire within seconds, and reads a resource of each template upstream:
// every call must be answered.
func (p *soakParties) callHonest(t *testing.T, h *hostileClients, honest *goClient) {
	h.loop(func() {
		for _, tool := range []string{"status_echo", "notes_echo", "oauth_echo"} {
			ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
			res, err := honest.Session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"text": "honest"}})
			cancel()
			if p.honestFailed(tool, err) {
				continue
			}
			if assert.NoError(t, err, tool) {
				assert.Equal(t, "echo: honest", mcptest.Text(res), tool)
				p.honestEchoes.Add(1)
			}
		}
		for uri, want := range map[string]string{"x://h/a/b/c": "vars reads it"} {
			ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
			res, err := honest.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			cancel()
			if p.honestFailed("vars_echo", err) {
				continue
			}
			if assert.NoError(t, err, uri) && assert.Len(t, res.Contents, 1) {
				assert.Equal(t, want, res.Contents[0].Text)
				p.honestEchoes.Add(1)
			}
		}
	})
}

// honestFailed records an honest call of tool that failed because its
// server was not connected: checkAttack accepts it only if the server
// went down for want of an answer in time (a ping's, a token's), the
// machine's share.
func (p *soakParties) honestFailed(tool string, err error) bool {
	if err == nil || !strings.Contains(err.Error(), "is not available now") {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notConnected = append(p.notConnected, strings.SplitN(tool, "_", 2)[0])
	return true
}

// subscribe has each subscriber session subscribe to the cap's worth of
// URIs at once, then to one more, refused; once all have, gate must be
// subscribed upstream to each URI, and once the attack ends they close.
func (p *soakParties) subscribe(t *testing.T, h *hostileClients) {
	var subscribed sync.WaitGroup
	subscribed.Add(len(p.subscribers))
	h.wg.Go(func() {
		subscribed.Wait()
		// Only when every subscription was answered: one that was not,
		// its server down for a late ping, may still be held.
		if want := int(p.subscribed.Load()); want == soakSubscribers*maxSubscriptions {
			assert.Eventually(t, func() bool { return p.templates.Subscribed() == want }, mcpWait, 20*time.Millisecond,
				"gate is subscribed upstream to %d URIs, not the %d its sessions are", p.templates.Subscribed(), want)
		}
		p.allSubscribed <- struct{}{}
	})
	ask := func(c *mcptest.Raw, i, j int) string {
		code, answer, err := c.Exchange(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"doc://s%d/d%d"}}`, j+1, i, j))
		if assert.NoError(t, err) {
			assert.Equal(t, http.StatusOK, code, answer)
		}
		return answer
	}
	for i, c := range p.subscribers {
		h.wg.Go(func() {
			defer func() {
				<-h.ctx.Done()
				<-p.allSubscribed
				p.allSubscribed <- struct{}{}
				c.Close()
			}()
			defer subscribed.Done()
			// Four at a time: every loopback client is one peer of
			// serve's, whose connections are capped.
			var each sync.WaitGroup
			var mine atomic.Int64
			slots := make(chan struct{}, 4)
			for j := range maxSubscriptions {
				slots <- struct{}{}
				each.Go(func() {
					defer func() { <-slots }()
					answer := ask(c, i, j)
					if strings.Contains(answer, "is not available now") {
						p.honestFailed("docs_", errors.New(answer))
						return
					}
					if assert.NotContains(t, answer, `"error"`) {
						p.subscribed.Add(1)
						mine.Add(1)
					}
				})
			}
			each.Wait()
			if mine.Load() == maxSubscriptions {
				assert.Contains(t, ask(c, i, maxSubscriptions), "-32602", "a subscription past the cap")
			}
		})
	}
}

// holdConnections, before the attack (whose idle connections keep serve
// from accepting others quickly), opens event streams past one peer's
// share from one loopback address, waiting until each is held or
// refused, and sends stalled bodies, each 512 KiB of a declared 4 MiB,
// from three others, waiting until gate refuses some of them past a
// peer's share, or until all have ended (a machine too slow to read
// them all within the body timeout answers them 408 first). They are
// held until release.
func (p *soakParties) holdConnections(t *testing.T, s *serveProcess) {
	var ctx context.Context
	ctx, p.release = context.WithCancel(context.Background())
	t.Cleanup(p.release)
	for range peerStreams {
		go p.holdStream(ctx, s, "127.0.0.5")
	}
	require.Eventually(t, func() bool { return p.streamsHeld.Load()+p.streamsRefused.Load()+p.streamsFailed.Load() == peerStreams }, mcpWait, 20*time.Millisecond,
		"event streams: %d held, %d refused", p.streamsHeld.Load(), p.streamsRefused.Load())
	for i := range stalledBodies {
		go p.stallBody(ctx, s, fmt.Sprintf("127.0.0.%d", 2+i%3))
	}
	require.Eventually(t, func() bool {
		m := s.series(t, "gate_mcp_request_body_bytes")
		p.mostBodies.Store(max(p.mostBodies.Load(), int64(m["gate_mcp_request_body_bytes"])))
		return s.gauge(t, `gate_mcp_request_bodies_refused_total{reason="peer_share"}`) > 0 || p.bodiesEnded.Load() == stalledBodies
	}, 4*mcpWait, 20*time.Millisecond, "stalled bodies neither refused past their peer's share nor ended")
}

// dialFrom dials serve from a loopback address of its own: a peer of its
// own to serve.
func dialFrom(ctx context.Context, from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: mcpWait}
	return d.DialContext(ctx, "tcp", addr)
}

// stallBody sends a POST to /mcp that declares 4 MiB, sends 512 KiB of
// it and stalls until serve closes the connection or the attack ends.
func (p *soakParties) stallBody(ctx context.Context, s *serveProcess, from string) {
	defer p.bodiesEnded.Add(1)
	c, err := dialFrom(ctx, from, s.addr)
	if err != nil {
		return
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", s.token, 4<<20)
	_, _ = c.Write([]byte(strings.Repeat(" ", 512<<10)))
	_, _ = io.Copy(io.Discard, c)
}

// holdStream opens a /v1/events stream and holds it until the attack
// ends, counting it held or refused.
func (p *soakParties) holdStream(ctx context.Context, s *serveProcess, from string) {
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
		return dialFrom(ctx, from, addr)
	}}}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.addr+"/v1/events", nil)
	if err != nil {
		return
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := client.Do(req)
	if err != nil {
		p.streamsFailed.Add(1)
		return
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		p.streamsHeld.Add(1)
		_, _ = io.Copy(io.Discard, resp.Body)
	case http.StatusTooManyRequests:
		p.streamsRefused.Add(1)
	default:
		p.streamsFailed.Add(1)
	}
}

// checkAttack checks, once the attack is over and before the hostile
// upstreams go, the bounds the parties pushed.
func (p *soakParties) checkAttack(t *testing.T, s *serveProcess, honest *goClient) {
	p.release()
	t.Logf("parties: %d honest echoes and reads; most request body bytes %d; event streams held %d, refused %d; tokens asked %d in %v; %d KiB of blank lines",
		p.honestEchoes.Load(), p.mostBodies.Load(), p.streamsHeld.Load(), p.streamsRefused.Load(),
		p.tokens.Asked()-p.tokensBefore, time.Since(p.attackBegan).Round(time.Millisecond), p.blank.Written()>>10)
	for _, line := range strings.Split(s.stderr.String(), "\n") {
		for _, server := range []string{"docs", "vars", "many", "status", "slow", "notes", "oauth", "single"} {
			if _, why, ok := strings.Cut(line, "upstream "+server+" down: "); ok {
				t.Logf("server %s went down: %s", server, why)
				if slices.Contains(p.notConnected, server) {
					assert.Contains(t, why, "no answer", "an honest call found server %s down, for other than a timeout", server)
				}
			}
		}
	}
	// The attack's sessions are closed, whatever the attack left them.
	for _, c := range append([]*mcptest.Raw{p.level, p.roots}, p.subscribers...) {
		require.Eventually(t, func() bool {
			c.Close()
			return c.Gone()
		}, mcpWait, 100*time.Millisecond, "a session of the attack is not closed")
	}
	select {
	case answer := <-p.singleAnswer:
		assert.Equal(t, "blocked "+singleBlock, answer, "the single-threaded upstream's long call")
	case <-time.After(2 * mcpWait):
		t.Error("the single-threaded upstream's long call was never answered")
	}
	assert.NotContains(t, s.stderr.String(), "upstream single down", "the single-threaded upstream was killed for a late ping")
	for _, server := range []string{"status", "slow"} {
		assert.Zero(t, s.gauge(t, fmt.Sprintf("gate_mcp_breaker_opens_total{server=%q}", server)), "server %s's breaker opened", server)
	}
	assert.Equal(t, "echo: after", honest.call(t, "slow_echo", "after"), "the slow tool's server answers")
	ctx, cancel := context.WithTimeout(context.Background(), mcpWait)
	defer cancel()
	res, err := honest.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "many://t9000/doc"})
	if assert.NoError(t, err, "a resource in the last thousand of many's templates") && assert.Len(t, res.Contents, 1) {
		assert.Equal(t, "many reads it", res.Contents[0].Text)
	}
	assert.Positive(t, p.honestEchoes.Load())
	t.Logf("reads of a 100 KB URI answered: %d", p.hugeReads.Load())
	assert.Positive(t, p.hugeReads.Load(), "no read of a 100 KB URI was answered")
	// The subscribers have closed: gate unsubscribes where it subscribed.
	assert.Eventually(t, func() bool { return p.templates.Subscribed() == 0 }, mcpWait, 50*time.Millisecond,
		"gate's subscriptions outlived their sessions: %d at the upstream", p.templates.Subscribed())
	budget := float64(64 << 20)
	assert.LessOrEqual(t, float64(p.mostBodies.Load()), budget, "request bodies held past the budget")
	t.Logf("stalled bodies refused past a peer's share: %.0f", s.gauge(t, `gate_mcp_request_bodies_refused_total{reason="peer_share"}`))
	assert.LessOrEqual(t, p.streamsHeld.Load(), int64(32), "event streams of one peer")
	assert.Equal(t, int64(peerStreams), p.streamsHeld.Load()+p.streamsRefused.Load(), "every event stream held or refused with 429")
	// The token lives 3 s, and is asked for again halfway through its
	// life, never within a second of the last.
	asked := p.tokens.Asked() - p.tokensBefore
	assert.Positive(t, asked, "the short-lived token was renewed")
	assert.LessOrEqual(t, asked, int64(time.Since(p.attackBegan).Seconds())+2, "tokens asked more than once a second")
	assert.Greater(t, p.blank.Written(), int64(256<<10), "the legacy upstream streamed blank lines")
}

// checkGone checks, once the attackers have left and the hostile
// upstreams are gone, that what the parties made gate hold is given back.
func (p *soakParties) checkGone(t *testing.T, s *serveProcess) {
	require.Eventually(t, func() bool {
		m := s.series(t, "gate_mcp_request_body_bytes", "gate_event_streams")
		return m["gate_mcp_request_body_bytes"] == 0 && m["gate_event_streams"] == 0
	}, mcpWait, 50*time.Millisecond, "request bodies or event streams held after their clients left")
}
