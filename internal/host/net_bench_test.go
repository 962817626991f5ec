package host

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// BenchmarkHostCalls is what the ABI v2 calls cost a probe against
// loopback peers, each beside the same work done by Go directly in the
// same run (the "go" rows), so that the ratio is the sandbox's price:
// copying through the guest's memory, the grants, the budget's waits and
// the per-run bookkeeping.
//
//	go test -run '^$' -bench HostCalls -count 6 ./internal/host | benchstat -col /via -
func BenchmarkHostCalls(b *testing.B) {
	echo := echoServer(b, "tcp", "127.0.0.1:0")
	addr := echo.Addr().String()
	srv := newHTTPServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"status":"ok"}`)
	}))
	g := newGuest(b)
	grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"http://127.0.0.1:*/"}}
	call := func(b *testing.B) *Call { return budgetCall(b, grants, time.Hour) }

	b.Run("op=connect-close/via=go", func(b *testing.B) {
		for b.Loop() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	})
	b.Run("op=connect-close/via=gate", func(b *testing.B) {
		for b.Loop() {
			c := call(b)
			h := g.connect(b, c, addr, 0, 0)
			if h <= 0 || g.v2(b, c, "close", uint32(h)) != StatusOK {
				b.Fatalf("connect: %d", h)
			}
			c.End()
		}
	})

	b.Run("op=send-recv/via=go", func(b *testing.B) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		buf := make([]byte, 64)
		for b.Loop() {
			c.Write([]byte("PING\r\n"))
			if n, err := c.Read(buf); n != 6 || err != nil {
				b.Fatal(n, err)
			}
		}
	})
	b.Run("op=send-recv/via=gate", func(b *testing.B) {
		c := budgetCall(b, grants, time.Hour)
		defer c.End()
		h := g.connect(b, c, addr, 0, 0)
		for b.Loop() {
			g.send(b, c, h, "PING\r\n")
			if n, _ := g.recv(b, c, h, 64, 0); n != 6 {
				b.Fatal(n, g.lastError(b, c))
			}
			// The run's bounds are per run; a benchmark's loop is not one.
			c.netState().bytesIn, c.netState().bytesOut = 0, 0
		}
	})
	b.Run("op=send-recv-secret/via=gate", func(b *testing.B) {
		// A secret substituted on the way out and redacted on the way in,
		// and the quiet gap (5 ms) a run that sent one waits for more.
		c := secretCall(b, grants, "s3cr7")
		c.Deadline = time.Now().Add(time.Hour)
		defer c.End()
		h := g.connect(b, c, addr, 0, 0)
		for b.Loop() {
			g.send(b, c, h, "AUTH ${secret:K}\r\n")
			if n, s := g.recv(b, c, h, 64, 0); n != 18 || s != "AUTH ${secret:K}\r\n" {
				b.Fatal(n, s, g.lastError(b, c))
			}
			c.netState().bytesIn, c.netState().bytesOut = 0, 0
		}
	})

	b.Run("op=http-get/via=go", func(b *testing.B) {
		for b.Loop() {
			// As gate.http does: a fresh transport, no keep-alive.
			tr := &http.Transport{DisableKeepAlives: true}
			resp, err := (&http.Client{Transport: tr}).Get(srv + "/health")
			if err != nil {
				b.Fatal(err)
			}
			io.ReadAll(io.LimitReader(resp.Body, MaxHTTPBody))
			resp.Body.Close()
			tr.CloseIdleConnections()
		}
	})
	b.Run("op=http-get/via=gate", func(b *testing.B) {
		for b.Loop() {
			c := call(b)
			h := g.http(b, c, "GET "+srv+"/health\n", 0, 0)
			if h <= 0 || g.v2(b, c, "http_status", uint32(h)) != 200 {
				b.Fatal(h, g.lastError(b, c))
			}
			g.body(b, c, h)
			c.End()
		}
	})
}
