package host

import (
	"bytes"
	"fmt"
)

// Secrets (ABI v2) are variables a probe may send but never see. The probe
// writes ${secret:NAME} where a value belongs, in gate.send's bytes or
// gate.http's request; the host substitutes the value on the way out, if
// the secret is bound to where the bytes go (grants_secrets.go), and
// replaces the value with the same placeholder in what that destination
// sends back once the run has sent it: received bytes, response headers
// and bodies, the host's error texts about them. The run's reason, logs,
// notes and output are redacted of every granted secret. docs/ABI.md
// ("Secrets") states what this does and does not promise.
//
// NAME is [A-Za-z_][A-Za-z0-9_]*. Anything else that starts with "${",
// such as "${secret:}" or "${HOME}", is not a placeholder and is sent as
// written.

// placeholderOpen starts every placeholder.
const placeholderOpen = "${secret:"

// maxPattern is the longest form of a value the redactor looks for: a
// value of MaxSecret bytes query- or path-escaped, each byte as "%XX". A
// cut of raw bytes is safe only this far behind their end (see
// redactStream); it is a constant, so where the host cuts tells nothing
// about a value's length.
const maxPattern = 3 * MaxSecret

// secretCache holds what one run knows of its secrets: the values read,
// which it has sent, and the redactors built. It is reset with the Call,
// so no value outlives its run. The zero value is empty.
type secretCache struct {
	read []secretValue
	// sent is the set of secrets the run has put into a stream or request.
	sent SecretSet
	// sentTo is, by address (host:port, or unix:path), the secrets the
	// run has sent there: a redirect from one goes only where they are
	// all bound (checkRedirect).
	sentTo map[string]SecretSet
	// echoed is set once a destination handed a sent value back: the run
	// is cut off (echo.go).
	echoed *errEchoed
	// redactors are built on first use, one per set of secrets;
	// textRedactors likewise, for the host's texts (redactText).
	redactors, textRedactors []scopedRedactor
}

type secretValue struct {
	name, value string
	set         bool
}

type scopedRedactor struct {
	set SecretSet
	r   *redactor // nil: none of the set has a value
}

func (c *Call) secretState() *secretCache {
	if c.secrets == nil {
		// Made on first use: a Call is per run, and most runs have no
		// secret, so its size is every fresh run's.
		c.secrets = new(secretCache)
	}
	return c.secrets
}

// secret returns the value of the secret name, reading it from the
// environment the first time in a run.
func (c *Call) secret(name string) (string, bool) {
	s := c.secretState()
	for _, v := range s.read {
		if v.name == name {
			return v.value, v.set
		}
	}
	v, set := c.lookupEnv(name)
	s.read = append(s.read, secretValue{name: name, value: v, set: set})
	return v, set
}

// placeholderCost is what the bytes-out bound charges for b: its length,
// and for each placeholder the most its value can put on the wire
// (MaxSecret; perByte times that where values are escaped), so that the
// bound holds on the wire and no count depends on a value's length.
func placeholderCost(b []byte, perByte int) int {
	n := len(b)
	for at := 0; ; {
		start, end, _ := nextPlaceholder(b, at)
		if start < 0 {
			return n
		}
		n += perByte * MaxSecret
		at = end
	}
}

// substitute returns b with every ${secret:NAME} placeholder replaced by
// its value, escaped by escape (url.QueryEscape for a URL's query; nil
// means none), for sending to d, and the set of secrets it put in.
//
// A placeholder naming a secret that is not granted, or one not bound to
// d, answers StatusDenied (and records a denial of kind "secret"); one
// whose variable is not set, is empty or is longer than MaxSecret answers
// StatusNotFound. Every placeholder's grant is checked before any variable
// is read. why is the host's text for a failure, for gate.last_error; it
// never depends on a value beyond the status (empty and too long read the
// same). b itself is never changed: out is b when it holds no placeholder
// and a new slice otherwise.
func (c *Call) substitute(b []byte, d Destination, escape func(string) string) (out []byte, used SecretSet, status int32, why string) {
	if !bytes.Contains(b, []byte(placeholderOpen)) {
		return b, 0, StatusOK, ""
	}
	status = StatusOK
	for at := 0; ; {
		start, end, name := nextPlaceholder(b, at)
		if start < 0 {
			break
		}
		at = end
		den := Denial{Kind: "secret", Request: name, Probe: c.Probe}
		text := ""
		switch i := c.Policy.SecretIndex(name); {
		case i < 0:
		case !c.Policy.SecretBound(i, d):
			den.To = d.String()
		case c.Policy.Spent().Has(i):
			// A destination handed its value back (echo.go).
			den.Kind, den.To = "spent", d.String()
			text = fmt.Sprintf("secret %q is spent: a destination handed its value back, and the probe may send it again once it is loaded again", name)
		default:
			continue
		}
		c.record(den)
		if status == StatusOK {
			status, why = StatusDenied, den.String()
			if text != "" {
				why = text
			}
		}
	}
	if status != StatusOK {
		return nil, 0, status, why
	}
	last := 0
	for at := 0; ; {
		start, end, name := nextPlaceholder(b, at)
		if start < 0 {
			break
		}
		v, set := c.secret(name)
		switch {
		case !set:
			c.observe(FailEnvMissing)
			return nil, 0, StatusNotFound, fmt.Sprintf("secret %q is not set", name)
		case v == "" || len(v) > MaxSecret:
			c.observe(FailEnvMissing)
			return nil, 0, StatusNotFound, fmt.Sprintf("secret %q is empty or longer than %d bytes", name, MaxSecret)
		}
		if escape != nil {
			v = escape(v)
		}
		if out == nil {
			out = make([]byte, 0, len(b)+len(v))
		}
		out = append(append(out, b[last:start]...), v...)
		used |= 1 << c.Policy.SecretIndex(name)
		last, at = end, end
	}
	if out == nil {
		return b, 0, StatusOK, "" // "${secret:" but no placeholder
	}
	return append(out, b[last:]...), used, StatusOK, ""
}

