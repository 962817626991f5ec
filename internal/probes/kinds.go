package probes

import (
	"fmt"
	"strings"
)

// Kind names a standard probe.
type Kind string

// The standard probes. kinds, below, says what each checks and how a
// manifest writes it.
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
	// Memcached asks a memcached server its version (ABI v2).
	Memcached Kind = "memcached"
)

// kindEntry is everything package probes knows of one standard probe apart
// from its C source, src/NAME.c, and the module build.sh makes of it,
// NAME.wasm (embedded, and found by that name): how help texts write and
// describe it, how its shorthand is parsed and written back, and what
// the shorthand grants. Every decision that differs by kind is a field
// here, so that a new kind is one entry in kinds (and its C file).
type kindEntry struct {
	name Kind
	// also lists other words that start a shorthand of the kind: "https"
	// for http, whose shorthand is the URL itself.
	also []string
	// form is how help texts write the shorthand ("redis:HOST:PORT");
	// summary says, in one line, when the probe answers available.
	form, summary string
	// example is a valid shorthand, for error messages.
	example string

	// An ABI v1 kind's shorthand is one value, held in config key (a
	// list, or an address). value checks it and returns it as the config
	// holds it, and the grants it needs.
	key   string
	value func(v string) (string, needs, error)

	// An ABI v2 kind's shorthand is a target and options, in the order
	// String writes them (and error messages list them).
	options []*optionSpec
	// wholeTarget: the shorthand is the target, and its scheme the kind
	// (http: "https://h/x").
	wholeTarget bool
	// targetOptional: an empty target asks a default one ("docker:").
	targetOptional bool
	// target checks the target, puts it into config cfg (the options
	// parsed) and returns the grants it needs.
	target func(cfg map[string]string, target string) (needs, error)
	// writeTarget writes the target as String begins the shorthand; nil
	// for "NAME:" and config "addr".
	writeTarget func(c map[string]string) string
}

// needs are what a shorthand's value or target needs to be granted
// (its secrets follow from its config: bindSecrets).
type needs struct{ Env, Dial, Import, HTTP []string }

// v2 reports whether k is an ABI v2 kind, one that takes a target and
// options.
func (k *kindEntry) v2() bool { return k.target != nil }

