package probetest_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/probes/probetest"
)

// The peers are tested here through real connections, as the host makes
// them (the network and address it passes its DialContext), without a
// probe; the Check tests below run probes against them.

func fakeNet(t *testing.T, peers map[string]probetest.Peer, secrets map[string]string) *probetest.FakeNet {
	f, err := probetest.NewFakeNet(peers, secrets)
	require.NoError(t, err)
	return f
}

func dial(t *testing.T, f *probetest.FakeNet, network, addr string) net.Conn {
	c, err := f.Dial(context.Background(), network, addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestScriptExchange(t *testing.T) {
	f := fakeNet(t, map[string]probetest.Peer{"127.0.0.1:6379": probetest.Script(
		probetest.Expect("AUTH ${secret:TOKEN}\r\nPING\r\n"),
		probetest.Send("+OK\r\n+PONG\r\n"),
		probetest.Close(),
	)}, map[string]string{"TOKEN": "s3cret"})
	c := dial(t, f, "tcp", "127.0.0.1:6379")
	// Split where the script does not: Expect reassembles.
	for _, part := range []string{"AUTH s3", "cret\r\nPI", "NG\r\n"} {
		_, err := io.WriteString(c, part)
		require.NoError(t, err)
	}
	got, err := io.ReadAll(c) // Close is a clean end of the stream
	require.NoError(t, err)
	assert.Equal(t, "+OK\r\n+PONG\r\n", string(got))
	c.Close()
	assert.Empty(t, f.Close())
}

// Each connection meets the script afresh.
func TestScriptPerConnection(t *testing.T) {
	f := fakeNet(t, map[string]probetest.Peer{"unix:/var/run/x.sock": probetest.Script(probetest.Send("hello\n"), probetest.Close())}, nil)
	for range 3 {
		c := dial(t, f, "unix", "/var/run/x.sock")
		got, err := io.ReadAll(c)
		require.NoError(t, err)
		assert.Equal(t, "hello\n", string(got))
		c.Close()
	}
	assert.Empty(t, f.Close())
}

func TestScriptFailures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		send  string
		steps []probetest.Step
		want  string
	}{
		{"other bytes", "PONG\r\n", []probetest.Step{probetest.Expect("PING\r\n")},
			`peer 127.0.0.1:1: step 1, Expect("PING\r\n"): received "PO`},
		{"closed first", "PI", []probetest.Step{probetest.Expect("PING\r\n")},
			`peer 127.0.0.1:1: step 1, Expect("PING\r\n"): the probe closed the connection after "PI"`},
		{"nothing sent", "", []probetest.Step{probetest.Send("hi\n"), probetest.Expect("PING\r\n")},
			`peer 127.0.0.1:1: step 2, Expect("PING\r\n"): the probe closed the connection without sending anything`},
		// The secret the probe should have had substituted is not shown
		// by value in the message, even when the probe sent it.
		{"secret redacted", "AUTH s3cret x\r\n", []probetest.Step{probetest.Expect("AUTH ${secret:TOKEN}\r\n")},
			`peer 127.0.0.1:1: step 1, Expect("AUTH ${secret:TOKEN}\r\n"): received "AUTH ${secret:TOKEN} x\r\n"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeNet(t, map[string]probetest.Peer{"127.0.0.1:1": probetest.Script(tc.steps...)}, map[string]string{"TOKEN": "s3cret"})
			c := dial(t, f, "tcp", "127.0.0.1:1")
			if tc.send != "" {
				_, err := io.WriteString(c, tc.send)
				require.NoError(t, err)
			}
			c.(*net.TCPConn).CloseWrite()
			io.Copy(io.Discard, c)
			c.Close()
			got := f.Close()
			require.Len(t, got, 1)
			assert.Contains(t, got[0], tc.want)
			assert.NotContains(t, got[0], "s3cret")
		})
	}
}

// Hang answers nothing, and reads whatever comes until the probe gives up.
func TestHang(t *testing.T) {
	f := fakeNet(t, map[string]probetest.Peer{"db:5432": probetest.Script(probetest.Send("banner\n"), probetest.Hang())}, nil)
	c := dial(t, f, "tcp", "DB.:5432") // as the host normalises names
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "banner\n", line)
	_, err = io.WriteString(c, strings.Repeat("x", 1<<20)) // read and dropped, never blocks
	require.NoError(t, err)
	c.Close()
	assert.Empty(t, f.Close())
}

func TestRefuse(t *testing.T) {
	f := fakeNet(t, map[string]probetest.Peer{"127.0.0.1:6379": probetest.Refuse()}, nil)
	for _, tc := range []struct{ network, addr, text string }{
		{"tcp", "127.0.0.1:6379", "dial tcp 127.0.0.1:6379: connect: connection refused"},
		{"tcp", "127.0.0.1:6380", "dial tcp 127.0.0.1:6380: connect: connection refused"}, // no peer
		{"unix", "/var/run/docker.sock", "dial unix /var/run/docker.sock: connect: connection refused"},
	} {
		_, err := f.Dial(context.Background(), tc.network, tc.addr)
		assert.ErrorIs(t, err, syscall.ECONNREFUSED, "the host maps it to -3")
		assert.EqualError(t, err, tc.text)
	}
	assert.Empty(t, f.Close())
}

func TestHandler(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, "hello "+r.Host+r.URL.Path)
	})
	f := fakeNet(t, map[string]probetest.Peer{
		"https://api.example.com":   probetest.Handler(h),
		"http://127.0.0.1:8080":     probetest.Handler(h),
		"unix:/var/run/docker.sock": probetest.Handler(h),
		"tls:[::1]:8443":            probetest.Handler(h),
	}, nil)
	for _, tc := range []struct {
		url, network, addr string
		tls                bool
	}{
		{"https://api.example.com/v1/models", "tcp", "api.example.com:443", true},
		{"http://127.0.0.1:8080/health", "tcp", "127.0.0.1:8080", false},
		{"http://docker/_ping", "unix", "/var/run/docker.sock", false},
		{"https://[::1]:8443/x", "tcp", "[::1]:8443", true},
	} {
		t.Run(tc.url, func(t *testing.T) {
			tr := &http.Transport{
				DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
					return f.Dial(ctx, tc.network, tc.addr)
				},
				TLSClientConfig: &tls.Config{RootCAs: f.Roots()},
			}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			req, _ := http.NewRequest("GET", tc.url, nil)
			req.Header.Set("Authorization", "Bearer good")
			resp, err := client.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, tc.tls, resp.TLS != nil)
			assert.True(t, strings.HasPrefix(string(body), "hello "), "%s", body)

			req.Header.Set("Authorization", "Bearer bad")
			resp, err = client.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, 401, resp.StatusCode)
		})
	}
	// A certificate for one name verifies for that name only.
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return f.Dial(ctx, "tcp", "api.example.com:443")
		},
		TLSClientConfig: &tls.Config{RootCAs: f.Roots()},
	}
	_, err := (&http.Client{Transport: tr}).Get("https://other.example.com/")
	var hostErr x509.HostnameError
	assert.ErrorAs(t, err, &hostErr)
	tr.CloseIdleConnections()
	assert.Empty(t, f.Close())
}

func TestPeerTarget(t *testing.T) {
	for _, tc := range []struct {
		key, dk string
		tls     bool
		host    string
		err     string
	}{
		{key: "127.0.0.1:6379", dk: "tcp 127.0.0.1:6379", host: "127.0.0.1"},
		{key: "[0:0::1]:6379", dk: "tcp [::1]:6379", host: "0:0::1"},
		{key: "Redis.Local.:6379", dk: "tcp redis.local:6379", host: "redis.local"},
		{key: "unix:/run//x/./y.sock", dk: "unix /run/x/y.sock"},
		{key: "tls:db.example.com:5432", dk: "tcp db.example.com:5432", tls: true, host: "db.example.com"},
		{key: "https://api.example.com", dk: "tcp api.example.com:443", tls: true, host: "api.example.com"},
		{key: "https://api.example.com/", dk: "tcp api.example.com:443", tls: true, host: "api.example.com"},
		{key: "http://127.0.0.1:8080", dk: "tcp 127.0.0.1:8080", host: "127.0.0.1"},
		{key: "http://[::1]", dk: "tcp [::1]:80", host: "::1"},
		{key: "https://api.example.com/v1", err: "without a path"},
		{key: "unix:relative.sock", err: "absolute"},
		{key: "localhost", err: `want "host:port"`},
		{key: "localhost:0", err: `port "0"`},
		{key: "tls:h:http", err: `port "http"`},
		{key: ".:1", err: `host "": want a name or an IP address`},
		{key: "a..b:1", err: `host "a..b"`},
		{key: "[]:1", err: `host ""`},
		{key: "a b:1", err: `host "a b"`},
	} {
		t.Run(tc.key, func(t *testing.T) {
			dk, useTLS, host, err := probetest.PeerTarget(tc.key)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.dk, dk)
			assert.Equal(t, tc.tls, useTLS)
			if tc.host != "" {
				assert.Equal(t, strings.ToLower(tc.host), host)
			}
		})
	}
	// Two keys for one address are a mistake in the test, not a choice.
	_, err := probetest.NewFakeNet(map[string]probetest.Peer{
		"tls:api.example.com:443": probetest.Script(), "https://API.example.com": probetest.Refuse()}, nil)
	assert.EqualError(t, err, `peers "https://API.example.com" and "tls:api.example.com:443" are the same address`)
}

// FuzzPeerTarget: a key never panics the parser, and one it accepts names
// an address the host could dial: a unix path, or host:port with a port in
// range, with a certificate host for every TLS key.
func FuzzPeerTarget(f *testing.F) {
	for _, k := range []string{"127.0.0.1:6379", "unix:/x.sock", "tls:h:443", "https://h", "http://[::1]:8080/", "https://h/v1", ":80", "tls:", "http://"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		dk, useTLS, host, err := probetest.PeerTarget(key)
		if err != nil {
			return
		}
		network, addr, ok := strings.Cut(dk, " ")
		require.True(t, ok, "%q", dk)
		switch network {
		case "unix":
			require.True(t, strings.HasPrefix(addr, "/"), "%q", dk)
			require.False(t, useTLS)
		case "tcp":
			h, port, err := net.SplitHostPort(addr)
			require.NoError(t, err, "%q", dk)
			require.NotEmpty(t, h, "%q", dk)
			require.NotEmpty(t, port)
			if useTLS {
				require.NotEmpty(t, host)
			}
		default:
			t.Fatalf("network %q", network)
		}
	})
}
