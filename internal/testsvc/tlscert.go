package testsvc

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Day is 24 hours, the unit in which certificates' lifetimes are given.
const Day = 24 * time.Hour

// CA is a test certificate authority: a self-signed root whose key signs
// server certificates for 127.0.0.1, ::1 and localhost.
type CA struct {
	// Cert is the root certificate.
	Cert *x509.Certificate
	// PEM is Cert, PEM-encoded, as a tls_ca file holds it.
	PEM []byte
	key *ecdsa.PrivateKey
}

// NewCA makes a CA valid from an hour ago for ten years. Keys are ECDSA
// P-256: fast to make, so each test can have CAs of its own.
func NewCA(t testing.TB) *CA {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          serial(t),
		Subject:               pkix.Name{CommonName: "gate test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(10 * 365 * Day),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("testsvc.NewCA: %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("testsvc.NewCA: %v", err)
	}
	return &CA{Cert: cert, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), key: key}
}

// Pool returns a pool holding only the CA, for runtime.ProbeConfig's
// TLSRootCAs or a tls.Config's RootCAs.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// WriteFile writes the CA as PEM to "ca.pem" in a new temporary directory
// (what a manifest's tls_ca names) and returns its path.
func (ca *CA) WriteFile(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, ca.PEM, 0o644); err != nil {
		t.Fatalf("testsvc: writing the CA: %v", err)
	}
	return path
}

// Server issues a server certificate for 127.0.0.1, ::1 and localhost,
// valid from an hour ago until valid from now (so Server(t, 2*Day) is one
// that expires in two days).
func (ca *CA) Server(t testing.TB, valid time.Duration) tls.Certificate {
	t.Helper()
	now := time.Now()
	return ca.Issue(t, now.Add(-time.Hour), now.Add(valid))
}

// Expired issues a server certificate like Server's that expired a day
// ago.
func (ca *CA) Expired(t testing.TB) tls.Certificate {
	t.Helper()
	now := time.Now()
	return ca.Issue(t, now.Add(-30*Day), now.Add(-Day))
}

// Issue issues a server certificate for 127.0.0.1, ::1 and localhost,
// valid from notBefore to notAfter. The result's Leaf is set.
func (ca *CA) Issue(t testing.TB, notBefore, notAfter time.Time) tls.Certificate {
	t.Helper()
	return leafCert(t, notBefore, notAfter, ca.Cert, ca.key)
}

// SelfSigned makes a server certificate for 127.0.0.1, ::1 and localhost,
// valid from an hour ago until valid from now, that signs itself: no CA
// vouches for it.
func SelfSigned(t testing.TB, valid time.Duration) tls.Certificate {
	t.Helper()
	now := time.Now()
	return leafCert(t, now.Add(-time.Hour), now.Add(valid), nil, nil)
}

// leafCert makes a server certificate signed by parent's key, or by its
// own when parent is nil.
func leafCert(t testing.TB, notBefore, notAfter time.Time, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) tls.Certificate {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: serial(t),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatalf("testsvc: issuing a certificate: %v", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatalf("testsvc: issuing a certificate: %v", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("testsvc: making a key: %v", err)
	}
	return key
}

func serial(t testing.TB) *big.Int {
	t.Helper()
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		t.Fatalf("testsvc: making a serial number: %v", err)
	}
	return n
}

// ServeTLS starts a TLS server on 127.0.0.1 presenting cert, and returns
// its address. Each connection completes the handshake (the client decides
// whether it trusts the certificate), then reads and drops whatever the
// client sends until the client closes it or the test ends.
func ServeTLS(t testing.TB, cert tls.Certificate) string {
	t.Helper()
	return ServeTLSWith(t, cert, func(c net.Conn) {
		buf := make([]byte, 4096)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	})
}

// ServeTLSWith is ServeTLS with handle run on each connection once its
// handshake has completed (as Serve runs it on a plain one), to speak a
// protocol over TLS.
func ServeTLSWith(t testing.TB, cert tls.Certificate, handle func(net.Conn)) string {
	t.Helper()
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	return Serve(t, func(c net.Conn) {
		tc := tls.Server(c, cfg)
		if err := tc.Handshake(); err != nil {
			return
		}
		handle(tc)
	})
}
