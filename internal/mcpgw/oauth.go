package mcpgw

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// The bounds of a token request: its answer is a small JSON object, and
// it may take as long as connecting to an upstream may (Config's connect
// timeout).
const (
	maxTokenBody = 64 << 10
	// tokenEarly renews a token this long before it expires, so that a
	// request does not carry one that expires on the way; a token that
	// lives less than twice as long is renewed halfway through its life
	// (see renewAt), never before every request.
	tokenEarly = 10 * time.Second
)

// tokenReuse is the least a token is used for before another is asked
// for, however short a life the authorization server gives it: one that
// is refused meanwhile is renewed then (token's stale).
const tokenReuse = time.Second

// renewAt is when a token got at got that expires at expiry is renewed:
// tokenEarly before it expires, or halfway through a life shorter than
// twice that, and never within tokenReuse of got. The zero expiry (none
// given) is never.
func renewAt(got, expiry time.Time) time.Time {
	if expiry.IsZero() {
		return time.Time{}
	}
	at := expiry.Add(-min(tokenEarly, expiry.Sub(got)/2))
	if floor := got.Add(tokenReuse); at.Before(floor) {
		return floor
	}
	return at
}

// tokenSource gets an upstream's access tokens with OAuth 2.1's
// client-credentials grant (golang.org/x/oauth2/clientcredentials), from
// the token_url the manifest names and nowhere else: no discovery, no
// redirect. The client's secret goes in the Authorization header of the
// token request (HTTP Basic, which RFC 6749 has every authorization
// server support), and nowhere else.
type tokenSource struct {
	conf     clientcredentials.Config
	client   *http.Client
	tokenURL string
	timeout  time.Duration
	secrets  *redactor

	// mu is held while a token is asked for: one request at a time, and
	// those that wait get its token.
	mu      sync.Mutex
	current string
	renew   time.Time // when current is renewed (see renewAt); zero: never
}

func newTokenSource(o *manifest.OAuth, clientID, clientSecret, resource string, cfg *Config, secrets *redactor) *tokenSource {
	if clientSecret != "" {
		secrets.add(basicCredentials(clientID, clientSecret), "[oauth client credentials]")
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	// A token is asked for once per session or expiry: a pool would only
	// keep connections open to the authorization server for nothing.
	base.DisableKeepAlives = true
	return &tokenSource{
		conf: clientcredentials.Config{
			ClientID: clientID, ClientSecret: clientSecret, TokenURL: o.TokenURL, Scopes: o.Scopes,
			// RFC 8707, as MCP's authorization asks of a client: the token
			// is for this server.
			EndpointParams: url.Values{"resource": {resource}},
			AuthStyle:      oauth2.AuthStyleInHeader,
		},
		client: &http.Client{
			Transport:     cappedTransport{base: base, max: maxTokenBody},
			CheckRedirect: refuseTokenRedirect(secrets),
			Timeout:       cfg.connectTimeout,
		},
		tokenURL: o.TokenURL, timeout: cfg.connectTimeout, secrets: secrets,
	}
}

// token returns a token that is not stale ("" for none), asking for a new
// one when there is none, it is due to be renewed (see renewAt), or it is
// stale.
func (s *tokenSource) token(ctx context.Context, stale string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current != "" && s.current != stale && (s.renew.IsZero() || time.Now().Before(s.renew)) {
		return s.current, nil
	}
	got := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t, err := s.conf.Token(context.WithValue(ctx, oauth2.HTTPClient, s.client))
	if err != nil {
		return "", s.failure(ctx, err)
	}
	s.secrets.addToken(t.AccessToken)
	switch {
	case t.Type() != "Bearer":
		return "", fmt.Errorf("oauth: token request to %s: the token is of type %s; gate sends only Bearer tokens", s.tokenURL, strconv.Quote(s.secrets.short(t.Type())))
	case strings.ContainsFunc(t.AccessToken, func(r rune) bool { return r <= 0x20 || r >= 0x7f }):
		return "", fmt.Errorf("oauth: token request to %s: the access token holds characters a header cannot carry", s.tokenURL)
	}
	s.current, s.renew = t.AccessToken, renewAt(got, t.Expiry)
	return s.current, nil
}

// failure says why a token request failed: the authorization server's
// status and error code, never its body or the request. A refusal of the
// client (400, 401, 403, or an error code) is a rejection of the
// upstream's credentials.
func (s *tokenSource) failure(ctx context.Context, err error) error {
	prefix := "oauth: token request to " + s.tokenURL + " failed: "
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re) && re.Response != nil:
		msg := "HTTP " + re.Response.Status
		if re.ErrorCode != "" {
			msg += ": " + strconv.Quote(s.secrets.short(re.ErrorCode))
			if re.ErrorDescription != "" {
				msg += " (" + s.secrets.short(re.ErrorDescription) + ")"
			}
		}
		switch re.Response.StatusCode {
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusOK:
			return &rejectedError{msg: prefix + msg + "; credentials rejected: " + longestBackoff}
		}
		return errors.New(prefix + msg)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%sno answer within %v", prefix, s.timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the method and URL, said already
	}
	return errors.New(prefix + s.secrets.short(err.Error()))
}

// refuseTokenRedirect follows no redirect of the token endpoint: the
// client's secret goes to token_url only.
func refuseTokenRedirect(secrets *redactor) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, _ []*http.Request) error {
		status := "a redirect"
		if req.Response != nil {
			status = "HTTP " + req.Response.Status
		}
		return fmt.Errorf("it answered %s with Location %s; gate follows no redirects, so that the client secret goes only to token_url", status, strconv.Quote(secrets.short(req.URL.String())))
	}
}

// cappedTransport fails a response whose body is over max bytes.
type cappedTransport struct {
	base http.RoundTripper
	max  int64
}

func (t cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: t.max}
	return resp, nil
}

type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, fmt.Errorf("its answer is over %d bytes", maxTokenBody)
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
