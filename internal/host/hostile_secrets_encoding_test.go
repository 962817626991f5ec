package host

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Encodings the probe asks for, or a peer applies: a body the host cannot
// read as text is a body it cannot redact. In a run granted a secret the
// host refuses the request headers that change the encoding or the range
// of what comes back, decodes what its own transport asked to be
// compressed, and refuses a response that is still encoded.

// encodedTokenHandler answers with tokenBody, encoded as ?ce= says:
// "asked" gzips it when the request accepts gzip, as every web server
// does; "gzip", "x-gzip", "deflate" and "gzip, gzip" encode it so whatever
// was asked, and say so in Content-Encoding.
func encodedTokenHandler(w http.ResponseWriter, r *http.Request) {
	body := tokenBody(r)
	ce := r.URL.Query().Get("ce")
	if ce == "asked" {
		ce = ""
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			ce = "gzip"
		}
	}
	var encs []string
	for _, e := range strings.Split(ce, ",") {
		if e = strings.TrimSpace(e); e != "" {
			encs = append(encs, e)
		}
	}
	for _, e := range encs {
		var b bytes.Buffer
		var zw io.WriteCloser
		switch e {
		case "gzip", "x-gzip":
			zw = gzip.NewWriter(&b)
		case "deflate":
			zw = zlib.NewWriter(&b)
		}
		zw.Write(body)
		zw.Close()
		body = b.Bytes()
	}
	if ce != "" {
		w.Header().Set("Content-Encoding", ce)
	}
	w.Write(body)
}

// decodings are b decoded every way a probe could: gzip (once and
// twice), zlib and raw deflate; what decodes, even in part, is kept.
func decodings(b []byte) []string {
	var out []string
	try := func(r io.Reader, err error) []byte {
		if err != nil {
			return nil
		}
		d, _ := io.ReadAll(io.LimitReader(r, 1<<20))
		if len(d) > 0 {
			out = append(out, string(d))
		}
		return d
	}
	if d := try(gzip.NewReader(bytes.NewReader(b))); d != nil {
		try(gzip.NewReader(bytes.NewReader(d)))
	}
	try(zlib.NewReader(bytes.NewReader(b)))
	try(flate.NewReader(bytes.NewReader(b)), nil)
	return out
}

// TestHostileSecretEncodedBody: the value's own destination answers with
// the token it was sent, compressed: because the probe asked for gzip (a
// request that sets Accept-Encoding turns off Go's transparent
// decompression), or by itself with an encoding the transport does not
// decode. The compressed body holds nothing a redaction can match, and the
// probe decompresses it. Whatever the probe reads, decoded any way, must
// hold no form of the value.
func TestHostileSecretEncodedBody(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(encodedTokenHandler))
	dest := origin + "/"
	v := specialValue(11)
	for _, tt := range []struct{ ce, accept string }{
		{"asked", "gzip"},
		{"asked", "gzip, deflate, br"},
		{"x-gzip", ""},
		{"deflate", ""},
		{"gzip, gzip", ""},
		// These hold already: the transport decodes what it asked for.
		{"asked", ""},
		{"asked", "identity"},
	} {
		t.Run(fmt.Sprintf("ce=%s/accept=%s", tt.ce, tt.accept), func(t *testing.T) {
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			req := "GET " + origin + "/token?ce=" + strings.ReplaceAll(tt.ce, " ", "") + "\nAuthorization: ${secret:P}\n"
			if tt.accept != "" {
				req += "Accept-Encoding: " + tt.accept + "\n"
			}
			h := g.http(t, c, req, 0, 0)
			if h < 0 {
				t.Logf("refused: %d, %s", h, g.lastError(t, c))
				// -2: decoded, the body held the value, and is withheld whole.
				assert.Contains(t, []int32{StatusBadRequest, StatusClosed, StatusDenied}, h, "an encoding refused, as -6 or -9, or the value withheld")
				return
			}
			_, body := g.wholeBody(t, c, h)
			_, ce := g.header(t, c, h, "Content-Encoding")
			read := append([]string{body, ce}, decodings([]byte(body))...)
			for i, r := range read {
				assertNoLeak(t, v, fmt.Sprintf("what the probe read, decoded (%d)", i), r, req)
			}
		})
	}
}

