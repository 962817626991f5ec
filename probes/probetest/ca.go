package probetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"sync"
	"time"
)

// testCA is the throwaway certificate authority of one Check: it signs a
// certificate for each TLS peer's host, and the probes of that Check
// verify their peers against it alone (runtime.ProbeConfig.TLSRootCAs), so
// a TLS peer verifies as a real server would, and nothing else does.
type testCA struct {
	once sync.Once
	err  error
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
	pool *x509.CertPool
}

// validity of the peers' certificates: long enough that no run sees one
// expire, short enough that TLS facts show a finite time left.
const validity = 90 * 24 * time.Hour

func (ca *testCA) init() error {
	ca.once.Do(func() {
		ca.key, ca.err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if ca.err != nil {
			return
		}
		now := time.Now()
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(1),
			Subject:               pkix.Name{CommonName: "probetest CA"},
			NotBefore:             now.Add(-time.Hour),
			NotAfter:              now.Add(validity),
			IsCA:                  true,
			KeyUsage:              x509.KeyUsageCertSign,
			BasicConstraintsValid: true,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &ca.key.PublicKey, ca.key)
		if err != nil {
			ca.err = err
			return
		}
		ca.cert, ca.err = x509.ParseCertificate(der)
		if ca.err == nil {
			ca.pool = x509.NewCertPool()
			ca.pool.AddCert(ca.cert)
		}
	})
	return ca.err
}

// leaf returns a certificate for host (a name or an IP address).
func (ca *testCA) leaf(host string) (tls.Certificate, error) {
	if err := ca.init(); err != nil {
		return tls.Certificate{}, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(validity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
