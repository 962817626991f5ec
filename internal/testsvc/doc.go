// Package testsvc runs the real services that the standard probes talk to
// in tests: a Redis server (with or without a password), a PostgreSQL
// cluster, a memcached server (on a port or a unix socket), TLS servers whose certificates come from a test CA (valid,
// expiring, expired, self-signed), and small scripted peers for the answers
// a real server gives only by accident (Redis -LOADING, PostgreSQL 57P03, a
// peer that never answers).
//
// Everything listens on loopback or on a unix socket in a temporary
// directory and is stopped when the test ends (t.Cleanup). The servers are
// Debian's redis-server, postgresql and memcached; scripts/test installs
// them. A test
// that needs one fails (it does not skip) when it is missing, saying what
// to install: a skipped test would report a gap as a pass.
package testsvc
