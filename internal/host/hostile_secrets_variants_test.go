package host

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Variants of the classes of hostile_secrets_*_test.go that their tests
// do not make: other framings and encodings of a response, other places a
// peer may reflect a value, other contexts a probe may write around a
// placeholder, other ways to move bytes past a bound. Each plays the probe
// against a real loopback peer and asserts what the class's test does.

// rawHTTPPeer answers each request it reads with respond(request), put on
// the wire as it is, then closes the connection: the framings, encodings
// and malformations a server may send that net/http would not write. The
// request's body is read first, and respond may read it again. It returns the peer's origin ("http://127.0.0.1:PORT") and what it was sent.
func rawHTTPPeer(t testing.TB, respond func(r *http.Request) string) (string, *received) {
	t.Helper()
	addr, rec := hostilePeer(t, func(c net.Conn) {
		r, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
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
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/token\nAuthorization: ${secret:P}\n"
			h := g.http(t, c, req, 0, 0)
			if h < 0 {
				t.Logf("refused: %d, %s", h, g.lastError(t, c))
				assert.Contains(t, []int32{StatusClosed, StatusDenied}, h, "a body still encoded is refused as -9, one decoded that held the value withheld")
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

// TestHostileSecretQueryEscapeContext: the host query-escapes a value it
// puts in a URL's query, so that the destination reads back exactly the
// value; a service that quotes a query parameter it rejects ("invalid
// key: ...") is the accidental echo redaction is for. But the probe writes
// what stands before the placeholder: a '%' there, or '%' and one hex
// digit, makes the value's first escaped bytes the end of an escape the
// probe began, so the service decodes them into another byte and quotes
// the rest of the value as it is, where redaction does not recognise it.
// Which byte it decoded tells the two it ate.
func TestHostileSecretQueryEscapeContext(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "invalid key: %s\n", r.URL.Query().Get("k"))
	}))
	dest := origin + "/"
	// Hex digits first, as many API keys are: they complete an escape.
	v := "4a5" + hostileValue(72, 37)
	for _, tt := range []struct {
		query  string
		honest bool // sent, and quoted back redacted
	}{
		{"k=%${secret:P}", false},
		{"k=%4${secret:P}", false},
		{"k=a%2${secret:P}", false}, // '%2' and the value's '4': "%24" is '$'
		{"k=${secret:P}&j=%", false},
		{"k=%25${secret:P}", true}, // a whole escape, then the value
		{"k=${secret:P}${secret:P}", true},
		{"k=${secret:P}&j=%2F", true},
	} {
		t.Run(tt.query, func(t *testing.T) {
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/check?" + tt.query + "\n"
			h := g.http(t, c, req, 0, 0)
			if h == StatusDenied && tt.honest {
				// Sent, and the value quoted back: withheld whole.
				assertWithheld(t, g, c, h, "P", origin)
				return
			}
			if h < 0 {
				t.Logf("refused: %d, %s", h, g.lastError(t, c))
				assert.False(t, tt.honest, "an honest query is sent")
				assert.Equal(t, StatusBadRequest, h)
				return
			}
			_, body := g.wholeBody(t, c, h)
			t.Logf("the service answered %q", body)
			assertNoLeak(t, v, "what the service quoted", body, req)
			assert.False(t, tt.honest, "an honest query's value quoted back is withheld")
		})
	}
}

// TestHostileSecretLengthInHead: the value's destination quotes the token
// it got in its status line's reason phrase, which the probe cannot read.
// But the bytes-in bound counts the head, and the probe can read how much
// of the bound is left: it reads a fountain that sends more than the bound
// to the end, and counts what it got. What it counts must not depend on
// the value's length.
func TestHostileSecretLengthInHead(t *testing.T) {
	g := newGuest(t)
	fountain := fountainPeer(t, MaxBytesIn+1)
	for _, tt := range []struct {
		name string
		head func(token string) string
	}{
		{"the reason phrase", func(token string) string { return "HTTP/1.1 401 Unauthorized " + token + "\r\n" }},
		{"a header's name", func(token string) string { return "HTTP/1.1 401 Unauthorized\r\nX-Rejected-" + token + ": 1\r\n" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			origin, _ := rawHTTPPeer(t, func(r *http.Request) string {
				return tt.head(r.Header.Get("Authorization")) + "Content-Length: 0\r\n\r\n"
			})
			dest := origin + "/"
			run := func(n int) seen {
				c := hostileCall(t, grantsOf(reach(dest, fountain), boundSecret("P", dest)), map[string]string{"P": hostileValue(73, n)})
				h := g.http(t, c, "GET "+origin+"/\nAuthorization: ${secret:P}\n", 0, 0)
				require.Positive(t, h, g.lastError(t, c))
				status := g.v2(t, c, "http_status", uint32(h))
				f := g.connect(t, c, fountain, 0, 0)
				require.Positive(t, f, g.lastError(t, c))
				got, end := g.recvAll(t, c, f, bufCap)
				t.Logf("a %d-byte value: %d bytes of the fountain, then %d", n, len(got), end)
				return seen{fmt.Sprint(status), fmt.Sprint(len(got)), fmt.Sprint(end)}
			}
			assertSameObservations(t, "values of 100 and 101 bytes", run(100), run(101))
		})
	}
}

