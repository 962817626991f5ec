package host

import (
	"bufio"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"net"
	"net/http"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileSubject is the name the hostile intermediates carry: text the
// peer wrote, which no error may quote.
const hostileSubject = "PEER-WROTE-THIS-SUBJECT"

// chains are the certificate chains the TLS peers of these tests present,
// made once per test binary: an RSA key to sign with takes a while to make.
type chains struct {
	roots *x509.CertPool
	// honest is a leaf for 127.0.0.1 under three ECDSA and RSA-2048
	// intermediates: four certificates, at MaxTLSChain.
	honest tls.Certificate
	// costly is a leaf under 90 intermediates whose 8192-bit RSA keys have
	// a 31-bit exponent, each of which the leaf's signature claims to be
	// from: crypto/x509 checks it against every one.
	costly tls.Certificate
	// tooLong, bigKey and bigExponent are each past one bound only.
	tooLong, bigKey, bigExponent tls.Certificate
	// atTheBounds is the costliest chain of this shape within the bounds:
	// a leaf under three intermediates with 4096-bit keys of exponent
	// 65537, each a candidate for the leaf's issuer.
	atTheBounds tls.Certificate
	// p521 is a leaf under an intermediate with a P-521 key: the costliest
	// curve to check a signature on, refused as an 8192-bit key is.
	p521 tls.Certificate
}

var (
	chainsOnce sync.Once
	theChains  *chains
	chainsErr  error
)

func testChains(t testing.TB) *chains {
	t.Helper()
	chainsOnce.Do(func() { theChains, chainsErr = makeChains() })
	require.NoError(t, chainsErr)
	return theChains
}

func makeChains() (*chains, error) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	ecKey := func() *ecdsa.PrivateKey {
		k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		return k
	}
	serial := int64(0)
	template := func(cn string, ca bool) *x509.Certificate {
		serial++
		tpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial),
			Subject:      pkix.Name{CommonName: cn},
			NotBefore:    time.Now().Add(-time.Hour),
			NotAfter:     time.Now().Add(24 * time.Hour),
		}
		if ca {
			tpl.IsCA, tpl.BasicConstraintsValid = true, true
			tpl.KeyUsage = x509.KeyUsageCertSign
		} else {
			tpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
			tpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			tpl.KeyUsage = x509.KeyUsageDigitalSignature
		}
		return tpl
	}
	issue := func(tpl, parent *x509.Certificate, pub crypto.PublicKey, signer crypto.Signer) ([]byte, *x509.Certificate, error) {
		der, err := x509.CreateCertificate(rand.Reader, tpl, parent, pub, signer)
		if err != nil {
			return nil, nil, err
		}
		cert, err := x509.ParseCertificate(der)
		return der, cert, err
	}
	ch := &chains{roots: x509.NewCertPool()}

	// The honest chain: root -> a (RSA-2048) -> b -> c -> leaf.
	rootKey := ecKey()
	_, root, err := issue(template("root", true), template("root", true), rootKey.Public(), rootKey)
	if err != nil {
		return nil, err
	}
	ch.roots.AddCert(root)
	leafKey := ecKey()
	bKey, cKey := ecKey(), ecKey()
	aDER, a, err := issue(template("a", true), root, rsaKey.Public(), rootKey)
	if err != nil {
		return nil, err
	}
	bDER, b, err := issue(template("b", true), a, bKey.Public(), rsaKey)
	if err != nil {
		return nil, err
	}
	cDER, c, err := issue(template("c", true), b, cKey.Public(), bKey)
	if err != nil {
		return nil, err
	}
	leafDER, _, err := issue(template("leaf", false), c, leafKey.Public(), cKey)
	if err != nil {
		return nil, err
	}
	ch.honest = tls.Certificate{Certificate: [][]byte{leafDER, cDER, bDER, aDER}, PrivateKey: leafKey}
	tooLongDER, _, err := issue(template("leaf", false), c, leafKey.Public(), cKey)
	if err != nil {
		return nil, err
	}
	ch.tooLong = tls.Certificate{Certificate: [][]byte{tooLongDER, cDER, bDER, aDER, aDER}, PrivateKey: leafKey}

	// The hostile intermediates: keys nobody holds (a random odd modulus),
	// signed with rsaKey, since nothing checks their own signatures.
	hostile := &x509.Certificate{Subject: pkix.Name{CommonName: hostileSubject}}
	intermediate := func(bits, e int) ([]byte, error) {
		n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), uint(bits)))
		if err != nil {
			return nil, err
		}
		n.SetBit(n, bits-1, 1).SetBit(n, 0, 1)
		tpl := template(hostileSubject, true)
		der, _, err := issue(tpl, hostile, &rsa.PublicKey{N: n, E: e}, rsaKey)
		return der, err
	}
	// The leaf's signature is garbage of the hostile keys' size, below
	// any modulus of that size, so that each check runs in full.
	hostileLeaf := func(bits int) ([]byte, error) {
		tpl := template("leaf", false)
		tpl.SignatureAlgorithm = x509.SHA256WithRSA
		der, _, err := issue(tpl, hostile, leafKey.Public(), rsaKey)
		if err != nil {
			return nil, err
		}
		sig := make([]byte, bits/8)
		rand.Read(sig)
		sig[0] = 1
		return resign(der, sig)
	}
	chain := func(bits, e, n int) (tls.Certificate, error) {
		leaf, err := hostileLeaf(bits)
		if err != nil {
			return tls.Certificate{}, err
		}
		out := tls.Certificate{Certificate: [][]byte{leaf}, PrivateKey: leafKey}
		for range n {
			der, err := intermediate(bits, e)
			if err != nil {
				return tls.Certificate{}, err
			}
			out.Certificate = append(out.Certificate, der)
		}
		return out, nil
	}
	if ch.costly, err = chain(8192, 1<<31-1, 90); err != nil {
		return nil, err
	}
	if ch.bigKey, err = chain(8192, 65537, 1); err != nil {
		return nil, err
	}
	if ch.bigExponent, err = chain(2048, 1<<31-1, 1); err != nil {
		return nil, err
	}
	if ch.atTheBounds, err = chain(4096, 65537, 3); err != nil {
		return nil, err
	}
	p521Key, err := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	if err != nil {
		return nil, err
	}
	p521DER, p521, err := issue(template("p521", true), template("p521", true), p521Key.Public(), p521Key)
	if err != nil {
		return nil, err
	}
	p521Leaf, _, err := issue(template("leaf", false), p521, leafKey.Public(), p521Key)
	if err != nil {
		return nil, err
	}
	ch.p521 = tls.Certificate{Certificate: [][]byte{p521Leaf, p521DER}, PrivateKey: leafKey}
	return ch, nil
}

