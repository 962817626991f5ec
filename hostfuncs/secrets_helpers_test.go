package hostfuncs

import "net/netip"

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
var testDest = streamDestination(dialAddr{ip: netip.MustParseAddr("127.0.0.1"), port: 1}, false)

// subst is substitute for testDest, without escaping.
func subst(c *Call, b []byte) ([]byte, int32, string) {
	out, _, status, why := c.substitute(b, testDest, nil)
	return out, status, why
}

// redactAll redacts b of every granted secret, as the run's own texts are.
func redactAll(c *Call, b []byte) []byte { return c.redactorOf(c.allSecrets()).redact(b) }

// allSecrets is the set of every secret the run is granted, for tests that
// redact with all of them whatever the run sent.
func (c *Call) allSecrets() secretSet {
	if !c.Policy.hasSecrets() {
		return 0
	}
	return secretSet(1)<<len(c.Policy.v2.secrets) - 1
}
