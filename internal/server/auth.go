package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// unauthorizedBody is the whole answer to a request without the right
// token. It is the same whatever was wrong (no header, another scheme, a
// wrong token) and whatever was asked (an endpoint that exists or not), so
// that it tells a caller nothing but that it needs the token.
const unauthorizedBody = "{\n  \"error\": \"unauthorized\"\n}\n"

// tokenCheck compares bearer tokens in constant time. Both sides are
// hashed first: subtle.ConstantTimeCompare returns at once on a length
// mismatch, which would tell a caller the token's length.
type tokenCheck struct {
	want [sha256.Size]byte
}

func newTokenCheck(token string) *tokenCheck {
	if token == "" {
		return nil
	}
	return &tokenCheck{want: sha256.Sum256([]byte(token))}
}

// allows reports whether r carries the token. A nil check allows all.
func (c *tokenCheck) allows(r *http.Request) bool {
	if c == nil {
		return true
	}
	got := sha256.Sum256([]byte(bearer(r.Header.Get("Authorization"))))
	return subtle.ConstantTimeCompare(got[:], c.want[:]) == 1
}

// bearer returns the credentials of an "Authorization: Bearer ..." header
// (the scheme is case-insensitive, RFC 7235), or "".
func bearer(h string) string {
	const scheme = "bearer "
	if len(h) < len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return ""
	}
	return strings.TrimSpace(h[len(scheme):])
}

// unauthorized answers 401 with the fixed body and a bare challenge, and
// closes the connection (see writeError).
func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", "Bearer")
	w.Header().Set("Connection", "close")
	writeBody(w, http.StatusUnauthorized, "application/json", []byte(unauthorizedBody))
}
