// Package probes ships gate's standard probes and parses their shorthand.
//
// A probe is a small WebAssembly module that tells gate whether an agent
// tool can run (see include/gate.h for the ABI). The standard probes
// cover what most tools need, so that most manifests never ship a module
// of their own. Three ask the host (ABI v1):
//
//   - env: every environment variable in config "vars" is set and non-empty;
//   - tcp: config "addr" ("host:port" or "unix:/path") accepts a connection
//     within config "timeout_ms" (default: the rest of the budget);
//   - import: every spec in config "specs" ("bin:docker", "py:psycopg2",
//     "lib:libpq.so.5", ...) is importable.
//
// Six ask a service in its own protocol (ABI v2; README.md lists their
// config, options and reasons): http (an http:// or https:// URL: status,
// headers, body), redis (PING, AUTH from a secret), postgres (the startup
// handshake, pg_isready's answers), docker (/_ping on the socket), mcp
// (initialize and tools/list over streamable HTTP) and tls (a verified
// certificate that is not about to expire).
//
// They are written in C (src/), built by build.sh into the committed
// .wasm files (1.4 to 5 KB each, one page of memory, importing nothing but
// the gate host module) and embedded here. After changing src/ or
// include/, run `go generate ./probes`; TestCommittedWasmIsFresh fails
// until you do.
//
// Probe authors: write C against include/gate.h, or Go against package
// github.com/gate-dev/gate/probes/sdk (much bigger and slower to load).
package probes

import (
	_ "embed"
)

//go:generate sh build.sh

// Kind names a standard probe.
type Kind string

// The standard probes.
const (
	// Env checks that environment variables are set and non-empty.
	Env Kind = "env"
	// TCP checks that an address accepts connections.
	TCP Kind = "tcp"
	// Import checks that programs, modules or libraries can be imported.
	Import Kind = "import"
	// HTTP asks a URL (http:// or https://) and judges its status, headers
	// and body (ABI v2).
	HTTP Kind = "http"
	// Redis sends PING, after AUTH from a secret if configured (ABI v2).
	Redis Kind = "redis"
	// Postgres starts the PostgreSQL protocol and reads the first answer,
	// as pg_isready does (ABI v2).
	Postgres Kind = "postgres"
	// Docker asks the Docker API's /_ping on its unix socket (ABI v2).
	Docker Kind = "docker"
	// MCP asks a streamable-HTTP MCP server to initialize and list its
	// tools (ABI v2).
	MCP Kind = "mcp"
	// TLS verifies a TLS server's certificate and how long it has left
	// (ABI v2).
	TLS Kind = "tls"
)

var (
	//go:embed env.wasm
	envWasm []byte
	//go:embed tcp.wasm
	tcpWasm []byte
	//go:embed import.wasm
	importWasm []byte
	//go:embed http.wasm
	httpWasm []byte
	//go:embed redis.wasm
	redisWasm []byte
	//go:embed postgres.wasm
	postgresWasm []byte
	//go:embed docker.wasm
	dockerWasm []byte
	//go:embed mcp.wasm
	mcpWasm []byte
	//go:embed tls.wasm
	tlsWasm []byte
)

// kinds lists the standard probes in the order Kinds reports them.
var kinds = []Kind{Env, TCP, Import, HTTP, Redis, Postgres, Docker, MCP, TLS}

// Wasm returns the embedded module of the standard probe k, and false if
// there is no such probe. It returns a fresh copy (about 1.5 KB) so that no
// caller can change what another one runs.
func Wasm(k Kind) ([]byte, bool) {
	var b []byte
	switch k {
	case Env:
		b = envWasm
	case TCP:
		b = tcpWasm
	case Import:
		b = importWasm
	case HTTP:
		b = httpWasm
	case Redis:
		b = redisWasm
	case Postgres:
		b = postgresWasm
	case Docker:
		b = dockerWasm
	case MCP:
		b = mcpWasm
	case TLS:
		b = tlsWasm
	default:
		return nil, false
	}
	return append([]byte(nil), b...), true
}

// Kinds returns the standard probes, in a fixed order.
func Kinds() []Kind {
	return append([]Kind(nil), kinds...)
}
