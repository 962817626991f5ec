package host

import (
	"bytes"
	"errors"
	"fmt"
	"net/textproto"
	"strings"

	"github.com/gate-dev/gate/internal/httptoken"
)

// MaxHTTPRequestBody is the longest body a gate.http request may carry.
const MaxHTTPRequestBody = 16 << 10

// httpRequest is a probe's request text, parsed: nothing substituted yet.
type httpRequest struct {
	method string
	url    string // as written
	header []headerLine
	body   []byte
}

type headerLine struct {
	name  string // canonical
	value string
}

// parseHTTPRequest reads "METHOD URL\nName: value\n...\n\nbody" (lines end
// in \n or \r\n; the blank line and the body may be left out). It refuses,
// naming what is wrong, a method that is not a token, a header name that
// is not a token, a value with control characters, and a body over
// MaxHTTPRequestBody.
func parseHTTPRequest(b []byte) (httpRequest, error) {
	var r httpRequest
	line, rest, _ := cutLine(b)
	method, url, ok := strings.Cut(string(line), " ")
	if !ok || method == "" || url == "" {
		return r, errors.New("the request line is not METHOD URL")
	}
	if !httptoken.Valid(method) {
		return r, fmt.Errorf("method %q is not an HTTP token", method)
	}
	if strings.ContainsAny(url, " \t") || hasCTL(url) {
		return r, fmt.Errorf("URL %q holds spaces or control characters", url)
	}
	r.method, r.url = method, url
	for len(rest) > 0 {
		var more bool
		line, rest, more = cutLine(rest)
		if len(line) == 0 && more {
			break // the blank line: the body follows
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := strings.Cut(string(line), ":")
		if !ok {
			return r, fmt.Errorf("header line %q has no colon", clipForError(line))
		}
		if !httptoken.Valid(name) {
			return r, fmt.Errorf("header name %q is not an HTTP token", clipForError([]byte(name)))
		}
		value = strings.Trim(value, " \t")
		if hasCTL(value) {
			return r, fmt.Errorf("header %s: the value holds control characters", name)
		}
		r.header = append(r.header, headerLine{name: textproto.CanonicalMIMEHeaderKey(name), value: value})
	}
	if len(rest) > MaxHTTPRequestBody {
		return r, fmt.Errorf("the body is %d bytes; at most %d", len(rest), MaxHTTPRequestBody)
	}
	r.body = rest
	return r, nil
}

// cutLine returns b's first line without its \n or \r\n, the rest, and
// whether a line end was found.
func cutLine(b []byte) (line, rest []byte, found bool) {
	line, rest, found = bytes.Cut(b, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return line, rest, found
}

// hasCTL reports whether s holds a control character other than tab.
func hasCTL(s string) bool {
	for i := 0; i < len(s); i++ {
		if ch := s[i]; (ch < ' ' && ch != '\t') || ch == 0x7f {
			return true
		}
	}
	return false
}

func clipForError(b []byte) string { return clipUTF8(b, 64) }