// resign replaces the signature of the certificate der with sig.
func resign(der, sig []byte) ([]byte, error) {
	var cert struct {
		TBS       asn1.RawValue
		Algorithm pkix.AlgorithmIdentifier
		Signature asn1.BitString
	}
	if _, err := asn1.Unmarshal(der, &cert); err != nil {
		return nil, err
	}
	cert.Signature = asn1.BitString{Bytes: sig, BitLength: 8 * len(sig)}
	return asn1.Marshal(cert)
}

// tlsPeerWith serves TLS with cert on loopback; an HTTP request gets 204.
func tlsPeerWith(t testing.TB, cert tls.Certificate) string {
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}}
	l := serve(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		tc := tls.Server(c, cfg)
		if tc.Handshake() != nil {
			return
		}
		if _, err := http.ReadRequest(bufio.NewReader(tc)); err == nil {
			tc.Write([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
		}
	})
	return l.Addr().String()
}

// verifying reports whether any goroutine is checking a signature for
// crypto/x509.
func verifying() bool {
	buf := make([]byte, 1<<20)
	stacks := string(buf[:goruntime.Stack(buf, true)])
	return strings.Contains(stacks, "crypto/x509.(*Certificate).CheckSignatureFrom") ||
		strings.Contains(stacks, "crypto/x509.(*Certificate).buildChains")
}

