package host

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"sync"
	"time"

	"github.com/tetratelabs/wazero/api"
)

// noDeadline clears a connection's deadline.
var noDeadline time.Time

// tlsFactsOf reads what gate.tls answers from a finished handshake. With
// insecure the handshake skipped verification; the chain and name are
// verified here by hand so that gate.tls can say whether it would have
// passed.
func (c *Call) tlsFactsOf(cs tls.ConnectionState, host string, insecure bool) *tlsFacts {
	f := &tlsFacts{verified: true}
	if len(cs.PeerCertificates) == 0 {
		f.verified = false
		return f
	}
	leaf := cs.PeerCertificates[0]
	f.notAfter = leaf.NotAfter
	if insecure {
		f.verified = verifyPeer(cs, host, c.Net.rootCAs()) == nil
	}
	return f
}

// verifyPeer verifies a peer's chain and name as crypto/tls would have.
func verifyPeer(cs tls.ConnectionState, host string, roots *x509.CertPool) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("tls: the peer sent no certificate")
	}
	inter := x509.NewCertPool()
	for _, cert := range cs.PeerCertificates[1:] {
		inter.AddCert(cert)
	}
	_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{
		Roots:         roots,
		DNSName:       host,
		Intermediates: inter,
	})
	return err
}

// isTLSError reports whether err is a failed handshake or verification
// rather than a transport failure.
func isTLSError(err error) bool {
	var (
		verr     *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
		alert    tls.AlertError
		costly   *costlyChainError
	)
	return errors.As(err, &costly) || errors.As(err, &verr) || errors.As(err, &unknown) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &record) || errors.As(err, &alert)
}

// hostTLS is gate.tls(handle, out_ptr) -> i32.
func hostTLS(ctx context.Context, m api.Module, stack []uint64) {
	c := callFrom(ctx, "gate.tls")
	id := api.DecodeI32(stack[0])
	out := view(m, "gate.tls", "out", api.DecodeU32(stack[1]), 16)
	stack[0] = api.EncodeI32(c.tlsOf(id, out))
	c.Check(ctx, "gate.tls")
}

func (c *Call) tlsOf(id int32, out []byte) int32 {
	h := c.lookup(id)
	if h == nil {
		return StatusBadHandle
	}
	var f *tlsFacts
	if h.stream != nil {
		f = h.stream.tls
	} else {
		f = h.resp.tls
	}
	if f == nil {
		return c.fail(StatusNotFound, "tls: the handle is not a TLS connection")
	}
	binary.LittleEndian.PutUint64(out[0:8], uint64(f.notAfter.Unix()))
	binary.LittleEndian.PutUint64(out[8:16], uint64(int64(time.Until(f.notAfter)/time.Second)))
	if f.verified {
		return 1
	}
	return 0
}

var warmRoots sync.Once

// WarmSystemRoots loads the system's TLS roots in the background, once per
// process. crypto/x509 loads them on first use, which takes a good part of
// a budget (and seconds under the race detector): inside a probe's first
// TLS handshake that would spend its budget. The engine calls it when it makes a probe
// that will speak TLS, and only then: a process that runs plaintext
// probes has no use for the roots.
func WarmSystemRoots() {
	warmRoots.Do(func() {
		go x509.SystemCertPool()
	})
}
