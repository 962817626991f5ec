package host

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
)

// BenchmarkSecretHonestPaths: what a run that uses a secret as its
// service expects costs, whole: a Redis-like AUTH that reads "+OK", an
// HTTP GET with a bearer token and a POST whose body holds it, each
// reading a plain answer. Each iteration is one run (a Call) over
// loopback.
func BenchmarkSecretHonestPaths(b *testing.B) {
	g := newGuest(b)
	redis := serve(b, "tcp", "127.0.0.1:0", func(c net.Conn) {
		r := bufio.NewReader(c)
		for {
			if _, err := r.ReadString('\n'); err != nil {
				return
			}
			if _, err := io.WriteString(c, "+OK\r\n"); err != nil {
				return
			}
		}
	}).Addr().String()
	web := newHTTPServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	v := hostileValue(90, 32)
	b.Run("redis AUTH", func(b *testing.B) {
		for b.Loop() {
			c := boundCall(b, v, redis)
			h := g.connect(b, c, redis, 0, 0)
			if g.send(b, c, h, "AUTH ${secret:K}\r\n") <= 0 {
				b.Fatal(g.lastError(b, c))
			}
			if n, got := g.recv(b, c, h, bufCap, 0); got != "+OK\r\n" {
				b.Fatalf("%d %q %s", n, got, g.lastError(b, c))
			}
			c.End()
		}
	})
	for name, req := range map[string]string{
		"http bearer": "GET " + web + "/v1/models\nAuthorization: Bearer ${secret:K}\n",
		"http body":   "POST " + web + "/v1/login\nContent-Type: application/json\n\n{\"token\":\"${secret:K}\"}",
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				c := boundCall(b, v, web+"/v1/")
				h := g.http(b, c, req, 0, 0)
				if h <= 0 {
					b.Fatal(g.lastError(b, c))
				}
				if _, body := g.body(b, c, h); body != `{"ok":true}` {
					b.Fatalf("%q", body)
				}
				c.End()
			}
		})
	}
}
