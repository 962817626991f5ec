package main

import (
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	probeURL    = regexp.MustCompile(`https?://[^\s"']+`)
	secretNamed = regexp.MustCompile(`\$\{secret:([A-Za-z_][A-Za-z0-9_]*)\}|\b(?:bearer|password)=([A-Za-z_][A-Za-z0-9_]*)`)
)

// remoteSecrets returns, for each secret a manifest line sends to a host
// beyond loopback (https://serpapi.com/...?api_key=${secret:SERP_API_KEY},
// bearer=NAME), that host.
func remoteSecrets(manifest string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(manifest, "\n") {
		for _, raw := range probeURL.FindAllString(line, -1) {
			u, err := url.Parse(strings.TrimRight(raw, ",}"))
			if err != nil || isLoopback(u.Hostname()) {
				continue
			}
			for _, m := range secretNamed.FindAllStringSubmatch(line, -1) {
				out[m[1]+m[2]] = u.Hostname()
			}
		}
	}
	return out
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// requireOffline fails a run whose environment or commands would give a
// secret to a probe that sends it beyond loopback: with the secret unset
// such a probe sends nothing, so a page's example never reaches the
// network (search_web's key, say, stays away from serpapi.com).
func requireOffline(t docT, dir string, env, commands []string) {
	t.Helper()
	remote := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".toml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for name, host := range remoteSecrets(string(b)) {
			remote[name] = host
		}
		return nil
	}))
	for name, host := range remote {
		for _, e := range env {
			require.False(t, strings.HasPrefix(e, name+"="), "the marker sets %s, which a manifest of the run sends to %s: the examples stay on loopback", name, host)
		}
		for _, c := range commands {
			require.NotRegexp(t, `(^|\s)`+name+`=`, c, "%q sets %s, which a manifest of the run sends to %s: the examples stay on loopback", c, name, host)
		}
	}
}

func TestRemoteSecrets(t *testing.T) {
	manifest := `probe = "https://serpapi.com/account.json?api_key=${secret:SERP_API_KEY}"
probe = "https://api.openai.com/v1/models bearer=OPENAI_API_KEY"
probe = "http://127.0.0.1:8080/x?k=${secret:LOCAL_KEY}"
probe = "redis:127.0.0.1:6379 password=REDIS_PASSWORD"
grants = { secrets = { X = ["https://localhost/v1/"] } }`
	assert.Equal(t, map[string]string{"SERP_API_KEY": "serpapi.com", "OPENAI_API_KEY": "api.openai.com"}, remoteSecrets(manifest))

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "gate.toml"), manifest)
	for _, tt := range []struct {
		name          string
		env, commands []string
		fails         bool
	}{
		{"a key the run would send to serpapi.com", []string{"SERP_API_KEY=sk-test"}, nil, true},
		{"one set on the command line", nil, []string{"OPENAI_API_KEY=sk gatectl check"}, true},
		{"secrets for loopback", []string{"LOCAL_KEY=k", "REDIS_PASSWORD=p"}, []string{"gatectl check", "XSERP_API_KEY=1 gatectl check"}, false},
	} {
		r := &failRecorder{}
		done := make(chan struct{})
		go func() { defer close(done); requireOffline(r, dir, tt.env, tt.commands) }()
		<-done
		assert.Equal(t, tt.fails, r.failed, tt.name)
	}
}

// docT is what requireOffline needs of a test.
type docT interface {
	require.TestingT
	Helper()
}

// failRecorder is a docT that records a failure.
type failRecorder struct{ failed bool }

func (r *failRecorder) Helper()               {}
func (r *failRecorder) Errorf(string, ...any) { r.failed = true }
func (r *failRecorder) FailNow()              { r.failed = true; runtime.Goexit() }