// TestTLSCostlyChainRefused: a chain past a bound is refused before any
// signature is checked, through gate.connect and gate.http alike, with an
// error that names the host and port and the bound, never what the peer
// wrote; the run is not stopped for its budget, and no verification goes
// on after the call returns (an HTTP transport handshakes in its own
// goroutine, which outlives a request that gave up).
func TestTLSCostlyChainRefused(t *testing.T) {
	ch := testChains(t)
	g := newGuest(t)
	for _, tt := range []struct {
		name  string
		cert  tls.Certificate
		bound string
	}{
		{"costly", ch.costly, "more than 4 certificates"},
		{"too long", ch.tooLong, "more than 4 certificates"},
		{"8192-bit key", ch.bigKey, "an RSA key over 4096 bits"},
		{"31-bit exponent", ch.bigExponent, "an RSA public exponent over 65537"},
		{"P-521", ch.p521, "an ECDSA key on P-521"},
	} {
		addr := tlsPeerWith(t, tt.cert)
		grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}, Insecure: []string{addr}}
		for _, via := range []string{"connect", "connect insecure", "http", "http insecure"} {
			t.Run(tt.name+"/"+via, func(t *testing.T) {
				c := budgetCall(t, grants, 100*time.Millisecond)
				c.Net = &Net{RootCAs: ch.roots}
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
				assert.False(t, verifying(), "a signature check outlived the call")
				require.Nil(t, c.Interrupted(), "the run was stopped for its budget")
				assert.Equal(t, StatusTLS, status)
				msg := g.lastError(t, c)
				assert.Contains(t, msg, "tls: "+addr+": certificate chain refused before verification: "+tt.bound)
				assert.NotContains(t, msg, hostileSubject)
			})
		}
	}
}

// TestTLSChainAtTheBounds: an honest chain at the bounds (four
// certificates, an RSA-2048 intermediate) verifies through gate.connect and
// gate.http, and fails as before against roots that do not hold its CA.
func TestTLSChainAtTheBounds(t *testing.T) {
	ch := testChains(t)
	g := newGuest(t)
	addr := tlsPeerWith(t, ch.honest)
	grants := Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}}

	c := testCall(t, grants)
	c.Net = &Net{RootCAs: ch.roots}
	h := g.connect(t, c, "tls:"+addr, 0, 0)
	require.Positive(t, h, g.lastError(t, c))
	ok, _, _ := g.tlsFacts(t, c, h)
	assert.Equal(t, int32(1), ok)
	c.End()

	c = testCall(t, grants)
	c.Net = &Net{RootCAs: ch.roots}
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

// BenchmarkTLSVerify measures what verifying a peer's chain costs within
// the bounds: one signature check on the costliest keys the bounds let
// through (RSA-4096 with exponent 65537), and on P-521, which they do not
// let through for what it costs; and the verification
// of the chain at the bounds (whose three checks all fail, as a hostile
// peer's would). crypto/x509 stops after 100 checks, so 100 times the
// costliest check bounds any verification.
func BenchmarkTLSVerify(b *testing.B) {
	ch := testChains(b)
	parse := func(c tls.Certificate) []*x509.Certificate {
		var out []*x509.Certificate
		for _, der := range c.Certificate {
			cert, err := x509.ParseCertificate(der)
			require.NoError(b, err)
			out = append(out, cert)
		}
		return out
	}
	bounds := parse(ch.atTheBounds)
	require.NoError(b, checkChainCost(bounds, "127.0.0.1:443"))
	b.Run("check RSA-4096 e=65537", func(b *testing.B) {
		for b.Loop() {
			require.Error(b, bounds[0].CheckSignatureFrom(bounds[1]))
		}
	})
	b.Run("check P-521", func(b *testing.B) {
		p521 := parse(ch.p521)
		for b.Loop() {
			require.NoError(b, p521[0].CheckSignatureFrom(p521[1]))
		}
	})
	b.Run("chain at the bounds", func(b *testing.B) {
		cs := tls.ConnectionState{PeerCertificates: bounds}
		for b.Loop() {
			require.Error(b, verifyPeer(cs, "127.0.0.1", ch.roots))
		}
	})
	b.Run("costly chain, refused", func(b *testing.B) {
		costly := parse(ch.costly)
		for b.Loop() {
			require.Error(b, checkChainCost(costly, "127.0.0.1:443"))
		}
	})
}
