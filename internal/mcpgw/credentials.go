package mcpgw

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/uplink"
)

// A url upstream's credentials are its manifest entry's headers and its
// OAuth access token. They are bound, as a browser binds a cookie: they
// are sent only with requests to the origin of the upstream's url, and the
// transport follows no redirect, so no answer of the upstream can send
// them elsewhere. The ${secret:NAME} values they are built of are read
// from gate's environment when a session starts; an upstream that names
// one that is not set is not connected to.

// errCredentialsRejected is what every rejection of an upstream's
// credentials is (errors.Is): a 401 on any request, a 403 on one of
// gate's own requests (initialize, ping, a listing, the event stream: the
// session's, which the credentials must open), or a token endpoint that
// refuses the client. A 403 on a request gate forwards for a client (a
// tools/call: MCP's step-up authorization for a scope the token lacks, a
// firewall rule on its arguments) is that request's refusal, not the
// credentials' (callstatus.go). The upstream is then retried only
// after the gateway's longest backoff: credentials that were refused a
// moment ago will be again, and an upstream or authorization server that
// counts failures (and locks the client out) should not see a storm.
var errCredentialsRejected = errors.New("credentials rejected")

// rejectedError is a rejection of an upstream's credentials, as its
// reason says it.
type rejectedError struct{ msg string }

func (e *rejectedError) Error() string        { return e.msg }
func (e *rejectedError) Is(target error) bool { return target == errCredentialsRejected }

// longestBackoff ends the reason of a rejection.
const longestBackoff = "gate tries again only after its longest backoff"

// lookupSecret reads a ${secret:NAME} from gate's environment.
var lookupSecret = os.LookupEnv

// credentials is the transport of one session of a url upstream, under
// gate's bounds (uplink.HTTPLink) and above the connection pool: it adds the
// headers and the token to requests to the url's origin, refuses
// redirects, and turns a rejection of the credentials (rejection) into
// the session's end.
type credentials struct {
	base    http.RoundTripper
	g       *uplink.Guard
	url     string // as written, for messages
	origin  uplink.Origin
	headers [][2]string
	oauth   *tokenSource // nil without oauth
	secrets *redactor
	// given says the manifest entry gives credentials (headers or oauth),
	// for the reason of a 401.
	given bool
	// refused is the rejection or redirect that ended the session: every
	// later request of it fails with it unsent, so that a session whose
	// credentials were refused sends them no more.
	refused atomic.Pointer[error]
}

// newCredentials reads the secrets of conn's headers and oauth, adding
// each value to secrets before anything is sent.
func newCredentials(conn *manifest.Upstream, cfg *Config, g *uplink.Guard, base http.RoundTripper, secrets *redactor) (*credentials, error) {
	u, err := url.Parse(conn.URL)
	if err != nil {
		return nil, errors.New("bad url")
	}
	c := &credentials{base: base, g: g, url: conn.URL, origin: uplink.OriginOf(u), secrets: secrets, given: len(conn.Headers) > 0 || conn.OAuth != nil}
	for _, h := range conn.Headers {
		v, err := expandSecrets(h.Value, secrets, "header "+h.Name)
		if err != nil {
			return nil, err
		}
		if err := checkControls(h.Name, v); err != nil {
			return nil, err
		}
		if v != h.Value {
			// As sent: a value built of secrets is one too.
			secrets.add(v, "[header "+h.Name+"]")
		}
		c.headers = append(c.headers, [2]string{h.Name, v})
	}
	if o := conn.OAuth; o != nil {
		id, err := expandSecrets(o.ClientID, secrets, "oauth client_id")
		if err != nil {
			return nil, err
		}
		secret, err := expandSecrets(o.ClientSecret, secrets, "oauth client_secret")
		if err != nil {
			return nil, err
		}
		c.oauth = newTokenSource(o, id, secret, conn.URL, cfg, secrets)
	}
	return c, nil
}

