package testnet

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
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// HostileSubject is the name the hostile intermediates carry: text the
// peer wrote, which no error may quote.
const HostileSubject = "PEER-WROTE-THIS-SUBJECT"

// Chains are the certificate chains that hostile and honest TLS peers in the
// tests present (see host.MaxTLSChain and the bounds beside it),
// made once per test binary: an RSA key to sign with takes a while to make.
type Chains struct {
	Roots *x509.CertPool
	// Honest is a leaf for 127.0.0.1 under three ECDSA and RSA-2048
	// intermediates: four certificates, at the host's bound of four.
	Honest tls.Certificate
	// Costly is a leaf under 90 intermediates whose 8192-bit RSA keys have
	// a 31-bit exponent, each of which the leaf's signature claims to be
	// from: crypto/x509 checks it against every one.
	Costly tls.Certificate
	// TooLong, BigKey and BigExponent are each past one bound only.
	TooLong, BigKey, BigExponent tls.Certificate
	// AtTheBounds is the costliest chain of this shape within the bounds:
	// a leaf under three intermediates with 4096-bit keys of exponent
	// 65537, each a candidate for the leaf's issuer.
	AtTheBounds tls.Certificate
	// P521 is a leaf under an intermediate with a P-521 key: the costliest
	// curve to check a signature on, refused as an 8192-bit key is.
	P521 tls.Certificate
}

var (
	chainsOnce sync.Once
	theChains  *Chains
	chainsErr  error
)

// TLSChains returns the chains, made on the first call.
func TLSChains(t testing.TB) *Chains {
	t.Helper()
	chainsOnce.Do(func() { theChains, chainsErr = makeChains() })
	if chainsErr != nil {
		t.Fatal(chainsErr)
	}
	return theChains
}

func makeChains() (*Chains, error) {
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
	ch := &Chains{Roots: x509.NewCertPool()}

	// The honest chain: root -> a (RSA-2048) -> b -> c -> leaf.
	rootKey := ecKey()
	_, root, err := issue(template("root", true), template("root", true), rootKey.Public(), rootKey)
	if err != nil {
		return nil, err
	}
	ch.Roots.AddCert(root)
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
	ch.Honest = tls.Certificate{Certificate: [][]byte{leafDER, cDER, bDER, aDER}, PrivateKey: leafKey}
	tooLongDER, _, err := issue(template("leaf", false), c, leafKey.Public(), cKey)
	if err != nil {
		return nil, err
	}
	ch.TooLong = tls.Certificate{Certificate: [][]byte{tooLongDER, cDER, bDER, aDER, aDER}, PrivateKey: leafKey}

	// The hostile intermediates: keys nobody holds (a random odd modulus),
	// signed with rsaKey, since nothing checks their own signatures.
	hostile := &x509.Certificate{Subject: pkix.Name{CommonName: HostileSubject}}
	intermediate := func(bits, e int) ([]byte, error) {
		n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), uint(bits)))
		if err != nil {
			return nil, err
		}
		n.SetBit(n, bits-1, 1).SetBit(n, 0, 1)
		tpl := template(HostileSubject, true)
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
	if ch.Costly, err = chain(8192, 1<<31-1, 90); err != nil {
		return nil, err
	}
	if ch.BigKey, err = chain(8192, 65537, 1); err != nil {
		return nil, err
	}
	if ch.BigExponent, err = chain(2048, 1<<31-1, 1); err != nil {
		return nil, err
	}
	if ch.AtTheBounds, err = chain(4096, 65537, 3); err != nil {
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
	ch.P521 = tls.Certificate{Certificate: [][]byte{p521Leaf, p521DER}, PrivateKey: leafKey}
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

// AnswerNoContent reads an HTTP request from c and answers it with 204:
// the handler of a TLS peer of these chains (testsvc.ServeTLSWith), for
// a probe's https request or its stream.
func AnswerNoContent(c net.Conn) {
	if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
		c.Write([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
	}
}

// Verifying reports whether any goroutine of the process is checking a
// certificate's signature for crypto/x509.
func Verifying() bool {
	buf := make([]byte, 4<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	return strings.Contains(stacks, "crypto/x509.(*Certificate).CheckSignatureFrom") ||
		strings.Contains(stacks, "crypto/x509.(*Certificate).buildChains")
}
