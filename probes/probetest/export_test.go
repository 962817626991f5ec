package probetest

import (
	"context"
	"crypto/x509"
	"net"
)

// FakeNet exposes a case's fake network to the tests, so that the peers
// are tested through real connections without a probe.
type FakeNet struct {
	n  *peerNet
	ca *testCA
}

func NewFakeNet(peers map[string]Peer, secrets map[string]string) (*FakeNet, error) {
	ca := &testCA{}
	if err := ca.init(); err != nil {
		return nil, err
	}
	n, err := newPeerNet(peers, secrets, ca)
	if err != nil {
		return nil, err
	}
	return &FakeNet{n, ca}, nil
}

func (f *FakeNet) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	return f.n.dial(ctx, network, addr)
}

func (f *FakeNet) Roots() *x509.CertPool { return f.ca.pool }

// Close ends the peers and returns their failures.
func (f *FakeNet) Close() []string { return f.n.close() }

var PeerTarget = peerTarget
