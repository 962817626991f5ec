package sdk

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestText(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
		want string
	}{
		{"GET by default", Request{URL: "http://127.0.0.1:8080/health"}, "GET http://127.0.0.1:8080/health\n\n"},
		{"headers in name order, secret placeholder as written",
			Request{URL: "https://api.example.com/v1/models", Header: map[string]string{
				"X-B": "2", "Authorization": "Bearer " + Secret("API_KEY"), "Accept": "application/json"}},
			"GET https://api.example.com/v1/models\nAccept: application/json\nAuthorization: Bearer ${secret:API_KEY}\nX-B: 2\n\n"},
		{"body", Request{Method: "POST", URL: "unix:/var/run/docker.sock:/_ping", Body: []byte("{}\n")},
			"POST unix:/var/run/docker.sock:/_ping\n\n{}\n"},
		{"empty header value", Request{URL: "http://h/", Header: map[string]string{"X-Empty": ""}}, "GET http://h/\nX-Empty: \n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.req.text()
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
			assert.Equal(t, len(got), cap(got), "the length checked against MaxRequest is the length sent")
		})
	}
}

// A request that would mean something else as text is refused before it
// reaches the host, naming the part at fault.
func TestRequestTextRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		req    Request
		detail string
	}{
		{"no URL", Request{}, "no URL"},
		{"method with a space", Request{Method: "GET /x", URL: "http://h/"}, `method "GET /x" is not an HTTP token`},
		{"method with a newline", Request{Method: "GET\n", URL: "http://h/"}, `method "GET\n" is not an HTTP token`},
		{"URL with a space", Request{URL: "http://h/ HTTP/1.1"}, `URL "http://h/ HTTP/1.1" has a space or control character`},
		{"URL with a newline", Request{URL: "http://h/\nX-Injected: 1"}, `URL "http://h/\nX-Injected: 1" has a space or control character`},
		{"header name with a colon", Request{URL: "http://h/", Header: map[string]string{"X:Y": "1"}}, `header name "X:Y" is not an HTTP token`},
		{"empty header name", Request{URL: "http://h/", Header: map[string]string{"": "1"}}, `header name "" is not an HTTP token`},
		{"header value with a newline", Request{URL: "http://h/", Header: map[string]string{"X": "1\nHost: evil"}}, "header X: value has a line break or NUL"},
		{"header value with CR", Request{URL: "http://h/", Header: map[string]string{"X": "1\r"}}, "header X: value has a line break or NUL"},
		{"body too long", Request{URL: "http://h/", Body: make([]byte, MaxRequestBody+1)}, "body is 16385 bytes, more than 16 KiB"},
		{"request too long", Request{URL: "http://h/", Header: map[string]string{"A": strings.Repeat("a", 40<<10), "B": strings.Repeat("b", 30<<10)}},
			"request is 71703 bytes, more than 64 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.req.text()
			require.ErrorIs(t, err, ErrBadRequest)
			var ce *CallError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.detail, ce.Detail)
		})
	}
	// The bounds themselves are allowed.
	_, err := (&Request{URL: "http://h/", Body: make([]byte, MaxRequestBody)}).text()
	assert.NoError(t, err)
}

// FuzzRequestText: text never panics, and what it accepts reads back as
// the request it came from: one request line, one line per header, the
// empty line, the body.
func FuzzRequestText(f *testing.F) {
	f.Add("GET", "http://h/", "Authorization", "Bearer ${secret:K}", []byte("body"))
	f.Add("", "unix:/s:/_ping", "X", "", []byte(nil))
	f.Add("P\nST", "http://h/ x", "A\r", "b\nc", []byte("\n\n"))
	f.Fuzz(func(t *testing.T, method, url, name, value string, body []byte) {
		req := Request{Method: method, URL: url, Header: map[string]string{name: value}, Body: body}
		text, err := req.text()
		if err != nil {
			require.ErrorIs(t, err, ErrBadRequest)
			return
		}
		require.LessOrEqual(t, len(text), MaxRequest)
		head, gotBody, ok := bytes.Cut(text, []byte("\n\n"))
		require.True(t, ok)
		assert.Equal(t, string(body), string(gotBody), "body")
		lines := strings.Split(string(head), "\n")
		require.Len(t, lines, 2, "%q", text)
		if method == "" {
			method = "GET"
		}
		assert.Equal(t, method+" "+url, lines[0])
		assert.Equal(t, name+": "+value, lines[1])
	})
}

func TestMillis(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int32
	}{
		{0, 0}, {-time.Second, 0}, {time.Nanosecond, 1}, {time.Millisecond, 1},
		{1500 * time.Microsecond, 2}, {50 * time.Millisecond, 50}, {math.MaxInt64, math.MaxInt32},
	} {
		assert.Equal(t, tc.want, millis(tc.d), "%v", tc.d)
	}
}

func TestTLSState(t *testing.T) {
	out := func(notAfter, left int64) *[16]byte {
		var b [16]byte
		binary.LittleEndian.PutUint64(b[0:], uint64(notAfter))
		binary.LittleEndian.PutUint64(b[8:], uint64(left))
		return &b
	}
	s := tlsState(1, out(1798761600, 86400*30))
	assert.Equal(t, TLSState{Verified: true, NotAfter: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Left: 30 * 24 * time.Hour}, s)

	s = tlsState(0, out(0, -3600))
	assert.False(t, s.Verified)
	assert.Equal(t, -time.Hour, s.Left, "expired: negative")

	// Seconds that do not fit a Duration saturate instead of wrapping.
	assert.Positive(t, tlsState(1, out(0, math.MaxInt64)).Left)
	assert.Negative(t, tlsState(1, out(0, math.MinInt64)).Left)
}

func TestSecret(t *testing.T) {
	assert.Equal(t, "${secret:OPENAI_API_KEY}", Secret("OPENAI_API_KEY"))
}