// markSentTo records that the secrets of set are on their way to addr
// (host:port, or unix:path): from now on what their destinations send
// back is read for them, and a redirect from addr goes only where they are
// bound.
func (c *Call) markSentTo(addr string, set SecretSet) {
	if set == 0 {
		return
	}
	s := c.secretState()
	s.sent |= set
	if s.sentTo == nil {
		s.sentTo = map[string]SecretSet{}
	}
	s.sentTo[addr] |= set
}

// sentToAddr is the set of secrets the run has sent to addr.
func (c *Call) sentToAddr(addr string) SecretSet {
	if c.secrets == nil {
		return 0
	}
	return c.secrets.sentTo[addr]
}

// scopeOf is the set of secrets to redact from what d sends back: those
// the run has sent that are bound to d. A run that has sent no secret
// redacts nothing, so a probe cannot send candidate strings to an echo
// peer and watch for a placeholder; and a peer a secret is not bound to
// never had it from this run.
func (c *Call) scopeOf(d Destination) SecretSet {
	if c.secrets == nil || c.secrets.sent == 0 {
		return 0
	}
	return c.secrets.sent & c.Policy.BoundTo(d)
}

// nextPlaceholder finds the first placeholder in b at or after from and
// returns where it starts and ends and the name it holds; start is -1
// when there is none.
func nextPlaceholder(b []byte, from int) (start, end int, name string) {
	for from < len(b) {
		i := bytes.Index(b[from:], []byte(placeholderOpen))
		if i < 0 {
			break
		}
		start = from + i
		n := start + len(placeholderOpen)
		j := n
		for j < len(b) && (b[j] == '_' || 'A' <= b[j] && b[j] <= 'Z' || 'a' <= b[j] && b[j] <= 'z' || j > n && '0' <= b[j] && b[j] <= '9') {
			j++
		}
		if j > n && j < len(b) && b[j] == '}' {
			return start, j + 1, string(b[n:j])
		}
		from = start + 1
	}
	return -1, -1, ""
}

// redactorOf returns the redactor of the secrets in set that are set, or
// nil when there is nothing to redact; it is built once per run and set.
func (c *Call) redactorOf(set SecretSet) *redactor {
	if set == 0 {
		return nil
	}
	return c.buildRedactor(set, &c.secretState().redactors, false)
}

// textRedactorOf is redactorOf for the host's own texts: each value is
// looked for also as Go quotes it in a string (%q), as net/http's errors
// quote a line they could not parse. It is not for what a peer sends:
// that form may be four times the value's length, past the margin that
// keeps a cut safe (maxPattern).
func (c *Call) textRedactorOf(set SecretSet) *redactor {
	if set == 0 {
		return nil
	}
	return c.buildRedactor(set, &c.secretState().textRedactors, true)
}

// buildRedactor returns the redactor of set from cache, building it there
// on first use.
func (c *Call) buildRedactor(set SecretSet, cache *[]scopedRedactor, quoted bool) *redactor {
	for _, r := range *cache {
		if r.set == set {
			return r.r
		}
	}
	var r redactor
	for _, name := range c.Policy.SecretNames(set) {
		if v, ok := c.secret(name); ok && v != "" {
			r.add(name, v)
			if quoted {
				r.addQuoted(name, v)
			}
		}
	}
	r.seal()
	sr := scopedRedactor{set: set}
	if len(r.groups) > 0 {
		sr.r = &r
	}
	*cache = append(*cache, sr)
	return sr.r
}

// sentSecrets is the set of the secrets the run has sent anywhere.
func (c *Call) sentSecrets() SecretSet {
	if c.secrets == nil {
		return 0
	}
	return c.secrets.sent
}

// Redact returns s, a text the run leaves (its output; RedactRun does the
// rest), as it may leave the run: "" once the run was cut off (echo.go),
// and "" too, the run then cut off, when s holds the value of a secret the
// run sent, in the forms a peer's bytes are read for or the form Go's %q
// gives it. The value is withheld whole, never replaced in place: where a
// placeholder stood would tell whoever reads the text which of the
// probe's guesses was the value.
//
// Only what was sent: a probe never reads a value, so one in its text is
// a guess. Looking for a secret the run never sent would protect nothing
// and would make the text an oracle anyway.
func (c *Call) Redact(s string) string {
	if c.secrets != nil && c.secrets.echoed != nil {
		return ""
	}
	r := c.textRedactorOf(c.sentSecrets())
	if r == nil {
		return s
	}
	if name := r.firstHit([]byte(s)); name != "" {
		// Withheld whole, not redacted in place: where a placeholder
		// stood would tell whoever reads it which guess was the value.
		c.withhold(name, "the run's own text")
		return ""
	}
	return s
}

// peerText returns the name of a secret of set whose value s, a host text
// that may quote what a peer sent, holds (as the peer's bytes are read for
// it, or as net/http's errors quote it), or "".
func (c *Call) peerText(set SecretSet, s string) string {
	return c.textRedactorOf(set).firstHit([]byte(s))
}
