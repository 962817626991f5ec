package main

import (
	"encoding/json"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// TestInitNamedServicesReal: a real Redis (with and without a password),
// PostgreSQL (over TCP and its socket) and memcached, each on a port
// that only the conventional variable names (the usual local addresses
// refuse), become tools whose probes ask that address, which gatectl
// check then finds available. A password in REDIS_URL is never written
// or printed: the probe sends the secret REDIS_PASSWORD.
func TestInitNamedServicesReal(t *testing.T) {
	const password = "pw-9f3c-not-in-the-file"
	redis := testsvc.Redis(t, "")
	redisAuth := testsvc.Redis(t, password)
	pgAddr, pgSocket := testsvc.Postgres(t)
	_, pgPort, err := net.SplitHostPort(pgAddr)
	require.NoError(t, err)
	memcached, _ := testsvc.Memcached(t)

	for _, tt := range []struct {
		name, from, tool, probe string
		env                     map[string]string // what init sees, and check too
	}{
		{"redis", "REDIS_URL", "redis", "redis:" + redis, map[string]string{"REDIS_URL": "redis://" + redis + "/0"}},
		{"redis with a password", "REDIS_URL", "redis", "redis:" + redisAuth + " password=REDIS_PASSWORD",
			map[string]string{"REDIS_URL": "redis://:" + password + "@" + redisAuth, "REDIS_PASSWORD": password}},
		{"postgres", "DATABASE_URL", "postgres", "postgres:" + pgAddr + " user=app",
			map[string]string{"DATABASE_URL": "postgresql://app:secret@" + pgAddr + "/app?sslmode=disable"}},
		{"postgres socket", "PGHOST and PGPORT", "postgres", "postgres:unix:" + pgSocket + " user=app",
			map[string]string{"PGHOST": filepath.Dir(pgSocket), "PGPORT": pgPort, "PGUSER": "app"}},
		{"memcached", "MEMCACHED_SERVERS", "memcached", "memcached:" + memcached,
			map[string]string{"MEMCACHED_SERVERS": memcached + ",127.0.0.1:1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr, path := initAt(t, bareMachine(t).withEnv(tt.env))
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, map[string]string{tt.tool: tt.probe}, toolProbes(t, path))
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Contains(t, string(b), "# found: "+tt.from+" set (only the address and names in it are written)")
			assert.NotContains(t, string(b)+stdout+stderr, password)
			assert.NotContains(t, string(b)+stdout+stderr, "secret@")

			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			tool := checkUp(t, path)
			assert.Equal(t, tt.tool, tool.Name)
			assert.Equal(t, "available", tool.State, tool.Reason)
		})
	}
}

// checkUp is gatectl check --json's answer for the one tool of the
// manifest at path, a service on this machine that is up. One that a
// loaded machine kept from answering within the budget is asked again by
// a new check (a timeout is the one answer that can be the machine's,
// not the probe's); any other answer stands.
func checkUp(t *testing.T, path string) checkEntry {
	t.Helper()
	var tool checkEntry
	for range 5 {
		_, stdout, stderr := gatectl(t, "check", "--json", "-m", path)
		var report checkReport
		require.NoError(t, json.Unmarshal([]byte(stdout), &report), stdout+stderr)
		require.Len(t, report.Tools, 1)
		tool = report.Tools[0]
		if tool.CodeInfo == nil || tool.Code != runtime.CodeTimeout {
			break
		}
		t.Logf("%s: %s; asking again", tool.Name, tool.Reason)
	}
	return tool
}

