package host

import (
	"fmt"
	"net"
	"strconv"
)

// What a run that has sent a value may learn from what comes back.
//
// A destination a secret is bound to is trusted with it. One that echoes
// (Redis AUTH then ECHO, a service that quotes the header it rejects)
// would make redaction itself an oracle: a probe that sends every
// candidate at once and reads where the placeholder comes back has the
// value. So nothing that would have to be redacted reaches the probe
// altered in place: a read (stream bytes, a response's head or body, the
// host's words about a peer's failure) that holds the value of a secret
// the run sent there is withheld whole, the call fails with a denial that
// names the secret and the destination only, the secret is spent for the
// probe (Policy.Spend: not sent again, in this run or a later one, until
// the probe is loaded again), and the rest of the run is cut off from the
// network and from every text it would leave (reason, logs, notes,
// output), which are replaced by the host's sentence. A probe learns one
// bit per load: that some read held the value, never which or where.
// docs/ABI.md ("Secrets") states this and its limits.

// echoHit is the failure of a read that held the value of secret name.
type echoHit struct{ name string }

func (e *echoHit) Error() string { return "secret " + strconv.Quote(e.name) + " came back" }

// errEchoed is the run's answer once a destination handed a secret's value
// back: every later network call fails with it.
type errEchoed struct{ secret, from string }

func (e *errEchoed) Error() string {
	return fmt.Sprintf("secret %q came back from %s: what came is withheld whole, the run may use the network no more, and the probe may not send the secret again until it is loaded again", e.secret, e.from)
}

// withhold records that what from sent held the value of secret name:
// the secret is spent for the probe, the run is cut off, and the denial
// names the secret and from. It returns the failure's status.
func (c *Call) withhold(name, from string) int32 {
	s := c.secretState()
	if i := c.Policy.SecretIndex(name); i >= 0 {
		c.Policy.Spend(1 << i)
	}
	if s.echoed == nil {
		s.echoed = &errEchoed{secret: name, from: from}
	}
	c.record(Denial{Kind: "echo", Request: name, To: from, Probe: c.Probe})
	return c.fail(StatusDenied, s.echoed.Error())
}

// cutOff returns the failure of a network call made after a destination
// handed a value back, and whether there is one.
func (c *Call) cutOff(what string) (int32, bool) {
	if c.secrets == nil || c.secrets.echoed == nil {
		return 0, false
	}
	return c.fail(StatusDenied, what+": "+c.secrets.echoed.Error()), true
}

// firstHit returns the name of the first secret r finds in b, or "".
func (r *redactor) firstHit(b []byte) string {
	if r == nil {
		return ""
	}
	hits, _ := r.scan(b)
	if len(hits) == 0 {
		return ""
	}
	ph := hits[0].placeholder
	return ph[len(placeholderOpen) : len(ph)-1]
}

// httpOrigin is t as a denial names it: scheme, host and port, or the
// socket; never a path or query.
func httpOrigin(t HTTPTarget) string {
	if t.Unix != "" {
		return "unix:" + t.Unix
	}
	return t.Scheme + "://" + net.JoinHostPort(t.Host, strconv.Itoa(int(t.Port)))
}

// withholdRun replaces what a run that was cut off would leave (its
// reason, logs, notes and denials other than the host's) with the host's
// sentence, and returns whether it did. A run that wrote the value of a
// secret it sent into one of them (a guess: it never read one) is cut off
// here, so that whoever reads them learns no more than that.
func (c *Call) withholdRun() bool {
	s := c.secrets
	if s == nil {
		return false
	}
	if s.echoed == nil && s.sent != 0 {
		r := c.textRedactorOf(s.sent)
		texts := []string{c.reason}
		for _, l := range c.logs {
			texts = append(texts, l.Message)
		}
		texts = append(texts, c.notes...)
		for _, d := range c.denials {
			texts = append(texts, d.Request, d.To)
		}
		for _, t := range texts {
			if name := r.firstHit([]byte(t)); name != "" {
				c.denials = nil
				c.withhold(name, "the run's own text")
				break
			}
		}
	}
	if s.echoed == nil {
		return false
	}
	msg := s.echoed.Error()
	c.reason, c.reasonSet = msg, true
	c.logs, c.logsDropped = nil, 0
	c.notes = []string{msg}
	kept := c.denials[:0]
	for _, d := range c.denials {
		if d.Kind == "echo" && d.Request == s.echoed.secret && d.To == s.echoed.from {
			kept = append(kept, d)
		}
	}
	c.denials = kept
	return true
}
