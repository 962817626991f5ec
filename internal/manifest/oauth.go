package manifest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// OAuth is an upstream's OAuth 2.1 client-credentials grant: gate asks
// TokenURL for an access token with the client's id and secret, and sends
// the token to the upstream's url as "Authorization: Bearer TOKEN".
type OAuth struct {
	// TokenURL is the authorization server's token endpoint: https, or
	// http on a loopback address (127.0.0.0/8, ::1, localhost); no
	// credentials, no fragment. gate discovers nothing: the token is asked
	// for here and nowhere else.
	TokenURL string `json:"token_url"`
	// ClientID is the client's id, 1 to 1024 bytes without controls; it
	// may hold ${secret:NAME} placeholders.
	ClientID string `json:"client_id"`
	// ClientSecret is the client's secret, as ${secret:NAME} placeholders
	// (at least one: a secret written in plain text would be in a file
	// logs and status quote); sent only to TokenURL.
	ClientSecret string `json:"client_secret"`
	// Scopes are the scopes asked for, in file order, each once; nil =
	// not written (none asked for).
	Scopes []string `json:"scopes,omitempty"`
}

// oauthKeys are the keys of an upstream's oauth table, in the order the
// documentation gives them.
var oauthKeys = []string{"token_url", "client_id", "client_secret", "scopes"}

// The bounds of the oauth keys.
const (
	maxTokenURL    = 2048
	maxClientField = 1024
	maxScopes      = 32
	maxScope       = 256
)

// oauth checks an upstream's oauth table.
func (c *checker) oauth(at place, v any) *OAuth {
	t, ok := c.table(at, v, `a table like { token_url = "https://auth.example/token", client_id = "gate", client_secret = "${secret:CLIENT_SECRET}" }`)
	if !ok {
		return nil
	}
	c.unknownKeys(at, t, oauthKeys)
	o := &OAuth{}
	good := true
	for _, k := range oauthKeys[:3] {
		if _, ok := t[k]; !ok {
			c.missing(at, k, "missing %s: the client-credentials grant needs token_url, client_id and client_secret", k)
			good = false
		}
	}
	// A key not written is reported missing above, and leaves good false.
	if s, p, ok := c.strField(at, t, "token_url", `a URL (a string) like "https://auth.example/token"`); !ok {
		good = false
	} else if err := checkTokenURL(s); err != nil {
		c.valueErr(p, "%v", err)
		good = false
	} else {
		o.TokenURL = s
	}
	for _, k := range []string{"client_id", "client_secret"} {
		s, p, ok := c.strField(at, t, k, "a string")
		if !ok {
			good = false
			continue
		}
		names, err := SecretNames(s)
		switch {
		case err != nil:
			c.valueErr(p, "%v", err)
		case s == "":
			c.valueErr(p, "empty %s", k)
		case len(s) > maxClientField:
			c.valueErr(p, "%s of %d bytes: want at most %d", k, len(s), maxClientField)
		case controlIn(s) >= 0:
			c.valueErr(p, "%s with a control character", k)
		case k == "client_secret" && len(names) == 0:
			c.valueErr(p, `client_secret written in plain text: write "${secret:NAME}" and set NAME in gate's environment, so that the secret is in no file`)
		default:
			if k == "client_id" {
				o.ClientID = s
			} else {
				o.ClientSecret = s
			}
			continue
		}
		good = false
	}
	if v, p, ok := c.field(at, t, "scopes"); ok {
		o.Scopes = c.scopes(p, v)
		good = good && o.Scopes != nil
	}
	if !good {
		return nil
	}
	return o
}

// checkTokenURL says what is wrong with a token endpoint's URL, without
// repeating it.
func checkTokenURL(s string) error {
	if len(s) > maxTokenURL {
		return errors.New("token_url too long: want at most 2048 bytes")
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return errors.New("bad token_url: " + err.Error())
	}
	switch scheme := strings.ToLower(u.Scheme); {
	case u.User != nil:
		return errors.New("token_url with credentials (user@): the client's id and secret go in client_id and client_secret")
	case u.Hostname() == "":
		return errors.New(`token_url without a host: want one like "https://auth.example/token"`)
	case strings.ContainsRune(s, '#'):
		return errors.New("token_url with a fragment (#...): leave it out")
	case strings.Contains(s, secretOpen):
		return errors.New("token_url with a ${secret:NAME}: secrets go in client_secret")
	case scheme == "https":
		return nil
	case scheme == "http" && loopbackHost(u.Hostname()):
		return nil
	case scheme == "http":
		return errors.New("token_url over plain http to a host that is not loopback: want https, since the client secret goes there")
	default:
		return errors.New("token_url scheme " + u.Scheme + ": want https (or http to a loopback address)")
	}
}

// loopbackHost reports whether host is localhost or a loopback IP.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// scopes checks the scopes asked for: RFC 6749 scope tokens, each once.
func (c *checker) scopes(at place, v any) []string {
	list, good := c.stringList(at, v, "scope", "scopes")
	if len(list) > maxScopes {
		c.valueErr(at, "%d scopes: want at most %d", len(list), maxScopes)
		return nil
	}
	return c.uniqueNames(at, list, good, "scope", func(s string) string {
		if !validScope(s) {
			return fmt.Sprintf("bad scope %q: want at most %d printable ASCII characters, without space, \" or \\ (an OAuth scope token)", clip(s), maxScope)
		}
		return ""
	})
}

// validScope reports whether s is a scope token (RFC 6749, section 3.3).
func validScope(s string) bool {
	if s == "" || len(s) > maxScope {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