// kinds are the standard probes, in the order Kinds reports them.
var kinds = []*kindEntry{
	{
		name:    Env,
		form:    "env:VAR[,VAR...]",
		summary: "every variable set and non-empty",
		example: "env:DATABASE_URL",
		key:     "vars",
		value: func(v string) (string, needs, error) {
			names := splitList(v)
			for _, n := range names {
				if !ValidEnvName(n) {
					return "", needs{}, fmt.Errorf("bad environment variable name %q: want letters, digits and _, not starting with a digit", n)
				}
			}
			return strings.Join(names, ","), needs{Env: names}, nil
		},
	},
	{
		name:    TCP,
		form:    "tcp:HOST:PORT",
		summary: "the address accepts a connection (also tcp:unix:/path)",
		example: "tcp:localhost:5432",
		key:     "addr",
		value: func(v string) (string, needs, error) {
			if err := checkAddr(v); err != nil {
				return "", needs{}, fmt.Errorf("bad address %q: %v", v, err)
			}
			return v, needs{Dial: []string{v}}, nil
		},
	},
	{
		name:    Import,
		form:    "import:SPEC[,SPEC...]",
		summary: "bin:NAME, py:MODULE, lib:LIBRARY are importable",
		example: "import:bin:docker",
		key:     "specs",
		value: func(v string) (string, needs, error) {
			specs := splitList(v)
			for _, sp := range specs {
				if !validSpec(sp) {
					return "", needs{}, fmt.Errorf("bad import spec %q: want SCHEME:NAME, e.g. py:psycopg2, bin:docker or lib:libpq.so.5", sp)
				}
			}
			return strings.Join(specs, ","), needs{Import: specs}, nil
		},
	},
	{
		name:        HTTP,
		also:        []string{"https"},
		form:        "http(s)://URL",
		summary:     "the URL answers 2xx or 3xx, or as status=, expect_body=... say",
		example:     "https://api.example.com/v1/models bearer=API_KEY",
		options:     []*optionSpec{optMethod, optBearer, optHeader, optBody, optStatus, optExpectBody, optRejectBody, optExpectHeader, optInsecure, optTimeout},
		wholeTarget: true,
		target:      urlTarget,
		writeTarget: func(c map[string]string) string { return c["url"] },
	},
	{
		name:    Redis,
		form:    "redis:HOST:PORT",
		summary: "PING answers PONG (AUTH first with password=SECRET)",
		example: "redis:127.0.0.1:6379 password=REDIS_PASSWORD",
		options: []*optionSpec{optPassword, optRedisUser, optTimeout},
		target: func(cfg map[string]string, target string) (needs, error) {
			addr := strings.TrimPrefix(target, "tls:")
			if err := checkAddr(addr); err != nil || (addr != target && strings.HasPrefix(addr, "unix:")) {
				if err == nil {
					err = fmt.Errorf("TLS over a unix socket is not supported")
				}
				return needs{}, fmt.Errorf("bad address %q: %v (want HOST:PORT, tls:HOST:PORT or unix:/PATH)", target, err)
			}
			if cfg["user"] != "" && cfg["password"] == "" {
				return needs{}, fmt.Errorf("option user needs password=SECRET too (AUTH takes both)")
			}
			cfg["addr"] = target
			return needs{Dial: []string{addr}}, nil
		},
	},
	{
		name:    Postgres,
		form:    "postgres:HOST:PORT",
		summary: "the server accepts a startup, as pg_isready asks",
		example: "postgres:127.0.0.1:5432 user=app",
		options: []*optionSpec{optPostgresUser, optPostgresDatabase, optTimeout},
		target:  addrTarget,
	},
	{
		name:           Docker,
		form:           "docker:[unix:/PATH]",
		summary:        "the Docker API answers /_ping (default " + DefaultDockerSocket + ")",
		example:        "docker:unix:/var/run/docker.sock",
		options:        []*optionSpec{optTimeout},
		targetOptional: true,
		target: func(cfg map[string]string, target string) (needs, error) {
			sock := DefaultDockerSocket
			if target != "" {
				p, ok := strings.CutPrefix(target, "unix:")
				if !ok || checkAddr(target) != nil {
					return needs{}, fmt.Errorf("bad socket %q: want docker: (for %s) or docker:unix:/ABSOLUTE/PATH", target, DefaultDockerSocket)
				}
				sock = p
			}
			cfg["socket"] = sock
			return needs{HTTP: []string{"unix:" + sock + ":/_ping"}}, nil
		},
		writeTarget: func(c map[string]string) string {
			if c["socket"] != DefaultDockerSocket {
				return "docker:unix:" + c["socket"]
			}
			return "docker:"
		},
	},
	{
		name:        MCP,
		form:        "mcp:URL",
		summary:     "the MCP server initializes and lists at least one tool",
		example:     "mcp:http://127.0.0.1:8080/mcp",
		options:     []*optionSpec{optBearer, optHeader, optTimeout},
		target:      urlTarget,
		writeTarget: func(c map[string]string) string { return "mcp:" + c["url"] },
	},
	{
		name:    TLS,
		form:    "tls:HOST:PORT",
		summary: "the certificate verifies and has days=" + DefaultTLSDays + " or more left",
		example: "tls:example.com:443 days=14",
		options: []*optionSpec{optDays, optTimeout},
		target: func(cfg map[string]string, target string) (needs, error) {
			if err := checkAddr(target); err != nil || strings.HasPrefix(target, "unix:") {
				if err == nil {
					err = fmt.Errorf("TLS needs HOST:PORT")
				}
				return needs{}, fmt.Errorf("bad address %q: %v", target, err)
			}
			cfg["addr"] = target
			return needs{Dial: []string{target}}, nil
		},
	},
	{
		name:    Memcached,
		form:    "memcached:HOST:PORT",
		summary: "the server answers version (also memcached:unix:/path)",
		example: "memcached:127.0.0.1:11211",
		options: []*optionSpec{optTimeout},
		target:  addrTarget,
	},
}

// lookup returns the standard probe k, or nil.
func lookup(k Kind) *kindEntry {
	for _, e := range kinds {
		if e.name == k {
			return e
		}
	}
	return nil
}

// lookupShorthand returns the standard probe whose shorthands start with
// word (its name, or a word in also), or nil.
func lookupShorthand(word string) *kindEntry {
	for _, e := range kinds {
		if string(e.name) == word {
			return e
		}
		for _, a := range e.also {
			if a == word {
				return e
			}
		}
	}
	return nil
}

// Kinds returns the standard probes, in a fixed order.
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	for i, e := range kinds {
		out[i] = e.name
	}
	return out
}

// Form is how help texts write a shorthand of the standard probe k, e.g.
// "redis:HOST:PORT" or "http(s)://URL"; "" if k is none.
func (k Kind) Form() string {
	if e := lookup(k); e != nil {
		return e.form
	}
	return ""
}

// Summary says in one line when the standard probe k answers available,
// for help texts; "" if k is none.
func (k Kind) Summary() string {
	if e := lookup(k); e != nil {
		return e.summary
	}
	return ""
}

// Example is a shorthand of the standard probe k that ParseShorthand
// accepts, e.g. "tcp:localhost:5432"; "" if k is none.
func (k Kind) Example() string {
	if e := lookup(k); e != nil {
		return e.example
	}
	return ""
}

// addrTarget is the target of a kind that dials one address, HOST:PORT
// or unix:/PATH, as its config "addr" holds it.
func addrTarget(cfg map[string]string, target string) (needs, error) {
	if err := checkAddr(target); err != nil {
		return needs{}, fmt.Errorf("bad address %q: %v", target, err)
	}
	cfg["addr"] = target
	return needs{Dial: []string{target}}, nil
}

// urlTarget is the target of a kind that requests one http(s) URL, as
// its config "url" holds it; the grant is the URL up to its query.
func urlTarget(cfg map[string]string, target string) (needs, error) {
	grant, err := checkURL(target)
	if err != nil {
		return needs{}, fmt.Errorf("bad URL %q: %v", target, err)
	}
	cfg["url"] = target
	return needs{HTTP: []string{grant}}, nil
}
