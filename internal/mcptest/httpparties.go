package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PeerWords is what the hostile HTTP upstreams write in their refusals'
// bodies and headers: no client of gate may see it.
const PeerWords = "PEER-WORDS-\u202e"

// StatusHTTP wraps an HTTP MCP upstream: a tools/call of a tool named
// s<status> (s403, s429, ...) is answered with that HTTP status and a
// plain-text body, a 401 or 403 with an insufficient_scope challenge as
// well; everything else goes to Next.
type StatusHTTP struct{ Next http.Handler }

func (s *StatusHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if RPCMethod(r) == "tools/call" {
		if code, err := strconv.Atoi(strings.TrimPrefix(calledTool(r), "s")); err == nil {
			if code == http.StatusUnauthorized || code == http.StatusForbidden {
				w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin `+PeerWords+`"`)
			}
			http.Error(w, PeerWords, code)
			return
		}
	}
	s.Next.ServeHTTP(w, r)
}

// StatusServer is Server with a tool s<code> for each code, for
// StatusHTTP to refuse.
func StatusServer(codes ...int) *mcp.Server {
	s := Server()
	for _, c := range codes {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("s%d", c), InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "never: StatusHTTP answers it"}}}, nil
		})
	}
	return s
}

// Undecodable are notifications of methods gate acts on whose params the
// SDK's client cannot decode: it refuses them before any handler sees
// them.
var Undecodable = []string{
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":"lots"}}`,
	`{"jsonrpc":"2.0","method":"notifications/message","params":null}`,
	`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":5}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":true}}`,
	`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":[1]}`,
}

// UndecodableNotes wraps an HTTP MCP upstream whose answers come on
// event streams: each answer to a tools/call comes after Notes of
// Undecodable, on the answer's stream.
type UndecodableNotes struct {
	Next  http.Handler
	Notes int
}

func (u *UndecodableNotes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if RPCMethod(r) != "tools/call" {
		u.Next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	u.Next.ServeHTTP(rec, r)
	maps.Copy(w.Header(), rec.Header())
	w.WriteHeader(rec.Code)
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	for i := range u.Notes {
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", Undecodable[i%len(Undecodable)])
	}
	_, _ = w.Write(rec.Body.Bytes())
}

// BlankLines wraps a legacy HTTP+SSE upstream (mcp.NewSSEHandler): its
// event stream (the GET) carries, between the server's events, blank
// lines without end, as fast as the reader takes them.
type BlankLines struct {
	Next    http.Handler
	written atomic.Int64
}

// Written is how many bytes of blank lines it has written.
func (b *BlankLines) Written() int64 { return b.written.Load() }

func (b *BlankLines) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		b.Next.ServeHTTP(w, r)
		return
	}
	bw := &boundaryWriter{ResponseWriter: w}
	bw.cond = sync.NewCond(&bw.mu)
	stop := context.AfterFunc(r.Context(), bw.end)
	defer stop()
	defer bw.end()
	go func() {
		blank := []byte(strings.Repeat("\n", 4<<10))
		for bw.between(blank) {
			b.written.Add(int64(len(blank)))
		}
	}()
	b.Next.ServeHTTP(bw, r)
}

// boundaryWriter lets another writer in only between the events the
// handler writes: once its headers are out and the last thing it wrote
// ended with a blank line.
type boundaryWriter struct {
	http.ResponseWriter
	mu    sync.Mutex
	cond  *sync.Cond // signalled on each write of the handler, and at the end
	ended bool       // the handler has returned, or the request is gone
	tail  []byte     // the last two bytes the handler wrote
}

func (b *boundaryWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.ResponseWriter.Write(p)
	b.tail = append(b.tail, p[:n]...)
	if len(b.tail) > 2 {
		b.tail = b.tail[len(b.tail)-2:]
	}
	b.cond.Broadcast()
	return n, err
}

func (b *boundaryWriter) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = http.NewResponseController(b.ResponseWriter).Flush()
}

func (b *boundaryWriter) end() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ended = true
	b.cond.Broadcast()
}

// between waits for the end of one of the handler's events and writes p
// after it, flushed; false once the stream has ended or a write failed.
func (b *boundaryWriter) between(p []byte) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.ended && string(b.tail) != "\n\n" {
		b.cond.Wait()
	}
	if b.ended {
		return false
	}
	if _, err := b.ResponseWriter.Write(p); err != nil {
		return false
	}
	return http.NewResponseController(b.ResponseWriter).Flush() == nil
}
