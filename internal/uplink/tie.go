package uplink

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A streamable-HTTP server sends a request related to one of its client's
// requests on the event stream that answers that request's POST (the
// spec's rule, and what the Go SDK's server does with a request made in a
// tool's context): the stream is what ties it to the call. The SDK's
// client reads every stream into one queue, and hands its handler the
// request alone; so gate marks each request it ties, as the stream brings
// it, with a token of that stream's in its params' _meta (TieKey), and the
// gateway takes the token back (Ties.Of) before anything else sees the
// request.
//
// What ties a stream to a call is gate's own: the context of the POST that
// carried the call (WithCall), never anything the upstream wrote. A token
// is a secret of gate's that the upstream never sees (it goes nowhere but
// to Of), so a request can name no call but the one whose stream brought
// it. A request on the standalone GET stream, or on the stream of a POST
// gate made for itself, is tied to nothing; one that carries a token whose
// stream has ended is tied to no call in flight.

// TieKey is the _meta key of the token Ties puts in a request it ties.
const TieKey = "gate.dev/tie"

// callKey is the context key of the gateway's handle of a call.
type callKey struct{}

// WithCall returns ctx carrying call, the gateway's handle of a request
// it forwards: the upstream's requests on that request's event stream are
// tied to it (Ties.Of).
func WithCall(ctx context.Context, call any) context.Context {
	return context.WithValue(ctx, callKey{}, call)
}

// callOf is the handle WithCall put in ctx, or nil.
func callOf(ctx context.Context) any { return ctx.Value(callKey{}) }

// Ties are the event streams of one upstream's calls in flight, each with
// its token: an entry lives while its stream is open.
type Ties struct {
	secret string // never leaves gate
	tied   func(method string) bool

	mu   sync.Mutex
	seq  uint64
	open map[uint64]any // a stream's number → its call's handle
}

// NewTies returns the ties of one upstream; tied says which of the
// upstream's request methods are tied to their call (those the gateway
// relays to a client).
func NewTies(tied func(method string) bool) *Ties {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return &Ties{secret: hex.EncodeToString(b), tied: tied, open: map[uint64]any{}}
}

// Of takes the token out of meta, the _meta of a request of the upstream,
// and returns the handle of the call whose stream brought the request.
// tied is false when the request came on no call's stream (or bears no
// token of gate's); call is nil, with tied true, when that stream has
// ended. The token is removed whatever it is: nothing past here sees it.
func (t *Ties) Of(meta map[string]any) (call any, tied bool) {
	v, ok := meta[TieKey]
	if !ok {
		return nil, false
	}
	delete(meta, TieKey)
	s, _ := v.(string)
	if t == nil || len(s) <= len(t.secret) || subtle.ConstantTimeCompare([]byte(s[:len(t.secret)]), []byte(t.secret)) != 1 {
		return nil, false
	}
	n, ok := strings.CutPrefix(s[len(t.secret):], ".")
	seq, err := strconv.ParseUint(n, 10, 64)
	if !ok || err != nil {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.open[seq], true
}

// Open is how many tied streams are open: at most one per call in flight,
// and those of calls that ended whose streams are let end.
func (t *Ties) Open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.open)
}

// stream opens the entry of the event stream of call's POST; end removes
// it, when the stream's body is closed.
func (t *Ties) stream(call any) (token string, end func()) {
	t.mu.Lock()
	t.seq++
	seq := t.seq
	t.open[seq] = call
	t.mu.Unlock()
	return t.secret + "." + strconv.FormatUint(seq, 10), func() {
		t.mu.Lock()
		delete(t.open, seq)
		t.mu.Unlock()
	}
}

// mark returns event, one whole event of a call's stream, with token put
// in its message's _meta when the message is a request of a tied method,
// as the SDK decodes it (jsonrpc.DecodeMessage); any other event comes
// back as it is, as does one the mark would make longer than max.
func (t *Ties) mark(event []byte, token string, max int) []byte {
	// Only a message that holds a method can be a request: the rest (a
	// call's answer, most of all) is neither copied nor decoded a second
	// time. A key cannot span the event's data lines (the SDK joins them
	// with a newline, which no JSON string holds); one spelled with
	// escapes is left untied.
	if !bytes.Contains(event, []byte(`"method"`)) {
		return event
	}
	msg, first, lines := eventData(event)
	if first < 0 {
		return event
	}
	m, err := jsonrpc.DecodeMessage(msg)
	req, ok := m.(*jsonrpc.Request)
	if err != nil || !ok || !req.IsCall() || !t.tied(req.Method) {
		return event
	}
	params, ok := withMeta(req.Params, TieKey, token)
	if !ok {
		return event
	}
	marked := *req
	marked.Params = params
	out, err := jsonrpc.EncodeMessage(&marked)
	if err != nil {
		return event
	}
	ev := withData(lines, first, out, true)
	if len(ev) > max {
		return event
	}
	return ev
}

// withMeta returns params (a JSON object, or none) with key set to value
// in its _meta, and false when params or its _meta is no object. The
// other members are kept as they came; the SDK's decoder matches member
// names exactly, so the _meta it reads is the one written here.
func withMeta(params json.RawMessage, key, value string) (json.RawMessage, bool) {
	var p map[string]json.RawMessage
	if len(bytes.TrimSpace(params)) > 0 {
		if json.Unmarshal(params, &p) != nil {
			return nil, false
		}
	}
	if p == nil {
		p = map[string]json.RawMessage{}
	}
	var meta map[string]json.RawMessage
	if raw, ok := p["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return nil, false
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	v, _ := json.Marshal(value)
	meta[key] = v
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, false
	}
	p["_meta"] = mb
	out, err := json.Marshal(p)
	return out, err == nil
}
