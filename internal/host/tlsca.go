package host

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"

	"github.com/gate-dev/gate/internal/safefile"
)

// MaxTLSCASize caps a tls_ca file at 1 MiB: the whole Mozilla bundle of
// public roots is about 220 KB, so a larger file is not a CA file, and
// reading one would cost every Open the time it takes.
const MaxTLSCASize = 1 << 20

// LoadTLSCA reads the PEM file a manifest's tls_ca (or gatectl's
// --tls-ca) names and returns a pool of its certificates, for
// ProbeConfig.TLSRootCAs. Text around the PEM blocks is ignored, as
// bundles put comments there; every block must be a CERTIFICATE that
// parses, and there must be at least one: a key or a broken certificate
// in a CA file is a mistake to report, not to skip. The file is read
// through safefile (a regular file only, at most MaxTLSCASize bytes). The
// error names the file and says what is wrong.
func LoadTLSCA(path string) (*x509.CertPool, error) {
	b, err := safefile.Read(path, MaxTLSCASize)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	n := 0
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			break
		}
		n++
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("%s: PEM block %d is a %s, not a CERTIFICATE: a CA file holds the certificates of the CAs that sign the probe's TLS peers, nothing else", path, n, block.Type)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: certificate %d: %v", path, n, err)
		}
		pool.AddCert(cert)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no PEM certificate in it: want one or more -----BEGIN CERTIFICATE----- blocks", path)
	}
	return pool, nil
}
