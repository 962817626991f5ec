package probetest

import (
	"fmt"
	"net/http"
	"strings"
)

// Peer is a fake service behind one address, for a probe that talks to
// services (ABI v2): a Script for a stream protocol, a Handler for HTTP,
// or Refuse. Put it in Options.Peers or Case.Peers under the address the
// probe dials; every connection the probe opens there meets the peer
// afresh, and an address without a peer refuses connections. Nothing
// reaches the network: probetest puts each peer behind a loopback
// listener of its own and points gate's connections at it.
type Peer struct {
	kind    peerKind
	steps   []Step
	handler http.Handler
}

type peerKind uint8

const (
	peerRefuse peerKind = iota
	peerScript
	peerHandler
)

// Step is one step of a Script: what the peer expects to receive or
// sends, as blackbox_exporter's query_response does.
type Step struct {
	op   stepOp
	text string
}

type stepOp uint8

const (
	stepExpect stepOp = iota
	stepSend
	stepClose
	stepHang
)

func (s Step) String() string {
	switch s.op {
	case stepExpect:
		return fmt.Sprintf("Expect(%q)", s.text)
	case stepSend:
		return fmt.Sprintf("Send(%q)", s.text)
	case stepClose:
		return "Close()"
	default:
		return "Hang()"
	}
}

// Script is a peer that plays steps in order on each connection. After
// the last step it keeps the connection open and reads whatever comes, as
// a server waiting for the next command does, until the probe closes it
// (or the run ends and the host closes it). A step that does not hold
// (Expect meeting other bytes, or the end of the stream) is a violation
// of rule "peer" naming the step, and the peer then closes the
// connection.
func Script(steps ...Step) Peer {
	return Peer{kind: peerScript, steps: steps}
}

// Expect reads until the peer has received exactly s: the next len(s)
// bytes the probe sends must be s, wherever the probe's writes split them.
// Write ${secret:NAME} for a secret of the case (Case.Secrets): the peer
// expects its value, which the host must have put in, so a probe that
// sends the placeholder through the host passes and one that sends the
// placeholder some other way (or a value it made up) does not.
func Expect(s string) Step { return Step{stepExpect, s} }

// Send writes s to the probe. ${secret:NAME} placeholders are replaced by
// the case's secret values, so that a peer can echo a secret and a test
// can see that the host redacts it on the way in.
func Send(s string) Step { return Step{stepSend, s} }

// Close ends the peer's side of the stream: the probe reads the end of
// the stream (0 from gate.recv, io.EOF from the Go SDK), not a reset.
func Close() Step { return Step{stepClose, ""} }

// Hang never answers again: the peer reads and drops whatever comes until
// the probe gives up. The probe's own timeout (or the budget's reserve)
// must end the wait; a probe that waits for the budget overruns it.
func Hang() Step { return Step{stepHang, ""} }

// Handler is a peer that serves HTTP/1.1 with h on each connection. Under
// an https:// or tls: key it serves TLS, with a certificate that the
// probe's TLS verification trusts (see Options.Peers).
func Handler(h http.Handler) Peer {
	return Peer{kind: peerHandler, handler: h}
}

// Refuse is a peer that refuses connections: gate.connect and gate.http
// answer refused (-3), with the host's words
// "dial tcp ADDR: connect: connection refused". An address without a peer
// does the same; Refuse says so on purpose.
func Refuse() Peer { return Peer{kind: peerRefuse} }

func (p Peer) String() string {
	switch p.kind {
	case peerScript:
		var b strings.Builder
		b.WriteString("Script(")
		for i, s := range p.steps {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(s.String())
		}
		b.WriteString(")")
		return b.String()
	case peerHandler:
		return "Handler"
	default:
		return "Refuse()"
	}
}
