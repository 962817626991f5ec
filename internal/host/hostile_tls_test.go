package host

import (
	"crypto/tls"
	"crypto/x509"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
)

// TestTLSCostlyChainRefused: a chain past a bound is refused before any
// signature is checked, through gate.connect and gate.http alike, with an
// error that names the host and port and the bound, never what the peer
// wrote; the run is not stopped for its budget, and no verification goes
// on after the call returns (an HTTP transport handshakes in its own
// goroutine, which outlives a request that gave up).
func TestTLSCostlyChainRefused(t *testing.T) {
	ch := testnet.TLSChains(t)
	g := newGuest(t)
	for _, tt := range []struct {
		name  string
		cert  tls.Certificate
		bound string
	}{
		{"costly", ch.Costly, "the peer sent over 64 KiB before its handshake ended"},
		{"too long", ch.TooLong, "more than 4 certificates"},
		{"8192-bit key", ch.BigKey, "an RSA key over 4096 bits"},
		{"31-bit exponent", ch.BigExponent, "an RSA public exponent over 65537"},
		{"P-521", ch.P521, "an ECDSA key on P-521"},
	} {
		addr := testsvc.ServeTLSWith(t, tt.cert, testnet.AnswerNoContent)
		grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}, Insecure: []string{addr}}
		for _, via := range []string{"connect", "connect insecure", "http", "http insecure"} {
			t.Run(tt.name+"/"+via, func(t *testing.T) {
				// A budget the refusal fits in however loaded the machine
				// is (the race detector slows parsing 91 certificates);
				// TestCostlyTLSPeerSharesTheEngine runs it at 100 ms.
				c := budgetCall(t, grants, time.Second)
				c.Net = &Net{RootCAs: ch.Roots}
				defer c.End()
				flags := int32(0)
				if strings.HasSuffix(via, "insecure") {
					flags = FlagInsecure
				}
				var status int32
				if strings.HasPrefix(via, "connect") {
					status = g.connect(t, c, "tls:"+addr, flags, 0)
				} else {
					status = g.http(t, c, "GET https://"+addr+"/\n", flags, 0)
				}
				assert.False(t, testnet.Verifying(), "a signature check outlived the call")
				require.Nil(t, c.Interrupted(), "the run was stopped for its budget")
				assert.Equal(t, StatusTLS, status)
				msg, _ := c.LastError()
				assert.Contains(t, msg, "tls: "+addr+": certificate chain refused before verification: "+tt.bound)
				assert.NotContains(t, msg, testnet.HostileSubject)
			})
		}
	}
}

// TestTLSChainAtTheBounds: an honest chain at the bounds (four
// certificates, an RSA-2048 intermediate) verifies through gate.connect and
// gate.http, and fails as before against roots that do not hold its CA.
func TestTLSChainAtTheBounds(t *testing.T) {
	ch := testnet.TLSChains(t)
	g := newGuest(t)
	addr := testsvc.ServeTLSWith(t, ch.Honest, testnet.AnswerNoContent)
	grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}}

	c := testCall(t, grants)
	c.Net = &Net{RootCAs: ch.Roots}
	h := g.connect(t, c, "tls:"+addr, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	ok, _, _ := g.tlsFacts(t, c, h)
	assert.Equal(t, int32(1), ok)
	c.End()

	c = testCall(t, grants)
	c.Net = &Net{RootCAs: ch.Roots}
	h = g.http(t, c, "GET https://"+addr+"/\n", 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	assert.Equal(t, int32(204), g.v2(t, c, "http_status", uint32(h)))
	c.End()

	for _, via := range []string{"connect", "http"} {
		c = testCall(t, grants)
		c.Net = &Net{RootCAs: x509.NewCertPool()}
		var status int32
		if via == "connect" {
			status = g.connect(t, c, "tls:"+addr, 0, 0)
		} else {
			status = g.http(t, c, "GET https://"+addr+"/\n", 0, 0)
		}
		assert.Equal(t, StatusTLS, status, via)
		assert.Contains(t, g.lastError(t, c), "tls: failed to verify certificate: x509: certificate signed by unknown authority", via)
		c.End()
	}
}
