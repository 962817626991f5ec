package mcptest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Raw is a client of a streamable-HTTP MCP endpoint written by hand: it
// sends what it is told to, and reads only what it is told to, as a
// hostile client does.
type Raw struct {
	T        testing.TB
	Endpoint string // the endpoint's URL
	Token    string // sent as a bearer token, when not empty
	ID       string // Mcp-Session-Id, once Open has run
	// Version is the protocol version Open asks for and every request of
	// the session names; "" is 2025-11-25. A session of 2025-03-26 may
	// send JSON-RPC batches.
	Version string
	// Capabilities is the client capabilities Open declares, as JSON; ""
	// is none.
	Capabilities string
}

func (c *Raw) version() string {
	if c.Version == "" {
		return "2025-11-25"
	}
	return c.Version
}

// InitializeBody is a well-formed initialize request.
const InitializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// Open initializes a session: initialize, then notifications/initialized.
// The session is not closed when the test ends: Close does.
func (c *Raw) Open() {
	c.T.Helper()
	body := strings.Replace(InitializeBody, "2025-11-25", c.version(), 1)
	if c.Capabilities != "" {
		body = strings.Replace(body, `"capabilities":{}`, `"capabilities":`+c.Capabilities, 1)
	}
	resp := c.Post(body)
	require.Equal(c.T, http.StatusOK, resp.StatusCode)
	c.ID = resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(c.T, c.ID)
	resp = c.Post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(c.T, http.StatusAccepted, resp.StatusCode)
}

// Post sends body and reads the whole answer.
func (c *Raw) Post(body string) *http.Response {
	c.T.Helper()
	resp, err := c.Try(body)
	require.NoError(c.T, err)
	return resp
}

// Ask sends body and returns the answer's status and body.
func (c *Raw) Ask(body string) (int, string) {
	c.T.Helper()
	code, answer, err := c.Exchange(body)
	require.NoError(c.T, err)
	return code, answer
}

// Exchange is Ask that returns the error of a request that failed, for a
// goroutine other than the test's.
func (c *Raw) Exchange(body string) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, c.Endpoint, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	c.headers(req.Header)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// Try is Post that returns the error of a request that failed.
func (c *Raw) Try(body string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, c.Endpoint, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	c.headers(req.Header)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, nil
}

func (c *Raw) headers(h http.Header) {
	h.Set("Accept", "application/json, text/event-stream")
	if c.Token != "" {
		h.Set("Authorization", "Bearer "+c.Token)
	}
	if c.ID != "" {
		h.Set("Mcp-Session-Id", c.ID)
		h.Set("Mcp-Protocol-Version", c.version())
	}
}

// Stall sends a request (method, and body when not empty) on a connection
// of its own, with a 4 KiB receive buffer, and never reads the answer:
// what the server writes piles up in the kernel's buffers, then blocks.
// The connection closes when the test ends.
func (c *Raw) Stall(method, body string) net.Conn {
	c.T.Helper()
	u, err := url.Parse(c.Endpoint)
	require.NoError(c.T, err)
	conn, err := net.DialTimeout("tcp", u.Host, Wait)
	require.NoError(c.T, err)
	c.T.Cleanup(func() { conn.Close() })
	require.NoError(c.T, conn.(*net.TCPConn).SetReadBuffer(4<<10))
	h := http.Header{}
	c.headers(h)
	if body != "" {
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", fmt.Sprint(len(body)))
	}
	var req strings.Builder
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, u.RequestURI(), u.Host)
	require.NoError(c.T, h.Write(&req))
	_, err = io.WriteString(conn, req.String()+"\r\n"+body)
	require.NoError(c.T, err)
	return conn
}

// Gone reports whether the server has closed the session: a request on it
// is answered 404, as for a session that never was. (One sent as the
// session is dropped fails, which says nothing yet.)
func (c *Raw) Gone() bool {
	resp, err := c.Try(`{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	return err == nil && resp.StatusCode == http.StatusNotFound
}

// Close ends the session with a DELETE.
func (c *Raw) Close() {
	req, err := http.NewRequest(http.MethodDelete, c.Endpoint, nil)
	if err != nil {
		return
	}
	c.headers(req.Header)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
