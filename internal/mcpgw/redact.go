package mcpgw

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// redactor takes an upstream's secrets out of text gate shows: the values
// of the ${secret:NAME} its manifest entry uses, the header values built
// of them, and its OAuth access tokens. Whatever an upstream says (an
// error, a refusal, a line on stderr) may quote what it was sent; the
// reason, the event, the log line and the error a client gets must not.
//
// It replaces whole values in the complete text, before the text is cut
// or escaped: a value split across a cut would otherwise leave its
// beginning. It is a second line: the first is that a secret goes only
// where the manifest sends it (credentials.go). The zero value redacts
// nothing.
type redactor struct {
	mu     sync.Mutex
	values map[string]string // value: what shows instead
	tokens []string          // the latest access tokens, oldest first
	r      *strings.Replacer // of values, nil when stale
	most   int               // the longest value's length
}

// maxTokensKept bounds the access tokens redacted: the current one, and
// a few before it that errors of requests still in flight may quote.
const maxTokensKept = 4

// add has value shown as label from now on, in each spelling gate itself
// may give it (see spellings). An empty value is nothing to hide.
func (r *redactor) add(value, label string) {
	if value == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.values == nil {
		r.values = map[string]string{}
	}
	for _, v := range spellings(value) {
		if _, ok := r.values[v]; !ok {
			r.values[v] = label
			r.r = nil
		}
	}
}

// spellings are the forms a value takes in what gate sends: as it is,
// and percent-encoded as a query or form value (an OAuth client's id and
// secret in HTTP Basic, RFC 6749 2.3.1) or as a path segment. An upstream
// that quotes the request it refused quotes one of them. Spellings an
// upstream makes of its own are not known here: that a value goes only
// where the manifest sends it is the first line (credentials.go).
func spellings(value string) []string {
	out := []string{value}
	for _, v := range []string{url.QueryEscape(value), url.PathEscape(value)} {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// basicCredentials is what HTTP Basic sends of an OAuth client's id and
// secret (golang.org/x/oauth2's AuthStyleInHeader: each percent-encoded
// as a form value, then base64 of "id:secret"), to be redacted as the
// secret is: a token endpoint that quotes the Authorization header it
// refused quotes this.
func basicCredentials(id, secret string) string {
	return base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id) + ":" + url.QueryEscape(secret)))
}

// addToken adds an access token, forgetting the oldest past
// maxTokensKept.
func (r *redactor) addToken(token string) {
	if token == "" {
		return
	}
	r.add(token, "[oauth access token]")
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.tokens, token) {
		return
	}
	r.tokens = append(r.tokens, token)
	if len(r.tokens) > maxTokensKept {
		for _, v := range spellings(r.tokens[0]) {
			delete(r.values, v)
		}
		r.tokens = r.tokens[1:]
		r.r = nil
	}
}

// replacer returns the replacer of the current values, longest first so
// that a value that holds another is replaced whole.
func (r *redactor) replacer() (*strings.Replacer, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.values) == 0 {
		return nil, 0
	}
	if r.r == nil {
		vals := make([]string, 0, len(r.values))
		for v := range r.values {
			vals = append(vals, v)
		}
		slices.SortFunc(vals, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
		pairs := make([]string, 0, 2*len(vals))
		for _, v := range vals {
			pairs = append(pairs, v, r.values[v])
		}
		r.r, r.most = strings.NewReplacer(pairs...), len(vals[0])
	}
	return r.r, r.most
}

// longest is the length of the longest value (0 for none): a text cut
// that many bytes past its limit still holds every value that starts
// within it.
func (r *redactor) longest() int {
	_, n := r.replacer()
	return n
}

// text returns s with every value replaced, in one pass over the whole
// of s (a label is never searched again, so a value that a label holds
// cannot make it grow).
func (r *redactor) text(s string) string {
	rep, _ := r.replacer()
	if rep == nil {
		return s
	}
	return rep.Replace(s)
}

// redactedError is an error whose text was redacted. It unwraps only to
// a redacted copy of the JSON-RPC error inside it, if any, so that
// errors.As finds no original text.
type redactedError struct {
	msg string
	je  *jsonrpc.Error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error {
	if e.je == nil {
		return nil
	}
	return e.je
}

// err returns err with every value taken out of its text and, for a
// JSON-RPC error, its message and data. An error whose text holds no
// value is returned as it is (a context's error stays one).
func (r *redactor) err(err error) error {
	if err == nil {
		return err
	}
	if rep, _ := r.replacer(); rep == nil {
		return err
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		cp := &jsonrpc.Error{Code: je.Code, Message: r.text(je.Message), Data: r.data(je.Data)}
		if err == error(je) {
			return cp
		}
		return &redactedError{msg: r.text(err.Error()), je: cp}
	}
	msg := r.text(err.Error())
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg}
}

// data redacts the JSON of an error's data: every string in it, decoded,
// so that an escape (\u0041) does not hide a value; data that does not
// decode is dropped when it quotes a value as it is.
func (r *redactor) data(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		if r.text(string(raw)) != string(raw) {
			return nil
		}
		return raw
	}
	changed := false
	v = r.walk(v, &changed)
	if !changed {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func (r *redactor) walk(v any, changed *bool) any {
	switch x := v.(type) {
	case string:
		out := r.text(x)
		*changed = *changed || out != x
		return out
	case []any:
		for i := range x {
			x[i] = r.walk(x[i], changed)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, el := range x {
			rk := r.text(k)
			*changed = *changed || rk != k
			out[rk] = r.walk(el, changed)
		}
		return out
	}
	return v
}
