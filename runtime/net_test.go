package runtime

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
)

// peer is a loopback server that runs handle on each connection and
// reports each connection's end on closed.
type peer struct {
	net.Listener
	accepted chan struct{}
	closed   chan struct{}
}

func newPeer(t testing.TB, handle func(net.Conn)) *peer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &peer{Listener: l, accepted: make(chan struct{}, 64), closed: make(chan struct{}, 64)}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1) // the accept loop itself, so that no handler's Add starts from zero during Wait
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.accepted <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { p.closed <- struct{}{} }()
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return p
}

// sink reads until the other side closes.
func sink(c net.Conn) { io.Copy(io.Discard, c) }

func echo(c net.Conn) { io.Copy(c, c) }

// wait waits for one event on ch; a generous bound, since the question is
// whether it happens at all.
func waitFor(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen", what)
	}
}

func talkProbe(t testing.TB, e *Engine, cfg ProbeConfig) *Probe {
	t.Helper()
	return hostileProbe(t, e, "talk", cfg)
}

func TestRunEndClosesHandles(t *testing.T) {
	srv := newPeer(t, sink)
	e := newEngine(t, NewEngineConfig())
	tests := []struct {
		mode    string
		outcome Outcome
		kind    ErrorKind
	}{
		{"keep", Available, 0},
		{"trap", Failed, KindTrap},
		{"spin", Failed, KindOverrun},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			p := talkProbe(t, e, ProbeConfig{
				Grants: hostfuncs.Grants{Dial: []string{"127.0.0.1:*"}},
				Config: map[string]string{"mode": tt.mode, "addr": srv.Addr().String()},
			})
			for range 2 { // the second run may reuse the instance
				res := p.Run(context.Background())
				require.Equal(t, tt.outcome, res.Outcome, "%v", res.Err)
				if tt.kind != 0 {
					var perr *ProbeError
					require.ErrorAs(t, res.Err, &perr)
					assert.Equal(t, tt.kind, perr.Kind)
				}
				waitFor(t, srv.closed, "the server seeing the stream close after the run")
			}
		})
	}
}

func TestEngineCloseDuringRecv(t *testing.T) {
	srv := newPeer(t, sink)
	e, err := NewEngine(context.Background(), NewEngineConfig())
	require.NoError(t, err)
	p := talkProbe(t, e, ProbeConfig{
		Grants: hostfuncs.Grants{Dial: []string{"127.0.0.1:*"}},
		Config: map[string]string{"mode": "recv", "addr": srv.Addr().String()},
	})
	done := make(chan Result, 1)
	go func() { done <- p.Run(context.Background()) }()
	waitFor(t, srv.accepted, "the probe connecting")
	require.NoError(t, e.Close(context.Background()))
	res := <-done
	require.Equal(t, Failed, res.Outcome)
	// A recv that waited out its budget would answer "timed out" (and the
	// probe "unavailable"): ErrClosed says the Close cut it short.
	assert.ErrorIs(t, res.Err, ErrClosed)
	assert.NotErrorIs(t, res.Err, context.DeadlineExceeded)
	waitFor(t, srv.closed, "the server seeing the stream close")
}

func TestWithDialContext(t *testing.T) {
	srv := newPeer(t, echo)
	var dials atomic.Int32
	cfg := NewEngineConfig().WithDialContext(func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		if addr != "db.example.test:5432" {
			return nil, errors.New("unexpected address " + addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", srv.Addr().String())
	})
	e := newEngine(t, cfg)
	grants := hostfuncs.Grants{Dial: []string{"db.example.test:5432"}}
	p := talkProbe(t, e, ProbeConfig{Grants: grants,
		Config: map[string]string{"mode": "echo", "addr": "db.example.test:5432", "send": "hi"}})
	res := p.Run(context.Background())
	require.Equal(t, Available, res.Outcome, "%v %s", res.Err, res.Reason)
	assert.Equal(t, "hi", res.Reason)

	ask := hostileProbe(t, e, "ask", ProbeConfig{Grants: grants,
		Config: map[string]string{"op": "dial", "arg": "db.example.test:5432"}})
	res = ask.Run(context.Background())
	require.Equal(t, Available, res.Outcome, "%v %s", res.Err, res.Reason)
	assert.Equal(t, int32(2), dials.Load(), "gate.connect and gate.dial both dial through it")
}

func TestProbeTLSRootCAs(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.StartTLS()
	tcfg := srv.TLS.Clone()
	srv.Close()
	leaf, err := x509.ParseCertificate(tcfg.Certificates[0].Certificate[0])
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	tlsPeer := newPeer(t, func(c net.Conn) { echo(tls.Server(c, tcfg)) })
	_, err = x509.SystemCertPool() // loaded outside the budget
	require.NoError(t, err)

	e := newEngine(t, NewEngineConfig())
	config := map[string]string{"mode": "echo", "addr": "tls:" + tlsPeer.Addr().String(), "send": "hello"}
	grants := hostfuncs.Grants{Dial: []string{"127.0.0.1:*"}}

	p := talkProbe(t, e, ProbeConfig{Grants: grants, Config: config, TLSRootCAs: pool})
	res := p.Run(context.Background())
	require.Equal(t, Available, res.Outcome, "%v %s", res.Err, res.Reason)
	assert.Equal(t, "hello", res.Reason)

	p = talkProbe(t, e, ProbeConfig{Grants: grants, Config: config})
	res = p.Run(context.Background())
	require.Equal(t, Unavailable, res.Outcome, "%v", res.Err)
	assert.Contains(t, res.Reason, "certificate signed by unknown authority")
}

func TestRunHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("X-Send"))
		io.WriteString(w, "body of "+r.URL.Path)
	}))
	defer srv.Close()
	e := newEngine(t, NewEngineConfig())
	p := talkProbe(t, e, ProbeConfig{
		Grants: hostfuncs.Grants{HTTP: []string{"http://127.0.0.1:*/ok"}},
		Config: map[string]string{"mode": "http", "req": "GET " + srv.URL + "/ok\nX-Send: x1\n", "header": "x-echo"},
	})
	res := p.Run(context.Background())
	require.Equal(t, Available, res.Outcome, "%v %s", res.Err, res.Reason)
	assert.Equal(t, "body of /ok", res.Reason)
	require.Len(t, res.Logs, 3)
	assert.Equal(t, "x1", res.Logs[0].Message)
}