// TestHostileSecretLengthResponseContentLength: the value's destination
// echoes the token it got, in a body whose Content-Length it counts, as a
// server that writes a short body whole does. That count is the raw
// body's: the probe would read the value's length off it. What it reads
// must be the same for a value of 100 bytes and one of 101.
func TestHostileSecretLengthResponseContentLength(t *testing.T) {
	g := newGuest(t)
	for _, tt := range []struct {
		name  string
		times int // copies of the token in the body
	}{
		{"a body kept whole", 1},
		{"a body longer than is kept", MaxHTTPBody/len("token=${secret:P}\n") + 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body := bytes.Repeat(tokenBody(r), tt.times)
				w.Header().Set("Content-Length", fmt.Sprint(len(body)))
				w.Write(body)
			}))
			dest := origin + "/"
			run := func(n int) seen {
				c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": hostileValue(74, n)})
				h := g.http(t, c, "GET "+origin+"/token\nAuthorization: ${secret:P}\n", 0, 0)
				if h < 0 {
					// The body held the value: withheld whole, whatever
					// its length.
					return seen{fmt.Sprint(h), g.lastError(t, c)}
				}
				st, cl := g.header(t, c, h, "Content-Length")
				n2, body := g.wholeBody(t, c, h)
				t.Logf("a %d-byte value: Content-Length %d %q, %d bytes kept", n, st, cl, n2)
				return seen{fmt.Sprint(st), cl, fmt.Sprint(n2), body}
			}
			assertSameObservations(t, "values of 100 and 101 bytes", run(100), run(101))
		})
	}
}

// TestHostileRedirectBytesOut: the bytes-out bound counts a request as
// the probe wrote it, once; but a 307 or 308 sends the body again, and
// every redirect sends the headers again, up to MaxRedirects times. A
// destination that redirects to itself would take six times the bound
// from one request, on the wire, of a secret's values or of plain bytes.
func TestHostileRedirectBytesOut(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(75, MaxSecret)
	var pad strings.Builder
	for i := range 40 {
		fmt.Fprintf(&pad, "X-Pad-%d: %s\n", i, strings.Repeat("p", 1000))
	}
	for _, tt := range []struct {
		name, req string
	}{
		// An honest request is redirected as often as ever.
		{"a small request, 307", "POST {origin}/loop?code=307\nAuthorization: ${secret:P}\n\n{}"},
		{"a body of placeholders, 307", "POST {origin}/loop?code=307\n\n" + placeholders((MaxBytesOut-1024)/(len("${secret:P}")+MaxSecret))},
		{"plain headers and body, 308", "POST {origin}/loop?code=308\n" + pad.String() + "\n" + strings.Repeat("b", MaxHTTPRequestBody)},
		{"plain headers, 302", "GET {origin}/loop?code=302\n" + pad.String() + "X-More: " + strings.Repeat("m", 16000) + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var hops atomic.Int64
			origin, peer := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				if n := hops.Add(1); n <= 2*MaxRedirects {
					code := 0
					fmt.Sscan(r.URL.Query().Get("code"), &code)
					http.Redirect(w, r, fmt.Sprintf("/loop?code=%d&hop=%d", code, n), code)
				}
			}))
			dest := origin + "/"
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := strings.ReplaceAll(tt.req, "{origin}", origin)
			require.LessOrEqual(t, len(req), MaxHTTPRequest)
			h := g.http(t, c, req, 0, 0)
			require.Positive(t, h, g.lastError(t, c))
			t.Logf("status %d after %d requests; the server received %d bytes", g.v2(t, c, "http_status", uint32(h)), hops.Load(), peer.total.Load())
			// Each request also carries what the host writes itself: its
			// request line, Host, User-Agent, Accept-Encoding and
			// Content-Length, which the bound does not count.
			assert.LessOrEqual(t, peer.total.Load(), MaxBytesOut+hops.Load()*256, "the bytes on the wire")
			if strings.HasPrefix(tt.name, "a small request") {
				assert.Equal(t, int64(MaxRedirects+1), hops.Load(), "every redirect it may follow is followed")
			}
		})
	}
}

// TestHostileSecretBytesOutQuery: a value in a URL's query is
// query-escaped, which can make it three times as long on the wire ('@'
// is "%40"). Placeholders the bound admits at 4 KiB each would put three
// times that on the wire: the bound holds on the wire all the same.
func TestHostileSecretBytesOutQuery(t *testing.T) {
	g := newGuest(t)
	v := strings.Repeat("@", MaxSecret)
	for _, n := range []int{1, 5, 12} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			origin, peer := hostileHTTP(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
			dest := origin + "/"
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/x?" + strings.Repeat("k=${secret:P}&", n) + "\n"
			require.LessOrEqual(t, len(req)+n*MaxSecret, MaxBytesOut, "the bound admits the request as written")
			h := g.http(t, c, req, 0, 0)
			t.Logf("%d placeholders: %d (%s); the server received %d bytes", n, h, g.lastError(t, c), peer.total.Load())
			if n == 1 {
				require.Positive(t, h, "one value, escaped, fits the bound")
			}
			assert.LessOrEqual(t, peer.total.Load(), int64(MaxBytesOut+256), "the bytes on the wire")
		})
	}
}

