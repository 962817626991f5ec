package hostfuncs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Variants of the classes of hostile_secrets_*_test.go that their tests
// do not make: other framings and encodings of a response, other places a
// peer may reflect a value, other contexts a probe may write around a
// placeholder, other ways to move bytes past a bound. Each plays the probe
// against a real loopback peer and asserts what the class's test does.

// rawHTTPPeer answers each request it reads with respond(request), put on
// the wire as it is, then closes the connection: the framings, encodings
// and malformations a server may send that net/http would not write. It
// returns the peer's origin ("http://127.0.0.1:PORT") and what it was sent.
func rawHTTPPeer(t testing.TB, respond func(r *http.Request) string) (string, *received) {
	t.Helper()
	addr, rec := hostilePeer(t, func(c net.Conn) {
		r, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			return
		}
		io.Copy(io.Discard, r.Body)
		io.WriteString(c, respond(r))
	})
	return "http://" + addr, rec
}

// gzipped is b compressed with gzip.
func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// TestHostileSecretStackedEncodings: a server that compresses twice says
// so with two Content-Encoding lines, as a proxy that compresses what an
// application already compressed does. Go's transport, which asked for
// gzip, undoes one layer and deletes every Content-Encoding line, so the
// host would see a body marked as not encoded that is still gzip, and
// redaction would find nothing to match in it. Whatever the probe reads,
// decoded any way, must hold no form of the value.
func TestHostileSecretStackedEncodings(t *testing.T) {
	g := newGuest(t)
	v := specialValue(71)
	for _, tt := range []struct {
		name      string
		encodings []string // the Content-Encoding lines, in the order applied
	}{
		{"gzip twice, two lines", []string{"gzip", "gzip"}},
		{"gzip and x-gzip, two lines", []string{"gzip", "x-gzip"}},
		{"gzip, then a line naming gzip twice", []string{"gzip", "gzip, gzip"}},
		{"gzip and identity, two lines", []string{"gzip", "identity"}},
		{"one line, upper case", []string{"GZIP"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			origin, _ := rawHTTPPeer(t, func(r *http.Request) string {
				body := tokenBody(r)
				var head strings.Builder
				for _, line := range tt.encodings {
					for _, e := range strings.Split(line, ",") {
						if e = strings.TrimSpace(strings.ToLower(e)); e != "identity" {
							body = gzipped(body)
						}
					}
					head.WriteString("Content-Encoding: " + line + "\r\n")
				}
				return fmt.Sprintf("HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n\r\n%s", head.String(), len(body), body)
			})
			dest := origin + "/"
			c := hostileCall(t, grants(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/token\nAuthorization: ${secret:P}\n"
			h := g.http(t, c, req, 0, 0)
			if h < 0 {
				t.Logf("refused: %d, %s", h, g.lastError(t, c))
				assert.Equal(t, StatusClosed, h, "a body still encoded is refused as -9")
				assertNoLeak(t, v, "the last error", g.lastError(t, c), req)
				return
			}
			_, body := g.wholeBody(t, c, h)
			_, ce := g.header(t, c, h, "Content-Encoding")
			t.Logf("read %d bytes, Content-Encoding %q", len(body), ce)
			read := append([]string{body, ce}, decodings([]byte(body))...)
			for i, r := range read {
				assertNoLeak(t, v, fmt.Sprintf("what the probe read, decoded (%d)", i), r, req)
			}
		})
	}
}