// TestRunSecretsStayOut: the value of a granted secret, echoed back by a
// peer, reaches nothing of the Result: the read that held it is withheld
// whole, the run is cut off, and what does reach the Result (the host's
// sentence, naming the secret and the peer) is the same for a short and a
// long value. The secret is then spent for the probe: its next run may not
// send it.
func TestRunSecretsStayOut(t *testing.T) {
	srv := newPeer(t, echo)
	var reasons []string
	for _, v := range []string{"s3cr7", "0123456789abcdefghijklmnopqrstuvwxyzABCD"} {
		e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"PW": v})))
		p := talkProbe(t, e, ProbeConfig{
			Grants: hostfuncs.Grants{Dial: []string{"127.0.0.1:*"}, Secrets: map[string][]string{"PW": {srv.Addr().String()}}},
			Config: map[string]string{"mode": "echo", "addr": srv.Addr().String(), "send": "AUTH ${secret:PW}\r\n"},
		})
		res := p.Run(context.Background())
		require.NotEqual(t, Available, res.Outcome, "%v %s", res.Err, res.Reason)
		assert.Contains(t, res.Reason, `secret "PW" came back from `+srv.Addr().String())
		for _, l := range res.Logs {
			assert.NotContains(t, l.Message, v)
		}
		assert.NotContains(t, res.Output, v)
		assert.Contains(t, res.Denied, hostfuncs.Denial{Kind: "echo", Request: "PW", To: srv.Addr().String(), Probe: "talk"})
		reasons = append(reasons, res.Reason)

		again := p.Run(context.Background())
		require.NotEqual(t, Available, again.Outcome)
		assert.NotContains(t, again.Reason, "came back", "the next run sends nothing to be echoed")
		require.NotEmpty(t, again.Denied, "the spent secret is refused: %s", again.Reason)
		assert.Equal(t, "spent", again.Denied[0].Kind)
	}
	assert.Equal(t, reasons[0], reasons[1])
}

// TestRunSecretBoundElsewhere: a secret granted to the probe but bound to
// another address is refused before anything is sent, and the Result
// names the secret and where it was to go, for the denial to say which
// grant the manifest would need.
func TestRunSecretBoundElsewhere(t *testing.T) {
	got := make(chan int, 4)
	srv := newPeer(t, func(c net.Conn) {
		n, _ := io.ReadFull(c, make([]byte, 64)) // until the run's end closes the stream
		got <- n
	})
	other := newPeer(t, echo)
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"PW": "s3cr7-value"})))
	p := talkProbe(t, e, ProbeConfig{
		Grants: hostfuncs.Grants{Dial: []string{"127.0.0.1:*"}, Secrets: map[string][]string{"PW": {other.Addr().String()}}},
		Config: map[string]string{"mode": "echo", "addr": srv.Addr().String(), "send": "AUTH ${secret:PW}\r\n"},
	})
	res := p.Run(context.Background())
	require.Equal(t, Unavailable, res.Outcome, "%v %s", res.Err, res.Reason)
	require.Len(t, res.Denied, 1, "%+v", res)
	assert.Equal(t, hostfuncs.Denial{Kind: "secret", Request: "PW", To: srv.Addr().String(), Probe: "talk"}, res.Denied[0])
	assert.Equal(t, []string{`secret "PW" not granted to probe "talk" for "` + srv.Addr().String() + `"`}, res.Denials)
	select {
	case n := <-got:
		assert.Zero(t, n, "the peer the secret is not bound to got bytes")
	case <-time.After(10 * time.Second):
		t.Fatal("the run ended but its stream stayed open")
	}
}
