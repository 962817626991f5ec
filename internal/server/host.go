package server

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// loopbackHost reports whether a request's Host names this machine's
// loopback: "localhost", a 127.0.0.0/8 literal or [::1], with a port or
// without. Without a token, that is all the API answers: a web page can
// make a browser send requests to 127.0.0.1 under its own name (DNS
// rebinding: evil.example resolves to the attacker, then to 127.0.0.1),
// and the browser then lets the page read the answers, since to it they
// come from evil.example. The Host header still says evil.example, and
// the page cannot change it. Subdomains of localhost are refused too: a
// browser may resolve them to loopback, but other resolvers need not.
func loopbackHost(host string) bool {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		// No port: "localhost", "127.0.0.1", "[::1]".
		name, port = host, ""
		if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
			name = name[1 : len(name)-1]
		}
	}
	if strings.Trim(port, "0123456789") != "" || name == "" {
		return false
	}
	return isLoopback(name)
}

// misdirected answers 421 Misdirected Request to a request whose Host is
// not loopback while no token is set, saying why and what to do.
func misdirected(w http.ResponseWriter, host string) {
	const most = 100 // the Host is the client's: quote only its start
	if len(host) > most {
		host = host[:most] + "..."
	}
	writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf(
		"Host %q is not a loopback name: without a token, gate answers only requests to localhost, 127.0.0.1 or [::1] "+
			"(any other name may be a web page reading the API through DNS rebinding); "+
			"use http://127.0.0.1:PORT, or configure a token (--token-file or GATE_TOKEN) to serve other names", host))
}
