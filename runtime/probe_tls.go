package runtime

import (
	"strings"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/host"
)

// warmSystemRoots starts loading the system's TLS roots in the background,
// once per process (host.WarmSystemRoots); a variable so that a test can
// count who asks.
var warmSystemRoots = host.WarmSystemRoots

// speaksTLS reports whether a probe of this module with this config will
// speak TLS, as far as can be told before it runs: the module reads TLS
// facts (gate.tls); or it opens streams (gate.connect) and its config
// names a "tls:" address; or it sends requests (gate.http) and a grant
// allows an https: URL; or a grant lets it skip verification (which
// gate.tls still reports against the roots). Only such probes warm the
// system roots when they are made: loading them (x509.SystemCertPool in
// a fresh process) takes a good part of a budget, work that a
// plaintext probe (redis:, postgres:, http://) and the process that runs
// it should not pay, even on another core. A probe that reaches TLS another
// way (an address built in its code) loads them at its first handshake,
// inside its budget.
func (m *Module) speaksTLS(grants hostfuncs.Grants, config host.Config) bool {
	connect, http := m.imports("connect"), m.imports("http")
	switch {
	case m.imports("tls"):
		return true
	case !connect && !http:
		return false
	case len(grants.Insecure) > 0:
		return true
	}
	if connect {
		for v := range config.Values() {
			if hasPrefixFold(v, "tls:") {
				return true
			}
		}
	}
	if http {
		for _, g := range grants.HTTP {
			if hasPrefixFold(g, "https:") {
				return true
			}
		}
	}
	return false
}

// imports reports whether the module imports the gate module's function
// name.
func (m *Module) imports(name string) bool {
	if m.info == nil {
		return false
	}
	for _, it := range m.info.Imports {
		if it.Module == host.ModuleName && it.Name == name {
			return true
		}
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
