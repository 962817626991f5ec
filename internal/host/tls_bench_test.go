package host

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// BenchmarkTLSVerify measures what verifying a peer's chain costs within
// the bounds: one signature check on the costliest keys the bounds let
// through (RSA-4096 with exponent 65537), and on P-521, which they do not
// let through for what it costs; and the verification
// of the chain at the bounds (whose three checks all fail, as a hostile
// peer's would). crypto/x509 stops after 100 checks, so 100 times the
// costliest check bounds any verification.
func BenchmarkTLSVerify(b *testing.B) {
	ch := testnet.TLSChains(b)
	parse := func(c tls.Certificate) []*x509.Certificate {
		var out []*x509.Certificate
		for _, der := range c.Certificate {
			cert, err := x509.ParseCertificate(der)
			require.NoError(b, err)
			out = append(out, cert)
		}
		return out
	}
	bounds := parse(ch.AtTheBounds)
	require.NoError(b, checkChainCost(bounds, "127.0.0.1:443"))
	b.Run("check RSA-4096 e=65537", func(b *testing.B) {
		for b.Loop() {
			require.Error(b, bounds[0].CheckSignatureFrom(bounds[1]))
		}
	})
	b.Run("check P-521", func(b *testing.B) {
		p521 := parse(ch.P521)
		for b.Loop() {
			require.NoError(b, p521[0].CheckSignatureFrom(p521[1]))
		}
	})
	b.Run("chain at the bounds", func(b *testing.B) {
		cs := tls.ConnectionState{PeerCertificates: bounds}
		for b.Loop() {
			require.Error(b, verifyPeer(cs, "127.0.0.1", ch.Roots))
		}
	})
	b.Run("costly chain, refused", func(b *testing.B) {
		costly := parse(ch.Costly)
		for b.Loop() {
			require.Error(b, checkChainCost(costly, "127.0.0.1:443"))
		}
	})
}
