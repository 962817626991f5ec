package host

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/grants"
)

// everywhere binds each of names to every address a test reaches, by
// stream or HTTP: for tests of substitution and redaction themselves,
// where the binding is not the point.
func everywhere(names ...string) map[string][]string {
	m := make(map[string][]string, len(names))
	for _, n := range names {
		m[n] = []string{"*:*", "http://*:*", "https://*:*"}
	}
	return m
}

// boundTo binds the secret name to dests.
func boundTo(name string, dests ...string) map[string][]string {
	return map[string][]string{name: dests}
}

// testDest is where substitution tests send.
var testDest = grants.StreamDestination(mustDialAddr("127.0.0.1:1"), false)

func mustDialAddr(s string) DialAddr {
	a, err := grants.ParseDialAddr(s)
	if err != nil {
		panic(err)
	}
	return a
}

// subst is substitute for testDest, without escaping.
func subst(c *Call, b []byte) ([]byte, int32, string) {
	out, _, status, why := c.substitute(b, testDest, nil)
	return out, status, why
}

// redactAll redacts b of every granted secret, as the run's own texts are.
func redactAll(c *Call, b []byte) []byte { return c.redactorOf(c.allSecrets()).redact(b) }

// allSecrets is the set of every secret the run is granted, for tests that
// redact with all of them whatever the run sent.
func (c *Call) allSecrets() SecretSet {
	if !c.Policy.HasSecrets() {
		return 0
	}
	return SecretSet(1)<<len(c.Policy.Secrets()) - 1
}

// markSent records set as sent, to no address in particular, for tests of
// redaction that send nothing.
func (c *Call) markSent(set SecretSet) { c.markSentTo("", set) }

// assertWithheld asserts that a call whose answer would have held the
// value of secret name, come back from from, answered got = -2, that the
// host's words name the secret and from, and that the secret is spent.
func assertWithheld(t testing.TB, g *guest, c *Call, got int32, name, from string) {
	t.Helper()
	assert.Equal(t, StatusDenied, got, "withheld whole")
	assert.Contains(t, g.lastError(t, c), fmt.Sprintf("secret %q came back from %s", name, from))
	assert.True(t, c.Policy.Spent().Has(c.Policy.SecretIndex(name)), "spent")
}

// answered reports whether h is a response the probe may read: false when
// the call was withheld whole (asserted as assertWithheld does) because
// what from sent back held the value of name.
func answered(t testing.TB, g *guest, c *Call, h int32, name, from string) bool {
	t.Helper()
	if h == StatusDenied {
		assertWithheld(t, g, c, h, name, from)
		return false
	}
	require.Positive(t, h, g.lastError(t, c))
	return true
}