// TestHostileSecretQuotedInLastError: the value's destination answers
// with what it was sent where the status line belongs. net/http's error
// quotes that line, as Go writes a string (%q): a quote, a backslash, a
// control or non-ASCII byte in the value comes back escaped, which is not
// the value redaction looks for. The host's words for the failure, which
// the probe reads in gate.last_error, must hold the value in no form.
func TestHostileSecretQuotedInLastError(t *testing.T) {
	g := newGuest(t)
	origin, _ := rawHTTPPeer(t, func(r *http.Request) string {
		body, _ := io.ReadAll(r.Body)
		return string(body) + "\r\n\r\n"
	})
	dest := origin + "/"
	for _, special := range []string{`"`, `\`, "\t", "\x01", "é", "\xff"} {
		t.Run(fmt.Sprintf("%q", special), func(t *testing.T) {
			b := []byte(hostileValue(76, 40))
			for _, at := range []int{8, 20, 31} {
				copy(b[at:], special)
			}
			v := string(b)
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			h := g.http(t, c, "POST "+origin+"/\n\n${secret:P}", 0, 0)
			last := g.lastError(t, c)
			t.Logf("%d: %q", h, last)
			require.Negative(t, h, "the answer is no HTTP")
			assertNoLeak(t, v, "the last error", last)
		})
	}
}

// maxScanPerByte bounds the scan work of the hold per byte a peer sends,
// for each length of value it looks for, whatever the sizes of the peer's
// writes: each byte's window hashed about twice, and each real match
// compared whole (a run of "abab" matches at every other byte).
const maxScanPerByte = 16

// scanPerByte is how many windows a redactStream hashed per byte it was
// pushed, for each pattern group of r.
func scanPerByte(s *redactStream, r *redactor, pushed int) float64 {
	return float64(s.work) / float64(pushed) / float64(len(r.groups))
}

// TestRedactStreamWorkPerByte: a peer that sends its bytes one at a time
// makes the hold look at what it holds (the 12 KiB margin, or a run of
// values that reaches the cut, up to the raw bound) once per byte, unless
// the work is bounded per byte: 12,000 windows per byte and value length,
// on the host's CPU, outside the run's CPU slot, for as long as the budget
// lasts. So the work per byte must be a constant.
func TestRedactStreamWorkPerByte(t *testing.T) {
	c, _ := stestCall(t, Grants{Secrets: everywhere("K")}, map[string]string{"K": "abab"})
	r := c.redactorOf(c.allSecrets())
	for _, tt := range []struct {
		name string
		in   []byte
	}{
		{"nothing to redact", bytes.Repeat([]byte("."), 4*maxPattern)},
		{"a run of values that never ends", bytes.Repeat([]byte("ab"), 2*maxPattern)},
	} {
		for _, piece := range []int{1, 7, 4096} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, piece), func(t *testing.T) {
				var s redactStream
				var out []byte
				for at := 0; at < len(tt.in); at += piece {
					s.push(tt.in[at:min(at+piece, len(tt.in))])
					out = append(out, s.release(r, false)...)
				}
				out = append(out, s.release(r, true)...)
				assert.Equal(t, string(r.redact(tt.in)), string(out), "what is handed over")
				got := scanPerByte(&s, r, len(tt.in))
				t.Logf("%.1f windows per byte and length", got)
				assert.LessOrEqual(t, got, float64(maxScanPerByte))
			})
		}
	}
}

// TestHostileSecretTrickleWork: the same through recv, from a peer that
// trickles what it echoes a byte at a time after a first burst, never
// pausing long enough for the hold to end: each read gets a byte or a few.
func TestHostileSecretTrickleWork(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(77, 40)
	const burst, trickle = 16 << 10, 3000
	addr, _ := hostilePeer(t, func(c net.Conn) {
		if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
			return
		}
		// Not the value: a stream that hands one back is withheld whole,
		// and scanned no more; one that does not is scanned to its end.
		c.Write([]byte(strings.Repeat("b", burst) + "+OK\n"))
		for range trickle {
			if _, err := c.Write([]byte{'t'}); err != nil {
				return
			}
			time.Sleep(50 * time.Microsecond) // a trickle, on purpose
		}
	})
	c := hostileCall(t, grantsOf(reach(addr), boundSecret("P", addr)), map[string]string{"P": v})
	h := g.connect(t, c, addr, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	require.Positive(t, g.send(t, c, h, "${secret:P}\n"))
	got, end := g.recvAll(t, c, h, bufCap)
	require.Equal(t, int32(0), end, g.lastError(t, c))
	assert.Equal(t, strings.Repeat("b", burst)+"+OK\n"+strings.Repeat("t", trickle), got)
	s := c.net.handles[h-1].stream
	per := scanPerByte(&s.held, c.redactorOf(c.scopeOf(s.dest)), burst+len("+OK\n")+trickle)
	t.Logf("%.1f windows per byte and length", per)
	assert.LessOrEqual(t, per, float64(maxScanPerByte))
}

// TestHostileSecretResponseFramings: the value's destination quotes the
// token it got in the framings HTTP/1 allows around a body and a head: a
// body that ends when the connection does, chunks cut inside the value and
// a trailer, informational responses before the final one, a header folded
// over two lines, a header name in lower case. Whatever the probe can read
// of the response (its body, any header it names, the host's words for a
// failure) holds no part of the value.
func TestHostileSecretResponseFramings(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(78, 40)
	chunk := func(s string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(s), s) }
	for _, tt := range []struct {
		name    string
		respond func(token string) string
	}{
		{"HTTP/1.0, no length", func(tok string) string {
			return "HTTP/1.0 200 OK\r\n\r\ntoken=" + tok + "\n"
		}},
		{"chunks cut in the value, and a trailer", func(tok string) string {
			body := "token=" + tok + "\n"
			return "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Token\r\n\r\n" +
				chunk(body[:9]) + chunk(body[9:30]) + chunk(body[30:]) + "0\r\nX-Token: " + tok + "\r\n\r\n"
		}},
		{"informational responses first", func(tok string) string {
			return "HTTP/1.1 103 Early Hints\r\nLink: </" + tok + ">\r\nX-Token: " + tok + "\r\n\r\n" +
				"HTTP/1.1 100 Continue\r\nX-Token: " + tok + "\r\n\r\n" +
				"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n"
		}},
		{"a folded header", func(tok string) string {
			return "HTTP/1.1 200 OK\r\nX-Token: token=\r\n " + tok + "\r\nContent-Length: 0\r\n\r\n"
		}},
		{"a header name in lower case", func(tok string) string {
			return "HTTP/1.1 200 OK\r\nx-token: " + tok + "\r\nContent-Length: 0\r\n\r\n"
		}},
		{"a header with the value twice, and a space inside", func(tok string) string {
			return "HTTP/1.1 200 OK\r\nX-Token: " + tok + tok + " " + tok + "\r\nContent-Length: 0\r\n\r\n"
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			origin, _ := rawHTTPPeer(t, func(r *http.Request) string {
				return tt.respond(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			})
			dest := origin + "/"
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/token\nAuthorization: Bearer ${secret:P}\n"
			h := g.http(t, c, req, 0, 0)
			var read seen
			if h < 0 {
				read.add(fmt.Sprint(h), g.lastError(t, c))
			} else {
				_, body := g.wholeBody(t, c, h)
				read.add(fmt.Sprint(g.v2(t, c, "http_status", uint32(h))), body)
				for _, name := range []string{"X-Token", "x-token", "Link", "Trailer"} {
					_, got := g.header(t, c, h, name)
					read.add(got)
				}
			}
			t.Logf("read %q", read)
			assertNoLeak(t, v, "what the probe read", strings.Join(read, "|"), req)
		})
	}
}

// TestHostileSecretDestinationSpellings: a secret bound to one spelling
// of a destination, and the probe asking for another. Spellings of the
// same address are the same destination ("[::ffff:127.0.0.1]" is
// 127.0.0.1 to the network); anything that may reach somewhere else (a
// name a resolver answers, another path, the same port in clear when the
// secret is bound to TLS) is not, and the value is refused before a byte
// is sent.
func TestHostileSecretDestinationSpellings(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(79, 40)
	for _, tt := range []struct {
		name, bound, to string // {sink} is a stream's address, {web} an origin, {sock} a socket
		sent            bool
	}{
		{"the address as bound", "127.0.0.1:{port}", "127.0.0.1:{port}", true},
		{"IPv4-mapped IPv6", "127.0.0.1:{port}", "[::ffff:127.0.0.1]:{port}", true},
		{"localhost for 127.0.0.1", "127.0.0.1:{port}", "localhost:{port}", false},
		{"IPv6 loopback for 127.0.0.1", "127.0.0.1:{port}", "[::1]:{port}", false},
		{"127.0.0.1 for localhost", "localhost:{port}", "127.0.0.1:{port}", false},
		{"another loopback address", "127.0.0.1:{port}", "127.0.0.2:{port}", false},
		{"a pattern's port, another host", "127.0.0.1:*", "127.0.0.2:{port}", false},
		{"in clear where it is bound to TLS", "tls:127.0.0.1:{port}", "127.0.0.1:{port}", false},
		{"the socket as bound", "unix:{sock}", "unix:{sock}", true},
		{"the socket, spelt with // and /./", "unix:{sock}", "unix:{dir}//./s.sock", true},
		{"the socket, spelt with a parent segment", "unix:{sock}", "unix:{dir}/x/../s.sock", false},
		{"a link to the socket", "unix:{sock}", "unix:{dir}/link.sock", false},
		{"HTTP to the stream's address", "127.0.0.1:{webport}", "http://127.0.0.1:{webport}/x", false},
		{"a URL under the bound prefix", "http://127.0.0.1:{webport}/api/", "http://127.0.0.1:{webport}/api/v1/x", true},
		{"a URL up and out of the prefix", "http://127.0.0.1:{webport}/api/", "http://127.0.0.1:{webport}/api/%2e%2e/admin", false},
		{"a URL beside the prefix", "http://127.0.0.1:{webport}/api/", "http://127.0.0.1:{webport}/api-v2/x", false},
		{"the prefix in another case", "http://127.0.0.1:{webport}/api/", "http://127.0.0.1:{webport}/API/x", false},
		{"the origin as localhost", "http://127.0.0.1:{webport}/api/", "http://localhost:{webport}/api/x", false},
		{"the origin as IPv4-mapped IPv6", "http://127.0.0.1:{webport}/api/", "http://[::ffff:127.0.0.1]:{webport}/api/x", true},
		{"https for an http binding", "http://127.0.0.1:{webport}/api/", "https://127.0.0.1:{webport}/api/x", false},
		{"a stream to the URL's address", "http://127.0.0.1:{webport}/api/", "127.0.0.1:{webport}", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sink, peer := countingPeer(t)
			web, webPeer := hostileHTTP(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
			dir := t.TempDir()
			echoServer(t, "unix", dir+"/s.sock")
			require.NoError(t, os.Symlink(dir+"/s.sock", dir+"/link.sock"))
			_, port, _ := net.SplitHostPort(sink)
			_, webPort, _ := net.SplitHostPort(strings.TrimPrefix(web, "http://"))
			spell := strings.NewReplacer("{port}", port, "{webport}", webPort, "{sock}", dir+"/s.sock", "{dir}", dir).Replace
			bound, to := spell(tt.bound), spell(tt.to)
			c := hostileCall(t, grantsOf(Grants{Dial: []string{"*:*", "unix:" + dir + "/*"}, HTTP: []string{"http://*:*", "https://*:*"}},
				boundSecret("P", bound)), map[string]string{"P": v})
			var got int32
			if strings.Contains(to, "://") {
				got = g.http(t, c, "GET "+to+"\nAuthorization: ${secret:P}\n", 0, 0)
			} else {
				h := g.connect(t, c, to, 0, 0)
				if h < 0 {
					t.Logf("connect %s: %d %s", to, h, g.lastError(t, c))
					assert.False(t, tt.sent, "the connection to where it is bound")
					return
				}
				got = g.send(t, c, h, "AUTH ${secret:P}\n")
				require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
			}
			t.Logf("%s: %d %s", to, got, g.lastError(t, c))
			if tt.sent {
				assert.Positive(t, got, "sent where it is bound")
				return
			}
			assert.Equal(t, StatusDenied, got, "refused where it is not bound")
			assert.Contains(t, strings.Join(c.Denials(), "\n"), `secret "P"`)
			waitFor(t, func() bool { return peer.ends.Load() > 0 || !strings.Contains(to, "127.0.0.1:"+port) })
			assert.Zero(t, peer.total.Load()+webPeer.total.Load(), "nothing was sent")
		})
	}
}

// TestHostileSecretReshapingSpellings: the request headers that reshape
// a response, spelt as a server may still read them: in another case,
// without a space, with a tab, and with '_' for '-' (which CGI-style
// servers map to the same variable). A server that honours any of them
// compresses its answer; whatever the probe reads, decoded any way, holds
// no form of the value.
func TestHostileSecretReshapingSpellings(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept := ""
		for k, vs := range r.Header {
			if strings.EqualFold(strings.ReplaceAll(k, "_", "-"), "Accept-Encoding") {
				accept += strings.Join(vs, ",")
			}
		}
		body := tokenBody(r)
		switch {
		case strings.Contains(accept, "deflate"):
			w.Header().Set("Content-Encoding", "deflate")
			var b bytes.Buffer
			zw, _ := flate.NewWriter(&b, flate.BestSpeed)
			zw.Write(body)
			zw.Close()
			body = b.Bytes()
		case strings.Contains(accept, "gzip"):
			w.Header().Set("Content-Encoding", "gzip")
			body = gzipped(body)
		}
		w.Write(body)
	}))
	dest := origin + "/"
	v := specialValue(80)
	for _, header := range []string{
		"ACCEPT-ENCODING: gzip",
		"accept-encoding:deflate",
		"Accept-Encoding:\tgzip",
		"Accept_Encoding: gzip",
		"Accept_Encoding: deflate",
		"Accept-Encoding: identity\nAccept_Encoding: deflate",
	} {
		t.Run(header, func(t *testing.T) {
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/token\nAuthorization: ${secret:P}\n" + header + "\n"
			h := g.http(t, c, req, 0, 0)
			if h < 0 {
				t.Logf("refused: %d, %s", h, g.lastError(t, c))
				assertNoLeak(t, v, "the last error", g.lastError(t, c), req)
				return
			}
			_, body := g.wholeBody(t, c, h)
			t.Logf("read %q", body)
			for i, r := range append([]string{body}, decodings([]byte(body))...) {
				assertNoLeak(t, v, fmt.Sprintf("what the probe read, decoded (%d)", i), r, req)
			}
		})
	}
}

// TestHostileSecretRedirectChainReturns: the value's destination
// redirects to another origin, which would redirect back. The other origin
// must get no part of the value on the way, in any header, the query or
// a Referer: the value's destination may have spelt it into the Location
// in any form, so the chain stops there and its 307 is the answer.
func TestHostileSecretRedirectChainReturns(t *testing.T) {
	g := newGuest(t)
	v := specialValue(81)
	second := &received{}
	// The handlers run on the servers' goroutines: what they share with
	// the test is under mu.
	var (
		mu     sync.Mutex
		origin string
		back   []string
	)
	other, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dumpHandler(second)(httptest.NewRecorder(), r)
		mu.Lock()
		home := origin
		mu.Unlock()
		http.Redirect(w, r, home+"/ok/back?from="+r.URL.Query().Get("k"), http.StatusTemporaryRedirect)
	}))
	home, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ok/back" {
			mu.Lock()
			back = append(back, r.Header.Get("X-Key"))
			mu.Unlock()
			return
		}
		body, _ := io.ReadAll(r.Body)
		http.Redirect(w, r, other+"/ok/away?k="+url.QueryEscape(string(body)), http.StatusTemporaryRedirect)
	}))
	mu.Lock()
	origin = home
	mu.Unlock()
	c := hostileCall(t, grantsOf(reach(home+"/ok/", other+"/ok/"), boundSecret("P", home+"/ok/")), map[string]string{"P": v})
	for _, req := range []string{
		"GET " + home + "/ok/go\nX-Key: ${secret:P}\nAuthorization: ${secret:P}\n",
		"POST " + home + "/ok/go\n\n{\"k\":\"${secret:P}\"}",
	} {
		h := g.http(t, c, req, 0, 0)
		if answered(t, g, c, h, "P", home) {
			assert.Equal(t, int32(http.StatusTemporaryRedirect), g.v2(t, c, "http_status", uint32(h)))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("the other origin received %q; back home, X-Key %q", second.String(), back)
	assert.Empty(t, second.String(), "the chain went on from the value's destination")
	assertNoLeak(t, v, "what the other origin received", second.String())
	assert.NotContains(t, strings.ToLower(second.String()), "\nreferer:")
}

// TestHostileSecretPlaceholderAcrossSends: a placeholder cut across two
// sends is two pieces of text, sent as written: the peer receives
// "${secret:P}" literally and never the value.
func TestHostileSecretPlaceholderAcrossSends(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(82, 40)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	c := hostileCall(t, grantsOf(reach(echo), boundSecret("P", echo)), map[string]string{"P": v})
	h := g.connect(t, c, echo, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	for _, part := range []string{"${sec", "ret:P}", "$", "{secret:P", "}\n"} {
		require.Equal(t, int32(len(part)), g.send(t, c, h, part))
	}
	got := recvLines(t, g, c, h, 1)
	assert.Equal(t, "${secret:P}${secret:P}\n", got)
	assertNoLeak(t, v, "what came back", got)
}

// TestHostileSecretSubstringValues: two secrets, one inside the other.
// A is bound to an echo and sent there; B, which holds A, is bound to a
// sink and sent there. What the echo gives back of A, with or without
// the bytes around it that would make it B, must not say whether B holds
// A; nor may it when B is A's inside instead.
func TestHostileSecretSubstringValues(t *testing.T) {
	g := newGuest(t)
	echo := echoServer(t, "tcp", "127.0.0.1:0").Addr().String()
	sink, _ := countingPeer(t)
	a := hostileValue(83, 30)
	for _, tt := range []struct {
		name string
		b    [2]string // a B related to A, and one that is not
	}{
		{"B holds A", [2]string{"q" + a + "q", hostileValue(84, 32)}},
		{"A holds B", [2]string{a[5:25], hostileValue(85, 20)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := func(b string) seen {
				c := hostileCall(t, grantsOf(reach(echo, sink), boundSecret("A", echo), boundSecret("B", sink)), map[string]string{"A": a, "B": b})
				var s seen
				s.add(sendOn(t, g, c, sink, "${secret:B}\n"))
				sent, back := echoBack(t, g, c, echo, "q${secret:A}q\n${secret:A}\n")
				s.add(fmt.Sprint(sent), back)
				return s
			}
			assertSameObservations(t, "a related B and an unrelated one", run(tt.b[0]), run(tt.b[1]))
		})
	}
}

// TestHostileSecretRecvOddWaits: the hold against the waits and buffers a
// probe may ask for that the fuzzers do not try: a timeout of 0 (the
// budget), a negative one, 1 or 2 ms, and buffers of 1 and 3 bytes, on a
// peer whose answer comes in two writes cut inside the value. A short
// timeout's first recv comes while the peer holds the rest back, which
// it sends once that recv has answered (stallPeer; a try whose peer the
// machine kept off the CPU for longer than the quiet gap is tried again:
// see prompt); a wait as long as
// the budget would outlast any pause of the peer's, even one between two
// writes back to back on a loaded machine, and meet the quiet gap, so
// there the peer writes its answer at once.
func TestHostileSecretRecvOddWaits(t *testing.T) {
	g := newGuest(t)
	v := hostileValue(86, 64)
	for _, tt := range []struct {
		timeout int32
		buf     uint32
	}{{0, bufCap}, {-1, bufCap}, {-1000, 1}, {0, 1}, {1, 1}, {2, 3}, {1, bufCap}} {
		t.Run(fmt.Sprintf("timeout=%d/buf=%d", tt.timeout, tt.buf), func(t *testing.T) {
			first := func(line string) string { return line[:20] }
			rest := func(line string) string { return line[20:] }
			var pieces []string
			exchange := func() *stall {
				var addr string
				stalled := &stall{} // no pause: the peer writes at once
				if tt.timeout > 0 {
					stalled = stallPeer(t, first, rest)
					addr = stalled.addr
				} else {
					addr, _ = hostilePeer(t, func(c net.Conn) {
						line, err := bufio.NewReader(c).ReadString('\n')
						if err != nil {
							return
						}
						c.Write([]byte(first(line) + rest(line)))
						io.Copy(io.Discard, c)
					})
				}
				c := hostileCall(t, grantsOf(reach(addr), boundSecret("P", addr)), map[string]string{"P": v})
				h := g.connect(t, c, addr, 0, 0)
				require.Positive(t, h, g.lastError(t, c))
				require.Positive(t, g.send(t, c, h, "${secret:P}\n"))
				pieces = nil
				if tt.timeout > 0 {
					waitSignal(t, stalled.firstSent, "the peer's first part")
					if n, s := g.recv(t, c, h, tt.buf, tt.timeout); n > 0 {
						pieces = append(pieces, s)
					} else {
						assert.Equal(t, StatusTimedOut, n, g.lastError(t, c))
					}
					close(stalled.next)
					waitSignal(t, stalled.restSent, "the peer's second part")
				}
				for {
					n, s := g.recv(t, c, h, tt.buf, tt.timeout)
					if n == StatusTimedOut {
						continue
					}
					if n <= 0 {
						assertWithheld(t, g, c, n, "P", addr)
						break
					}
					pieces = append(pieces, s)
				}
				return stalled
			}
			if !prompt(t, exchange) {
				return
			}
			for i, p := range pieces {
				assertNoLeak(t, v, fmt.Sprintf("recv %d", i), p)
			}
			assert.Empty(t, strings.Join(pieces, ""), "nothing of an echo that held the value is handed over")
		})
	}
}

// TestHostileSecretThroughProxy: a plain-http request that goes through
// the host's proxy (proxy = true) is read whole by the proxy, so it
// carries no secret: refused before anything is sent, in a header, the
// query or the body, whatever the secret is bound to; and an https
// request that may carry one does not carry it on to a plain-http
// redirect that goes through the proxy. The proxy here proxies plain
// http only, as a host with HTTP_PROXY and no HTTPS_PROXY does.
func TestHostileSecretThroughProxy(t *testing.T) {
	g := newGuest(t)
	v := specialValue(87)
	proxied := &received{}
	proxy, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dumpHandler(proxied)(w, r)
	}))
	proxyURL, err := url.Parse(proxy)
	require.NoError(t, err)
	plain, _ := hostileHTTP(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain+"/landing", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(secure.Close)
	pool := secure.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	for _, req := range []string{
		"GET " + plain + "/x\nAuthorization: ${secret:P}\n",
		"GET " + plain + "/x?k=${secret:P}\n",
		"POST " + plain + "/x\n\n${secret:P}",
		"POST " + secure.URL + "/go\nAuthorization: ${secret:P}\nX-Key: ${secret:P}\n\n${secret:P}",
		"GET " + secure.URL + "/go\nX-Key: ${secret:P}\n",
		"GET " + plain + "/x\n",
	} {
		t.Run(req, func(t *testing.T) {
			c := hostileCall(t, grantsOf(reach(plain+"/", secure.URL+"/"), boundSecret("P", plain+"/", secure.URL+"/")), map[string]string{"P": v})
			c.Net = &Net{Proxy: true, RootCAs: pool, proxyFor: func(r *http.Request) (*url.URL, error) {
				if r.URL.Scheme == "http" {
					return proxyURL, nil
				}
				return nil, nil
			}}
			before := proxied.String()
			h := g.http(t, c, req, 0, 0)
			t.Logf("%d %s; denials %q", h, g.lastError(t, c), c.Denials())
			if strings.HasPrefix(req, "GET "+plain) && !strings.Contains(req, "${") {
				require.Positive(t, h, "a request without a secret goes through the proxy")
				assert.Contains(t, proxied.String()[len(before):], "GET "+plain+"/x", "through the proxy")
			} else if strings.HasPrefix(req, "GET "+plain) || strings.HasPrefix(req, "POST "+plain) {
				assert.Equal(t, StatusDenied, h, "a secret in clear through the proxy")
			}
			assertNoLeak(t, v, "what the proxy received", proxied.String())
		})
	}
}

// TestHostileSecretOracleRedirect: a redirect that holds a value the run
// sent is not followed to where the value is not bound. A probe that has
// sent its secret to its own destination can put candidates in the
// Location of an open redirect on another granted origin, one the secret
// is not bound to and that never had the value, and watch which redirect
// is not followed. What it observes must not tell a value from a guess.
func TestHostileSecretOracleRedirect(t *testing.T) {
	g := newGuest(t)
	sink, _ := countingPeer(t)
	landing, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "landed") }))
	jump, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	candidates := []string{"0420", "4821", "1234"}
	run := func(pin string) seen {
		c := hostileCall(t, grantsOf(reach(sink, jump+"/", landing+"/"), boundSecret("PIN", sink)), map[string]string{"PIN": pin})
		s := seen{sendOn(t, g, c, sink, "${secret:PIN}\n")}
		for _, cand := range candidates {
			for _, form := range []string{"/land/" + cand, "/land?pin=" + cand} {
				h := g.http(t, c, "GET "+jump+"/jump?to="+url.QueryEscape(landing+form)+"\n", 0, 0)
				require.Positive(t, h, g.lastError(t, c))
				s.add(fmt.Sprint(g.v2(t, c, "http_status", uint32(h))))
				require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
			}
		}
		t.Logf("PIN %s: %q", pin, s)
		return s
	}
	assertSameObservations(t, "two PINs", run("4821"), run("0420"))
}

// charsetTokenHandler answers with tokenBody in the charset the request
// asks for, in Accept-Charset or as Accept's charset parameter, as web
// frameworks that write a string in the charset the client prefers do
// (Spring's StringHttpMessageConverter, say): UTF-16 or UTF-32, either
// byte order.
func charsetTokenHandler(w http.ResponseWriter, r *http.Request) {
	asked := strings.ToLower(r.Header.Get("Accept-Charset") + ";" + r.Header.Get("Accept"))
	body := string(tokenBody(r))
	var out []byte
	var charset string
	for _, cs := range []string{"utf-32be", "utf-32le", "utf-32", "utf-16be", "utf-16le", "utf-16"} {
		if !strings.Contains(asked, cs) {
			continue
		}
		charset = cs
		size := 2
		if strings.Contains(cs, "32") {
			size = 4
		}
		for _, c := range []byte(body) { // the tokens are ASCII
			unit := make([]byte, size)
			if strings.HasSuffix(cs, "le") {
				unit[0] = c
			} else {
				unit[size-1] = c
			}
			out = append(out, unit...)
		}
		break
	}
	if charset == "" {
		charset, out = "utf-8", []byte(body)
	}
	w.Header().Set("Content-Type", "text/plain; charset="+charset)
	w.Write(out)
}

// TestHostileSecretCharsets: a request header that asks for another
// charset changes the bytes of what comes back as Accept-Encoding does:
// the value's destination quotes the token it got in UTF-16, where no
// byte sequence is the value's, and the probe drops every other byte.
// Whatever the probe reads, with its zero bytes dropped, must hold no part
// of the value.
func TestHostileSecretCharsets(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(charsetTokenHandler))
	dest := origin + "/"
	v := hostileValue(88, 40)
	for _, tt := range []struct {
		header string
		honest bool // sent, and read back as the value's placeholder
	}{
		{"Accept-Charset: utf-16", false},
		{"Accept-Charset: UTF-32BE, utf-8;q=0.1", false},
		{"Accept: text/plain; charset=utf-16le", false},
		{"Accept: application/json, text/plain;charset=\"UTF-16\"", false},
		{"Accept-Charset: utf-8", true},
		{"Accept: text/plain; charset=utf-8", true},
		{"Accept: application/json", true},
	} {
		t.Run(tt.header, func(t *testing.T) {
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/token\nAuthorization: ${secret:P}\n" + tt.header + "\n"
			h := g.http(t, c, req, 0, 0)
			if h == StatusDenied && tt.honest {
				// Sent, and the value came back in UTF-8: withheld whole.
				assertWithheld(t, g, c, h, "P", origin)
				return
			}
			if h < 0 {
				t.Logf("refused: %d, %s", h, g.lastError(t, c))
				assert.False(t, tt.honest, "an honest request is sent")
				return
			}
			_, body := g.wholeBody(t, c, h)
			t.Logf("read %q", body)
			assertNoLeak(t, v, "what the probe read, its zero bytes dropped", strings.ReplaceAll(body, "\x00", ""), req)
			assert.False(t, tt.honest, "an honest request's value, come back, is withheld")
		})
	}
}
