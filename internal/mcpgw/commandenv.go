package mcpgw

import (
	"os"
	"strconv"
	"strings"

	"github.com/gate-dev/gate/internal/manifest"
)

// defaultEnvNames are the variables of gate's environment a stdio
// upstream gets unless its entry says default_env = false: those the MCP
// SDKs' stdio clients give every server they launch on POSIX systems (the
// TypeScript SDK's getDefaultEnvironment), which desktop clients use. A
// server written for them (npx, uvx, a shell script) then finds its
// programs on PATH and its files under HOME under gate too. None of them
// is a secret.
var defaultEnvNames = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

// usesDefaultEnv says whether the command of conn gets the default
// environment: unless default_env = false.
func usesDefaultEnv(conn *manifest.Upstream) bool {
	return conn.DefaultEnv == nil || *conn.DefaultEnv
}

// defaultEnv is the default environment as gate's holds it: each of
// defaultEnvNames that is set, except a value that starts with "()", a
// shell function exported as a variable, which the SDKs leave out too
// (a shell that imports it runs code of whoever set it).
func defaultEnv() []string {
	var env []string
	for _, n := range defaultEnvNames {
		if v, ok := os.LookupEnv(n); ok && !strings.HasPrefix(v, "()") {
			env = append(env, n+"="+v)
		}
	}
	return env
}

// commandEnv is the environment of a stdio upstream's command: the
// default environment (usesDefaultEnv), its env with each ${secret:NAME}
// expanded, then its pass_env. What env or pass_env name is theirs, over
// the default, as a client's env is over its SDK's default.
func commandEnv(conn *manifest.Upstream, secrets *redactor) ([]string, error) {
	env := []string{} // only what the manifest passes: non-nil, possibly empty
	named := make(map[string]bool, len(conn.Env)+len(conn.PassEnv))
	for _, e := range conn.Env {
		named[e.Name] = true
	}
	for _, n := range conn.PassEnv {
		named[n] = true
	}
	if usesDefaultEnv(conn) {
		for _, kv := range defaultEnv() {
			if n, _, _ := strings.Cut(kv, "="); !named[n] {
				env = append(env, kv)
			}
		}
	}
	for _, e := range conn.Env {
		v, err := expandSecrets(e.Value, secrets, "env "+e.Name)
		if err != nil {
			return nil, err
		}
		env = append(env, e.Name+"="+v)
	}
	for _, n := range conn.PassEnv {
		if v, ok := os.LookupEnv(n); ok {
			env = append(env, n+"="+v)
		}
	}
	return env, nil
}

// envKey is the part of an upstream's connection key its environment
// makes: env as written, and the values pass_env and the default
// environment take from gate's, so that a reload that changes any of
// them restarts the command; "" for a url upstream.
func envKey(u *manifest.Upstream) string {
	if len(u.Command) == 0 {
		return ""
	}
	var k strings.Builder
	for _, e := range u.Env {
		k.WriteString(strconv.Quote(e.Name) + "=" + strconv.Quote(e.Value))
	}
	k.WriteByte(0)
	for _, n := range u.PassEnv {
		k.WriteString(strconv.Quote(n) + "=" + strconv.Quote(os.Getenv(n)))
	}
	k.WriteByte(0)
	if usesDefaultEnv(u) {
		for _, kv := range defaultEnv() {
			k.WriteString(strconv.Quote(kv))
		}
	} else {
		k.WriteString("default_env = false")
	}
	return k.String()
}