// TestHostileSecretRangeRequests: a Range request reads a body a few bytes
// at a time, so that no piece holds a whole value; the probe puts the
// pieces together. None may hold part of the value.
func TestHostileSecretRangeRequests(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(tokenBody(r)))
	}))
	dest := origin + "/"
	v := hostileValue(12, 64)
	for _, extra := range []string{"", "If-Range: \"v1\"\n"} {
		t.Run(fmt.Sprintf("extra=%q", extra), func(t *testing.T) {
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
			var all strings.Builder
			for off := 0; off < len("token=")+len(v); off += 8 {
				req := fmt.Sprintf("GET %s/token\nAuthorization: ${secret:P}\nRange: bytes=%d-%d\n%s", origin, off, off+7, extra)
				h := g.http(t, c, req, 0, 0)
				if h < 0 {
					t.Logf("refused: %d, %s", h, g.lastError(t, c))
					continue
				}
				_, body := g.wholeBody(t, c, h)
				require.Equal(t, StatusOK, g.v2(t, c, "close", uint32(h)))
				assertNoLeak(t, v, fmt.Sprintf("the piece at %d", off), body, req)
				all.WriteString(body)
			}
			assertNoLeak(t, v, "the pieces put together", all.String())
		})
	}
}

// TestHostileSecretEncodingHeadersRefused pins the design's rule: in a run
// granted a secret, gate.http refuses (-6) the request headers that change
// the encoding or the range of what comes back, whether or not this
// request holds a placeholder; Accept-Encoding: identity is not one of
// them. A run granted no secret sends them as written.
func TestHostileSecretEncodingHeadersRefused(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(echoHandler))
	dest := origin + "/"
	for _, header := range []string{
		"Accept-Encoding: gzip",
		"Accept-Encoding: br",
		"Accept-Encoding: gzip;q=1.0, identity;q=0.5",
		"accept-encoding: deflate",
		"Range: bytes=0-7",
		"If-Range: \"x\"",
		"TE: gzip",
		"TE: trailers",
	} {
		t.Run(header, func(t *testing.T) {
			req := "GET " + origin + "/x\n" + header + "\n"
			c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": hostileValue(13, 20)})
			assert.Equal(t, StatusBadRequest, g.http(t, c, req, 0, 0), "granted a secret")
			assert.Equal(t, StatusBadRequest, g.http(t, c, req+"Authorization: ${secret:P}\n", 0, 0), "with the secret in it")

			plain := hostileCall(t, reach(dest), nil)
			h := g.http(t, plain, req, 0, 0)
			require.Positive(t, h, "granted no secret: %s", g.lastError(t, plain))
		})
	}
	c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": hostileValue(13, 20)})
	h := g.http(t, c, "GET "+origin+"/x\nAccept-Encoding: identity\n", 0, 0)
	require.Positive(t, h, "identity changes nothing: %s", g.lastError(t, c))
	_, got := g.header(t, c, h, "X-Got-Accept-Encoding")
	assert.Equal(t, "identity", got)
}

// chunkedTokenHandler answers with tokenBody in two chunks, cut ?at= bytes
// into the value: the framing of chunked encoding lies inside the value.
func chunkedTokenHandler(w http.ResponseWriter, r *http.Request) {
	body := tokenBody(r)
	var at int
	fmt.Sscan(r.URL.Query().Get("at"), &at)
	at = min(len("token=")+at, len(body))
	w.Write(body[:at])
	w.(http.Flusher).Flush()
	w.Write(body[at:])
}

// TestHostileSecretChunkBoundaries: a chunked body whose chunk boundary
// lies inside the value. gate.http reads the body decoded, so the value
// is whole when it is looked for; this holds already, and must go on
// holding.
func TestHostileSecretChunkBoundaries(t *testing.T) {
	g := newGuest(t)
	origin, _ := hostileHTTP(t, http.HandlerFunc(chunkedTokenHandler))
	dest := origin + "/"
	v := hostileValue(14, 50)
	for _, at := range []int{1, 3, 25, 49} {
		c := hostileCall(t, grantsOf(reach(dest), boundSecret("P", dest)), map[string]string{"P": v})
		req := fmt.Sprintf("GET %s/token?at=%d\nAuthorization: ${secret:P}\n", origin, at)
		// Read decoded, the value is whole, found, and withheld.
		assertWithheld(t, g, c, g.http(t, c, req, 0, 0), "P", origin)
	}
}
