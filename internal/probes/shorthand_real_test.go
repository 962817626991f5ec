package probes_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// TestShorthandSecretsReachTheirTarget runs every standard probe that
// sends a secret, as its shorthand grants it and nothing more, against a
// real loopback service that accepts only the secret's value: each
// secret is bound to the shorthand's own target, so it is sent there (a
// binding that missed the target would be refused and answer
// unavailable), in every place a shorthand may put it.
func TestShorthandSecretsReachTheirTarget(t *testing.T) {
	e := newEngine(t)
	good := secrets["GOOD_KEY"]
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<10))
		var ok bool
		switch r.URL.Path {
		case "/v1/query":
			ok = r.URL.Query().Get("key") == good
		case "/v1/header":
			ok = r.Header.Get("X-Key") == good
		case "/v1/body":
			ok = string(body) == `{"key":"`+good+`"}`
		case "/v1/bearer":
			ok = r.Header.Get("Authorization") == "Bearer "+good
		}
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer api.Close()
	u := api.URL + "/v1"
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: u + "/query?key=${secret:GOOD_KEY}", outcome: runtime.Available},
		{shorthand: u + "/query?key=${secret:BAD_KEY}", outcome: runtime.Unavailable, reason: u + "/query?key=${secret:BAD_KEY}: credentials rejected (HTTP 401)"},
		{shorthand: u + "/header header=X-Key:${secret:GOOD_KEY}", outcome: runtime.Available},
		{shorthand: u + `/body method=POST body="{\"key\":\"${secret:GOOD_KEY}\"}"`, outcome: runtime.Available},
		{shorthand: u + "/bearer bearer=GOOD_KEY", outcome: runtime.Available},
	})

	// Redis AUTH, to the address as the shorthand writes it: plain, TLS
	// and a unix socket.
	locked := testsvc.Redis(t, good)
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: "redis:" + locked + " password=GOOD_KEY", outcome: runtime.Available},
		{shorthand: "redis:" + locked + " password=BAD_KEY", outcome: runtime.Unavailable, contains: "credentials rejected"},
	})
	ca := testsvc.NewCA(t)
	secure := testsvc.ServeTLSWith(t, ca.Server(t, 24*time.Hour), redisAuthPeer(good))
	runReal(t, e, runtime.ProbeConfig{TLSRootCAs: ca.Pool()}, []realCase{
		{shorthand: "redis:tls:" + secure + " password=GOOD_KEY", outcome: runtime.Available},
	})
	sock := testsvc.ServeUnix(t, redisAuthPeer(good))
	runReal(t, e, runtime.ProbeConfig{}, []realCase{
		{shorthand: "redis:unix:" + sock + " password=GOOD_KEY", outcome: runtime.Available},
	})
}

// redisAuthPeer answers "AUTH '<want>'" (the redis probe quotes the
// password as an inline command's argument) then PING as Redis does, and
// any other password with WRONGPASS.
func redisAuthPeer(want string) func(net.Conn) {
	return func(c net.Conn) {
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(io.LimitReader(c, 1<<12))
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "PING":
				_, _ = io.WriteString(c, "+PONG\r\n")
			case line == "AUTH '"+want+"'":
				_, _ = io.WriteString(c, "+OK\r\n")
			default:
				_, _ = io.WriteString(c, "-WRONGPASS invalid username-password pair\r\n")
			}
		}
	}
}
