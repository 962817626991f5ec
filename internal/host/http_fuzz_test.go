package host

import (
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/httptoken"
)

// FuzzParseHTTPRequest: whatever the text, parseHTTPRequest never panics,
// and what it accepts is well formed (a token method, token header names,
// values without control characters, a body within the bound) and reads
// back the same when written out again.
func FuzzParseHTTPRequest(f *testing.F) {
	f.Add([]byte("GET https://api.example.com/v1/models\r\nAuthorization: Bearer ${secret:K}\r\n\r\n"))
	f.Add([]byte("POST http://127.0.0.1:8080/x\nContent-Type: application/json\n\n{\"a\":1}"))
	f.Add([]byte("GET unix:/var/run/docker.sock:/_ping"))
	f.Add([]byte("GET x\nA:\n\n\n\n"))
	f.Add([]byte("G\x00T x\nA: b\x7f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseHTTPRequest(b)
		if err != nil {
			return
		}
		if !httptoken.Valid(r.method) || r.url == "" || hasCTL(r.url) || strings.ContainsAny(r.url, " \t") {
			t.Fatalf("accepted request line %q %q", r.method, r.url)
		}
		if len(r.body) > MaxHTTPRequestBody {
			t.Fatalf("accepted a body of %d bytes", len(r.body))
		}
		var out strings.Builder
		out.WriteString(r.method + " " + r.url + "\n")
		for _, h := range r.header {
			if !httptoken.Valid(h.name) || hasCTL(h.value) || h.value != strings.Trim(h.value, " \t") {
				t.Fatalf("accepted header %q: %q", h.name, h.value)
			}
			out.WriteString(h.name + ": " + h.value + "\n")
		}
		out.WriteString("\n")
		out.Write(r.body)
		again, err := parseHTTPRequest([]byte(out.String()))
		if err != nil {
			t.Fatalf("written out again, %q is refused: %v", out.String(), err)
		}
		if again.method != r.method || again.url != r.url || len(again.header) != len(r.header) || string(again.body) != string(r.body) {
			t.Fatalf("round trip changed the request: %+v vs %+v", again, r)
		}
	})
}