// TestInitNamedServices: what each conventional variable becomes, and
// the variables that are set but cannot be used, which are reported by
// name without what they hold. A service the environment names is not
// looked for at its usual address too.
func TestInitNamedServices(t *testing.T) {
	for _, tt := range []struct {
		name    string
		env     map[string]string
		want    map[string]string // tool: probe
		note    string            // in the file
		problem string            // on stderr
	}{
		{"redis, default port", map[string]string{"REDIS_URL": "redis://localhost"}, map[string]string{"redis": "redis:localhost:6379"}, "", ""},
		{"rediss is TLS", map[string]string{"REDIS_URL": "rediss://cache.internal:6380/1"}, map[string]string{"redis": "redis:tls:cache.internal:6380"}, "", ""},
		{"redis user and password, no REDIS_PASSWORD", map[string]string{"REDIS_URL": "redis://bob:hunter2@[::1]:7000"},
			map[string]string{"redis": "redis:[::1]:7000 password=REDIS_PASSWORD user=bob"}, "set REDIS_PASSWORD to the password", ""},
		{"redis URL of another scheme", map[string]string{"REDIS_URL": "http://hunter2@x"}, map[string]string{}, "",
			"REDIS_URL is set but is not a redis:// or rediss:// URL with a host"},
		{"a database URL of another kind", map[string]string{"DATABASE_URL": "mysql://u:p@127.0.0.1/db"}, map[string]string{}, "", ""},
		{"postgres socket in the query", map[string]string{"DATABASE_URL": "postgres:///app?host=/run/postgresql"},
			map[string]string{"postgres": "postgres:unix:/run/postgresql/.s.PGSQL.5432 database=app"}, "", ""},
		{"postgres URL without a host", map[string]string{"DATABASE_URL": "postgres:///app"}, map[string]string{}, "",
			"DATABASE_URL is set to a postgres URL with no host, or not one of a name or an address"},
		{"DATABASE_URL before PGHOST", map[string]string{"DATABASE_URL": "postgres://db:6543/shop", "PGHOST": "other", "PGUSER": "clerk"},
			map[string]string{"postgres": "postgres:db:6543 user=clerk database=shop"}, "", ""},
		{"PGPORT alone", map[string]string{"PGPORT": "5433"}, map[string]string{"postgres": "postgres:127.0.0.1:5433"}, "", ""},
		{"PGHOST list", map[string]string{"PGHOST": "db1,db2", "PGDATABASE": "shop"}, map[string]string{"postgres": "postgres:db1:5432 database=shop"}, "", ""},
		{"a user that would add an option", map[string]string{"DATABASE_URL": "postgres://app%20timeout_ms=1@db/x"}, map[string]string{}, "",
			"DATABASE_URL: what it names holds a space, a quote or a control character, which the postgres probe's shorthand cannot take"},
		{"memcached socket", map[string]string{"MEMCACHE_SERVERS": "/run/mc.sock"}, map[string]string{"memcached": "memcached:unix:/run/mc.sock"}, "", ""},
		{"memcached default port", map[string]string{"MEMCACHED_SERVERS": " cache1 cache2:11311"}, map[string]string{"memcached": "memcached:cache1:11211"}, "", ""},
		{"memcached not an address", map[string]string{"MEMCACHED_SERVERS": "--SERVER=x"}, map[string]string{}, "",
			"MEMCACHED_SERVERS is set but its first server is not HOST[:PORT] or a socket's /PATH"},
		{"docker socket", map[string]string{"DOCKER_HOST": "unix:///run/user/1000/docker.sock"}, map[string]string{"docker": "docker:unix:/run/user/1000/docker.sock"}, "", ""},
		{"docker over TCP", map[string]string{"DOCKER_HOST": "tcp://10.0.0.1:2376"}, map[string]string{}, "",
			"DOCKER_HOST is set but is not a unix:///PATH socket, the only kind the docker probe asks"},
		{"an address the probe refuses", map[string]string{"REDIS_URL": "redis://h:0123"}, map[string]string{}, "",
			"REDIS_URL: the redis probe cannot take what it names: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr, path := initAt(t, bareMachine(t).withEnv(tt.env))
			require.Equal(t, exitOK, code, stderr)
			got := toolProbes(t, path)
			delete(got, "search_web") // the example, when nothing was found
			assert.Equal(t, tt.want, got)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Contains(t, string(b), tt.note)
			assert.NotContains(t, string(b)+stderr, "hunter2")
			if tt.problem == "" {
				assert.Empty(t, stderr)
			} else {
				assert.Contains(t, stderr, "gatectl init: "+tt.problem)
				for _, v := range tt.env {
					assert.NotContains(t, stderr, v, "what a variable holds is not printed")
				}
			}
		})
	}
}

// TestInitNamedServiceReplacesTheUsual: when REDIS_URL names a Redis, the
// one at the usual address is not written too: the named one is the one
// the agent's code uses.
func TestInitNamedServiceReplacesTheUsual(t *testing.T) {
	usual := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	m := bareMachine(t).withService(probes.Redis, usual).withEnv(map[string]string{"REDIS_URL": "redis://127.0.0.1:7001"})
	code, stdout, stderr, path := initAt(t, m)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, map[string]string{"redis": "redis:127.0.0.1:7001"}, toolProbes(t, path))
	assert.True(t, strings.HasPrefix(stdout, "gatectl init: wrote "+path+": 1 tool (1 service)\n"), stdout)
}

// FuzzNamedServices: whatever the variables hold, reading them never
// panics, a tool written for them has a probe the manifest's parser
// takes, and a password in a URL is never part of it.
func FuzzNamedServices(f *testing.F) {
	for _, v := range []string{"redis://:pw@127.0.0.1:6380/0", "rediss://u:p@[::1]", "postgres://a:b@db:5/x?host=/s", "postgres:///x?host=/run/pg",
		"h1,h2:11212", "/run/mc.sock", "unix:///var/run/docker.sock", "redis://a%20b:c@h", "\x00://\x7f", ""} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		getenv := func(string) string { return v }
		var password string // one that shows nowhere else in v
		if u, err := url.Parse(v); err == nil && u.User != nil {
			if p, _ := u.User.Password(); !strings.Contains(u.Host+u.Path+u.RawQuery+u.User.Username(), p) {
				password = p
			}
		}
		for _, n := range namedServices {
			found, ok, err := n.named(getenv)
			if !ok {
				continue
			}
			require.NoError(t, err)
			_, err = probes.ParseShorthand(found.probe)
			require.NoError(t, err, "%q", found.probe)
			if len(password) > 3 {
				assert.NotContains(t, found.probe, password)
			}
		}
	})
}
