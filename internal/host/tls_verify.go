package host

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"math/big"
)

// Bounds on the certificate chain a probe's TLS peer may present. crypto/x509
// checks at most 100 signatures while it builds a chain, but does not bound
// what one check costs: a peer whose intermediates carry 8192-bit RSA keys
// with a 31-bit public exponent makes each check cost milliseconds, and the
// hundred of them most of a second of CPU, whatever the probe's budget. A
// chain past any of these bounds, or with an ECDSA key on P-521, is refused
// before any signature is checked (see checkChainCost).
const (
	// MaxTLSChain is how many certificates the peer may present, its own
	// and the intermediates: a server sends its certificate and one or two
	// intermediates, three with a cross-signed root.
	MaxTLSChain = 4
	// MaxTLSRSABits is the largest RSA modulus in a presented certificate.
	// No public CA issues larger; a check costs about four times as much
	// at each doubling.
	MaxTLSRSABits = 4096
	// MaxTLSRSAExponent is the largest RSA public exponent in a presented
	// certificate: 65537, the exponent every CA uses. A check costs one
	// modular squaring per bit of the exponent and one multiplication per
	// set bit, so no exponent up to 65537 costs more than twice what 65537
	// does; the 31-bit exponents crypto/rsa accepts cost four times as much.
	MaxTLSRSAExponent = 65537
)

// costlyChainError is a TLS handshake refused because the peer's chain is
// past the bounds above. It names the peer by the host and port the probe
// asked for and the bound by gate's words, never by anything the peer
// wrote in its certificates.
type costlyChainError struct {
	addr string
	why  string
}

func (e *costlyChainError) Error() string {
	return "tls: " + e.addr + ": certificate chain refused before verification: " + e.why
}

// checkChainCost refuses a chain that could cost more than the bounds allow
// to verify. It reads only sizes and key types, so it costs nothing next to
// one signature check.
func checkChainCost(certs []*x509.Certificate, addr string) error {
	if len(certs) > MaxTLSChain {
		return &costlyChainError{addr, "more than 4 certificates presented"}
	}
	maxE := big.NewInt(MaxTLSRSAExponent)
	for _, cert := range certs {
		switch key := cert.PublicKey.(type) {
		case *rsa.PublicKey:
			if key.N.BitLen() > MaxTLSRSABits {
				return &costlyChainError{addr, "an RSA key over 4096 bits"}
			}
			if big.NewInt(int64(key.E)).Cmp(maxE) > 0 {
				return &costlyChainError{addr, "an RSA public exponent over 65537"}
			}
		case *ecdsa.PublicKey:
			// A check on P-521 costs several times what one with a
			// 4096-bit RSA key does, and the web's CAs do not use it
			// (Mozilla's root policy allows P-256 and P-384). P-224,
			// P-256, P-384 and Ed25519 cost less than RSA-4096.
			if key.Curve == elliptic.P521() {
				return &costlyChainError{addr, "an ECDSA key on P-521"}
			}
		}
	}
	return nil
}

// tlsPeer names a probe's TLS peer: name is what its certificate must be
// valid for (the server name crypto/tls would verify), addr the host and
// port that errors name. A func, because an HTTP redirect changes both
// between handshakes of one request.
type tlsPeer func() (name, addr string)

// tlsConfig is the client config of a probe's TLS connection: "tls:"
// streams and https requests. crypto/tls's own verification is switched
// off and done here instead, with the same roots (Net.RootCAs, or the
// system's), intermediates and server name, so that an honest chain gets
// the same answer and the same error; but first the chain is held to the
// bounds of checkChainCost, and nothing is verified once ctx (the run's
// wait) has ended: an HTTP transport goes on with a handshake in its own
// goroutine after the request that wanted it has given up. With insecure
// (which the grants allowed) the chain is not verified, but still bounded:
// gate.tls verifies it by hand later (tlsFactsOf). SNI is the name when it
// is one (crypto/tls sends none for an IP address, and the IP is verified
// against the certificate instead). serverName is the config's: empty for
// an HTTP transport, which sets it per handshake to the name peer gives.
func (c *Call) tlsConfig(ctx context.Context, serverName string, peer tlsPeer, insecure bool) *tls.Config {
	roots := c.Net.rootCAs()
	return &tls.Config{
		ServerName:         serverName,
		InsecureSkipVerify: true,
		MinVersion:         tls.VersionTLS12,
		VerifyConnection: func(cs tls.ConnectionState) error {
			name, addr := peer()
			if err := checkChainCost(cs.PeerCertificates, addr); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if insecure {
				return nil
			}
			if err := verifyPeer(cs, name, roots); err != nil {
				return &tls.CertificateVerificationError{UnverifiedCertificates: cs.PeerCertificates, Err: err}
			}
			return nil
		},
	}
}