// expandSecrets expands the ${secret:NAME} of a value the manifest gives
// what ("header X-Api-Key", "env TOKEN"), registering each value with
// secrets; its error names what and the secret, never a value.
func expandSecrets(s string, secrets *redactor, what string) (string, error) {
	v, err := manifest.ExpandSecrets(s, func(name string) (string, bool) {
		v, ok := lookupSecret(name)
		if ok {
			secrets.add(v, "${secret:"+name+"}")
		}
		return v, ok
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// checkControls refuses a header value with a control character, naming
// the secrets it was built of but none of their values.
func checkControls(name, value string) error {
	if strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("header %s: a secret in its value holds a control character (CR, LF, NUL, ...), which a header cannot carry", name)
	}
	return nil
}

// RoundTrip sends req with the credentials when it goes to the url's
// origin, and with none otherwise.
func (c *credentials) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := c.refused.Load(); err != nil {
		return nil, *err
	}
	bound := uplink.OriginOf(req.URL) == c.origin
	out, used, err := c.dress(req, bound, "")
	if err != nil {
		return nil, err
	}
	resp, err := c.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	if err := c.redirected(resp); err != nil {
		return nil, err
	}
	// Whose request it is matters only for a 403 (Describe reads it).
	forwarded := false
	if resp.StatusCode == http.StatusForbidden {
		_, forwarded = uplink.Describe(req, forwardedMethod)
	}
	if !rejection(resp.StatusCode, forwarded) {
		return resp, nil
	}
	if c.oauth != nil && bound && replayable(req) {
		// The token may have expired early, or been revoked: one fresh
		// one, and the request again.
		discard(resp)
		if out, _, err = c.dress(req, bound, used); err != nil {
			return nil, err
		}
		if resp, err = c.base.RoundTrip(out); err != nil {
			return nil, err
		}
		if err := c.redirected(resp); err != nil {
			return nil, err
		}
		if !rejection(resp.StatusCode, forwarded) {
			return resp, nil
		}
	}
	return nil, c.rejected(req, resp)
}

// dress returns req with the headers and a token (not stale) when bound,
// and the token it holds.
func (c *credentials) dress(req *http.Request, bound bool, stale string) (*http.Request, string, error) {
	if !bound || len(c.headers) == 0 && c.oauth == nil {
		return req, "", nil
	}
	out := req.Clone(req.Context())
	if stale != "" && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, "", err
		}
		out.Body = body
	}
	for _, h := range c.headers {
		out.Header.Set(h[0], h[1])
	}
	token := ""
	if c.oauth != nil {
		var err error
		if token, err = c.oauth.token(req.Context(), stale); err != nil {
			if errors.Is(err, errCredentialsRejected) {
				return nil, "", c.refuse(err)
			}
			c.g.Fail(err)
			return nil, "", err
		}
		out.Header.Set("Authorization", "Bearer "+token)
	}
	return out, token, nil
}

// rejection reports whether status refuses the credentials: a 401 on any
// request, a 403 on gate's own (not forwarded for a client).
func rejection(status int, forwarded bool) bool {
	return status == http.StatusUnauthorized || status == http.StatusForbidden && !forwarded
}

// replayable reports whether req can be sent again: it has no body, or
// one the transport can make again.
func replayable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

// rejected ends the session for resp, a rejection of the credentials.
func (c *credentials) rejected(req *http.Request, resp *http.Response) error {
	challenge := resp.Header.Get("WWW-Authenticate")
	discard(resp)
	what, _ := uplink.Describe(req, forwardedMethod)
	msg := fmt.Sprintf("credentials rejected (HTTP %d): %s answered %s with HTTP %s", resp.StatusCode, c.url, what, resp.Status)
	if challenge != "" {
		msg += " (WWW-Authenticate: " + c.secrets.short(challenge) + ")"
	}
	if !c.given {
		msg += ", and its manifest entry gives it no headers or oauth"
	}
	return c.refuse(&rejectedError{msg: msg + "; " + longestBackoff})
}

// refuse ends the session for err, and keeps its later requests unsent.
func (c *credentials) refuse(err error) error {
	c.refused.CompareAndSwap(nil, &err)
	c.g.Fail(err)
	return err
}

// redirected refuses a redirect: the request it names would carry what
// the upstream's url was given, to a place the manifest did not name.
func (c *credentials) redirected(resp *http.Response) error {
	if !isRedirect(resp.StatusCode) {
		return nil
	}
	loc := resp.Header.Get("Location")
	discard(resp)
	return c.refuse(fmt.Errorf("%s answered HTTP %s with Location %s: gate follows no redirects of an upstream (its credentials go only to its url's origin); write the new address as its url", c.url, resp.Status, strconv.Quote(c.secrets.short(loc))))
}

// isRedirect reports whether status sends the client elsewhere.
func isRedirect(status int) bool {
	return status >= 300 && status < 400 && status != http.StatusNotModified
}

// discard reads a little of a response that is not passed on, so that
// its connection can be reused, and closes it.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
}

// short is a header value or an authorization server's words for a
// reason: redacted whole, then cleaned of controls and cut to 200 bytes.
func (r *redactor) short(s string) string {
	s = r.text(s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return safetext.Clean(s, true)
}

// credentialsKey is the part of an upstream's connection key its
// credentials make: a SHA-256 of its headers and oauth as written and of
// the values of every secret it names, so that a reload after a secret
// changed reconnects, and no value is kept or shown. "" for an upstream
// that names no secret and has no headers or oauth.
func credentialsKey(u *manifest.Upstream) string {
	var names []string
	values := []string{}
	for _, e := range u.Env {
		values = append(values, e.Value)
	}
	for _, h := range u.Headers {
		values = append(values, h.Value)
	}
	if o := u.OAuth; o != nil {
		values = append(values, o.ClientID, o.ClientSecret)
	}
	for _, v := range values {
		n, _ := manifest.SecretNames(v)
		names = append(names, n...)
	}
	if len(names) == 0 && len(u.Headers) == 0 && u.OAuth == nil {
		return ""
	}
	slices.Sort(names)
	names = slices.Compact(names)
	h := sha256.New()
	field := func(s string) { _, _ = io.WriteString(h, strconv.Quote(s)+"\x00") }
	for _, hd := range u.Headers {
		field(hd.Name)
		field(hd.Value)
	}
	if o := u.OAuth; o != nil {
		field(o.TokenURL)
		field(o.ClientID)
		field(o.ClientSecret)
		for _, s := range o.Scopes {
			field(s)
		}
	}
	for _, n := range names {
		v, ok := lookupSecret(n)
		field(n)
		field(strconv.FormatBool(ok))
		field(v)
	}
	return hex.EncodeToString(h.Sum(nil))
}
