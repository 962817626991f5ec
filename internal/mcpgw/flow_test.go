package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/mcptest"
)

// badNotes wraps an HTTP upstream: each answer to a tools/call comes
// after notes notifications of methods gate acts on whose params the
// SDK cannot decode, on the answer's event stream.
type badNotes struct {
	next  http.Handler
	notes int
}

// undecodable are notifications of methods gate acts on that the SDK's
// client refuses before any handler sees them.
var undecodable = []string{
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":"lots"}}`,
	`{"jsonrpc":"2.0","method":"notifications/message","params":null}`,
	`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":5}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":true}}`,
	`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":[1]}`,
}

func (b *badNotes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) != "tools/call" {
		b.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	b.next.ServeHTTP(rec, r)
	maps.Copy(w.Header(), rec.Header())
	w.WriteHeader(rec.Code)
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	for i := range b.notes {
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", undecodable[i%len(undecodable)])
	}
	_, _ = w.Write(rec.Body.Bytes())
}

// Notifications the SDK refuses before gate sees them are not counted
// against the upstream's flow cap: counted, they were never released, and
// once the cap's worth had come over a session's life gate stopped reading
// the upstream for good.
func TestUndecodableNotificationsDoNotFillTheFlowCap(t *testing.T) {
	const most = 16
	up := &badNotes{next: sdkHandler(false), notes: most}
	h := start(t, httpServer("noisy", serveHTTP(t, up)), fastConfig().WithMaxPending(most))
	c := h.client()
	c.WaitTools(t, "noisy_echo", "noisy_wait")
	// Each call brings a cap's worth of them: without the fix the second
	// call's answer is never read.
	for range 4 {
		echoes(t, c, "noisy_echo")
	}
}

// FuzzReachesGate is a differential test of the flow cap's count against
// the SDK: a notification of a method gate acts on, with the fuzzer's
// params, is counted exactly when the SDK's client hands it to the
// receiving middleware.
func FuzzReachesGate(f *testing.F) {
	for _, n := range undecodable {
		var m struct {
			Method string
			Params json.RawMessage
		}
		require.NoError(f, json.Unmarshal([]byte(n), &m))
		f.Add(m.Method, string(m.Params))
	}
	f.Add("notifications/progress", `{"progressToken":"t","progress":1}`)
	f.Add("notifications/progress", `{"progressToken":"t","Progress":1}`)
	f.Add("notifications/message", `{"level":"info","data":"x"}`)
	f.Add("notifications/message", ``)
	f.Add("notifications/cancelled", `{"requestId":1.5}`)
	f.Add("notifications/tools/list_changed", ``)
	f.Add("notifications/resources/updated", `{"uri":7}`)
	f.Add("notifications/prompts/list_changed", `null`)
	sdk := newSDKClient(f)
	f.Fuzz(func(t *testing.T, method, params string) {
		if !json.Valid([]byte(params)) && params != "" {
			return // not a message: the transports drop it before counting
		}
		if !mcpgw.Handles(method) {
			return
		}
		want := sdk.reaches(t, method, json.RawMessage(params))
		assert.Equal(t, want, mcpgw.ReachesGate(method, json.RawMessage(params)), "%s %s", method, params)
	})
}

// sdkClient is the SDK's client on one end of an in-memory connection
// whose other end the test writes raw messages to.
type sdkClient struct {
	conn mcp.Connection
	mu   sync.Mutex
	seen []string // the params of each notification the middleware saw
	got  chan struct{}
	seq  int
}

func newSDKClient(tb testing.TB) *sdkClient {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	s := &sdkClient{got: make(chan struct{}, 1)}
	var err error
	s.conn, err = st.Connect(ctx)
	require.NoError(tb, err)
	go s.handshake()
	cl := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {},
	})
	cl.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if strings.HasPrefix(method, "notifications/") {
				b, _ := json.Marshal(req.GetParams())
				s.mu.Lock()
				s.seen = append(s.seen, method+" "+string(b))
				s.mu.Unlock()
				select {
				case s.got <- struct{}{}:
				default:
				}
			}
			return next(ctx, method, req)
		}
	})
	session, err := cl.Connect(ctx, ct, nil)
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = session.Close() })
	return s
}

// handshake answers the client's initialize, and refuses whatever else it
// asks first (a newer client's discovery), until it says it is initialized.
func (s *sdkClient) handshake() {
	ctx := context.Background()
	for {
		msg, err := s.conn.Read(ctx)
		if err != nil {
			return
		}
		req, ok := msg.(*jsonrpc.Request)
		switch {
		case !ok:
		case req.Method == "notifications/initialized":
			return
		case req.Method == "initialize":
			res, _ := json.Marshal(map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "raw", "version": "1"}})
			_ = s.conn.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: res})
		case req.IsCall():
			_ = s.conn.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: -32601, Message: "method not found"}})
		}
	}
}

// reaches sends method with params, then a notification the SDK takes
// for certain; once that one is seen, the first was taken or refused (the
// SDK handles notifications in order).
func (s *sdkClient) reaches(t *testing.T, method string, params json.RawMessage) bool {
	s.seq++
	marker := fmt.Sprintf(`{"_meta":{"seq":%d}}`, s.seq)
	s.mu.Lock()
	s.seen = nil
	s.mu.Unlock()
	ctx := context.Background()
	require.NoError(t, s.conn.Write(ctx, &jsonrpc.Request{Method: method, Params: params}))
	require.NoError(t, s.conn.Write(ctx, &jsonrpc.Request{Method: "notifications/tools/list_changed", Params: json.RawMessage(marker)}))
	deadline := time.After(10 * time.Second)
	for {
		s.mu.Lock()
		seen := s.seen
		s.mu.Unlock()
		if n := len(seen); n > 0 && strings.HasSuffix(seen[n-1], marker) {
			return n == 2
		}
		select {
		case <-s.got:
		case <-deadline:
			t.Fatalf("the SDK never handled the marker after %s %s", method, params)
		}
	}
}
