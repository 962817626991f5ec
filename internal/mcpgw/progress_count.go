package mcpgw

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countProgress returns t counting, for each of u's progress routes, the
// progress notifications read from the upstream, as they are read: before
// anything that comes after them on the wire, the call's result included.
//
// A stdio upstream's messages are counted as its connection decodes
// them. The SDK's streamable client connection cannot be wrapped (the
// client tells it of the session through a method of its own package), so
// an HTTP upstream's response bodies are scanned instead, for the tokens
// gate sent: a token that also appears elsewhere in what the upstream
// sends (in a result, say) is counted too, which makes that call's result
// wait at most progressCatchUp for progress that does not come.
func (u *upstream) countProgress(t mcp.Transport) mcp.Transport {
	if st, ok := t.(*mcp.StreamableClientTransport); ok {
		var client http.Client
		if st.HTTPClient != nil {
			client = *st.HTTPClient
		}
		base := client.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		client.Transport = &progressScanTransport{base: base, u: u}
		st.HTTPClient = &client
		return st
	}
	return &countingTransport{Transport: t, u: u}
}

type countingTransport struct {
	mcp.Transport
	u *upstream
}

func (t *countingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil || fmt.Sprintf("%T", c) == streamableClientConn {
		// Wrapped, the SDK's streamable connection would never hear of
		// its session: it is counted by its bodies (scanBody), or not at
		// all, never broken.
		return c, err
	}
	return &countingConn{Connection: c, u: t.u}, nil
}

// streamableClientConn is the type of the SDK's streamable client
// connection (v1.8.0), which the client tells of the session through an
// unexported method a wrapper cannot have.
const streamableClientConn = "*mcp.streamableClientConn"

type countingConn struct {
	mcp.Connection
	u *upstream
}

func (c *countingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.Method == "notifications/progress" {
		var p struct {
			Token any `json:"progressToken"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if tk, ok := p.Token.(string); ok {
				c.u.sawProgress(tk)
			}
		}
	}
	return msg, err
}

// progressScanTransport scans the bodies of an HTTP upstream's answers.
type progressScanTransport struct {
	base http.RoundTripper
	u    *upstream
}

func (t *progressScanTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err == nil && resp.Body != nil {
		resp.Body = t.u.scanBody(resp.Body)
	}
	return resp, err
}

// scanBody returns body counting, as it is read, the progress tokens of
// u's routes in it: what an HTTP upstream's transport does with each
// response body.
func (u *upstream) scanBody(body io.ReadCloser) io.ReadCloser {
	return &scanningBody{ReadCloser: body, scan: newTokenScanner(progressTokenPrefix(u.id), u.sawProgress)}
}

type scanningBody struct {
	io.ReadCloser
	scan *tokenScanner
}

func (b *scanningBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.scan.write(p[:n])
	return n, err
}

// maxTokenDigits is more digits than a uint64 has.
const maxTokenDigits = 20

// tokenScanner finds, in a stream of bytes written to it piece by piece,
// every JSON string `"PREFIX<digits>"` and reports PREFIX<digits>. The
// prefix starts with a letter and has no quote, so a quote inside a
// partial match can only start a new one.
type tokenScanner struct {
	pattern []byte // `"` + prefix
	found   func(string)
	matched int    // bytes of pattern matched so far
	digits  []byte // digits after a whole pattern
}

func newTokenScanner(prefix string, found func(string)) *tokenScanner {
	return &tokenScanner{pattern: []byte(`"` + prefix), found: found}
}

func (s *tokenScanner) write(p []byte) {
	for _, b := range p {
		if s.matched < len(s.pattern) {
			switch {
			case b == s.pattern[s.matched]:
				s.matched++
			case b == '"':
				s.matched = 1
			default:
				s.matched = 0
			}
			continue
		}
		switch {
		case b >= '0' && b <= '9' && len(s.digits) < maxTokenDigits:
			s.digits = append(s.digits, b)
			continue
		case b == '"' && len(s.digits) > 0:
			s.found(string(s.pattern[1:]) + string(s.digits))
			b = 0 // the token's closing quote starts nothing
		}
		s.digits = s.digits[:0]
		s.matched = 0
		if b == '"' {
			s.matched = 1
		}
	}
}
