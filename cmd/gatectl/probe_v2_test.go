package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"github.com/gate-dev/gate/internal/statusview"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testsvc"
)

// v2Probe needs ABI v2 and reads GATECTL_SECRET_KEY (see its .wat).
var v2Probe = filepath.Join("testdata", "probes", "v2_secret.wasm")

// secretValue is what GATECTL_SECRET_KEY holds in these tests: long
// enough that finding it in output is not a coincidence.
const secretValue = "sk-gatectl-test-0123456789abcdef"

// writeCA writes a self-signed CA certificate as PEM into dir/name.
func writeCA(t *testing.T, dir, name string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gatectl test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	writeFile(t, path, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	return path
}

// TestV2ProbeFresh rebuilds the v2 probe from its source, as
// TestHostileProbeFresh does the hostile one.
func TestV2ProbeFresh(t *testing.T) {
	_, err := exec.LookPath("wat2wasm")
	require.NoError(t, err, "wat2wasm is needed to check testdata/probes: apt-get install wabt")
	out := filepath.Join(t.TempDir(), "v2_secret.wasm")
	b, err := exec.Command("wat2wasm", strings.TrimSuffix(v2Probe, ".wasm")+".wat", "-o", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	built, err := os.ReadFile(out)
	require.NoError(t, err)
	committed, err := os.ReadFile(v2Probe)
	require.NoError(t, err)
	assert.Equal(t, built, committed, "testdata/probes/v2_secret.wasm is stale: cd testdata/probes && wat2wasm v2_secret.wat -o v2_secret.wasm")
}

// probe inspect says which ABI version a module needs, in text and JSON.
func TestProbeInspectV2(t *testing.T) {
	code, stdout, _ := gatectl(t, "probe", "inspect", v2Probe)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "\nABI v2:  conforms\n")
	assertGolden(t, "probe_inspect_v2.txt", stdout)

	code, stdout, _ = gatectl(t, "probe", "inspect", "--json", v2Probe)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, `"abi_version": 2,`)
	assertGolden(t, "probe_inspect_v2.json", stdout)

	code, stdout, _ = gatectl(t, "probe", "inspect", "--json", hostile("ask"))
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout, `"abi_version": 1,`)
}

// probe run's v2 flags: --secret, --http, --insecure, --tls-ca, --proxy.
func TestProbeRunV2Flags(t *testing.T) {
	t.Setenv("GATECTL_SECRET_KEY", secretValue)
	dir := t.TempDir()
	ca := writeCA(t, dir, "ca.pem")
	notPEM := filepath.Join(dir, "not.pem")
	writeFile(t, notPEM, "hello\n")

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring of stdout
		stderr string // a substring of stderr
	}{
		{"env granted", []string{v2Probe, "--name", "v2", "--env", "GATECTL_SECRET_KEY"}, exitOK, "v2: available (", ""},
		{"a secret is not readable", []string{v2Probe, "--name", "v2", "--env", "GATECTL_SECRET_KEY", "--secret", "GATECTL_SECRET_KEY=127.0.0.1:6379"},
			exitUnavailable, "v2: unavailable: env \"GATECTL_SECRET_KEY\" not granted to probe \"v2\" (", ""},
		{"a secret, denied by name", []string{hostile("ask"), "--name", "asker", "--config", "op=env", "--config", "arg=GATECTL_SECRET_KEY",
			"--env", "GATECTL_*", "--secret", "GATECTL_SECRET_KEY=https://api.example.com/v1/"},
			exitUnavailable, "\n  denied: env \"GATECTL_SECRET_KEY\"", ""},
		{"tls-ca and proxy, module", []string{v2Probe, "--env", "GATECTL_SECRET_KEY", "--tls-ca", ca, "--proxy", "--insecure", "127.0.0.1:*"}, exitOK, ": available (", ""},
		{"http grants", []string{v2Probe, "--env", "GATECTL_SECRET_KEY", "--http", "http://127.0.0.1:*/health", "--http", "unix:/var/run/docker.sock:/_ping"}, exitOK, ": available (", ""},
		{"tls-ca, standard", []string{"env:GATECTL_SECRET_KEY", "--tls-ca", ca, "--proxy"}, exitOK, "env:GATECTL_SECRET_KEY: available (", ""},

		{"tls-ca missing", []string{"env:HOME", "--tls-ca", filepath.Join(dir, "nope.pem")}, exitUsage, "",
			"gatectl probe run: --tls-ca: open " + filepath.Join(dir, "nope.pem") + ": no such file or directory"},
		{"tls-ca not PEM", []string{"env:HOME", "--tls-ca", notPEM}, exitUsage, "",
			"gatectl probe run: --tls-ca: " + notPEM + ": no PEM certificate in it"},
		{"secret pattern", []string{"env:HOME", "--secret", "API_*=127.0.0.1:6379"}, exitUsage, "", `secret grant "API_*": secrets are named exactly; no patterns`},
		{"secret without a destination", []string{v2Probe, "--secret", "API_KEY"}, exitUsage, "",
			`invalid value "API_KEY" for flag --secret: bind the secret to where it may be sent, written as --dial and --http are: --secret API_KEY=127.0.0.1:6379, --secret API_KEY=https://api.example.com/v1/`},
		{"secret with an empty destination", []string{v2Probe, "--secret", "API_KEY="}, exitUsage, "", `--secret API_KEY=127.0.0.1:6379`},
		{"secret with no name", []string{v2Probe, "--secret", "=127.0.0.1:6379"}, exitUsage, "", `--secret NAME=127.0.0.1:6379`},
		{"secret with a bad destination", []string{v2Probe, "--secret", "API_KEY=127.1:6379"}, exitUsage, "",
			`secret grant "API_KEY": destination "127.1:6379": `},
		{"bad insecure", []string{v2Probe, "--insecure", "localhost:"}, exitUsage, "", `insecure grant "localhost:": empty port`},
		// Refused by any implementation of http grants: the scheme.
		{"bad http", []string{v2Probe, "--http", "ftp://example.com/"}, exitUsage, "", `http grant "ftp://example.com/": `},
		{"v2 flags with --tool", []string{"--tool", "notify_team", "-m", checkManifest, "--secret", "X=127.0.0.1:6379"}, exitUsage, "",
			"--secret does not go with --tool"},
		{"tls-ca with --tool", []string{"--tool", "notify_team", "-m", checkManifest, "--tls-ca", ca}, exitUsage, "",
			"--tls-ca does not go with --tool"},
		{"proxy with --tool", []string{"--tool", "notify_team", "-m", checkManifest, "--proxy"}, exitUsage, "",
			"--proxy does not go with --tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := gatectl(t, append([]string{"probe", "run"}, tt.args...)...)
			assert.Equal(t, tt.code, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Contains(t, stdout, tt.stdout)
			assert.Contains(t, stderr, tt.stderr)
			assert.NotContains(t, stdout+stderr, secretValue)
		})
	}

	// --json lists every grant the probe got.
	code, stdout, _ := gatectl(t, "probe", "run", "--json", "--name", "v2", v2Probe,
		"--env", "GATECTL_SECRET_KEY", "--secret", "GATECTL_SECRET_KEY=https://api.example.com/v1/", "--insecure", "127.0.0.1:*", "--dial", "127.0.0.1:*",
		"--secret", "GATECTL_SECRET_KEY=tls:127.0.0.1:6380", "--secret", "OTHER=unix:/run/redis.sock",
		"--http", "https://api.example.com/v1/")
	assert.Equal(t, exitUnavailable, code)
	assertGolden(t, "probe_run_v2.json", maskTimings(stdout))
}

// probe run --tool shows a manifest probe's v2 grants and settings, and
// runs it with them: its secret is denied to env.
func TestProbeRunToolV2(t *testing.T) {
	t.Setenv("GATECTL_SECRET_KEY", secretValue)
	dir := t.TempDir()
	writeCA(t, dir, "ca.pem")
	wasm, err := os.ReadFile(v2Probe)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "v2.wasm"), wasm, 0o644))
	m := filepath.Join(dir, "gate.toml")
	writeFile(t, m, `[[tools]]
name = "with_secret"
[tools.probe]
module = "v2.wasm"
tls_ca = "ca.pem"
proxy = true
grants = { env = ["GATECTL_SECRET_KEY"], secrets = { GATECTL_SECRET_KEY = ["https://localhost:8443/", "tls:localhost:8443"] }, insecure = ["localhost:8443"], dial = ["localhost:8443"], http = ["https://localhost:8443/"] }

[[tools]]
name = "readable"
probe = { module = "v2.wasm", grants = { env = ["GATECTL_SECRET_KEY"] } }

[[tools]]
name = "bad_ca"
probe = { standard = "env:HOME", tls_ca = "gate.toml" }
`)
	code, stdout, stderr := gatectl(t, "probe", "run", "--tool", "with_secret", "-m", m)
	assert.Equal(t, exitUnavailable, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, "\n  denied: env \"GATECTL_SECRET_KEY\"")
	assert.Contains(t, stdout, "\n  grants: env GATECTL_SECRET_KEY; dial localhost:8443; import -; http https://localhost:8443/; secrets GATECTL_SECRET_KEY=https://localhost:8443/, GATECTL_SECRET_KEY=tls:localhost:8443; insecure localhost:8443\n")
	assert.Contains(t, stdout, "\n  tls_ca: "+filepath.Join(dir, "ca.pem")+"\n")
	assert.Contains(t, stdout, "\n  proxy: as HTTPS_PROXY, HTTP_PROXY and NO_PROXY say\n")
	assert.NotContains(t, stdout, secretValue)

	code, stdout, _ = gatectl(t, "probe", "run", "--tool", "readable", "-m", m)
	assert.Equal(t, exitOK, code, stdout)
	assert.Contains(t, stdout, "\n  grants: env GATECTL_SECRET_KEY; dial -; import -\n", "v1 grants print as they did")
	assert.NotContains(t, stdout, "tls_ca:")

	code, _, stderr = gatectl(t, "probe", "run", "--tool", "bad_ca", "-m", m)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "tools[0].probe.tls_ca: tls_ca: "+m+": no PEM certificate in it")
}

// --secret binds a secret to where it may go: sent there, the value
// reaches the peer and what it echoes comes back redacted; sent anywhere
// else, nothing is sent and the denial names the secret and the address,
// the grant the probe would need.
func TestProbeRunSecretBinding(t *testing.T) {
	t.Setenv("GATECTL_SECRET_KEY", secretValue)
	echo := okPeer(t)
	other := okPeer(t)
	run := func(extra ...string) (int, string, string) {
		args := append([]string{"probe", "run", hostile("talk"), "--name", "talk", "--dial", "127.0.0.1:*",
			"--config", "mode=echo", "--config", "addr=" + echo, "--config", "send=AUTH ${secret:GATECTL_SECRET_KEY}\r\n"}, extra...)
		return gatectl(t, args...)
	}

	code, stdout, stderr := run("--secret", "GATECTL_SECRET_KEY="+echo)
	assert.Equal(t, exitOK, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, "talk: available (")
	assert.NotContains(t, stdout+stderr, secretValue)

	code, stdout, stderr = run("--secret", "GATECTL_SECRET_KEY="+other)
	assert.Equal(t, exitUnavailable, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, "\n  denied: secret \"GATECTL_SECRET_KEY\" not granted to probe \"talk\" for \""+echo+"\"\n")
	assert.NotContains(t, stdout+stderr, secretValue)

	// NAME again adds a destination; --json shows each secret's.
	code, stdout, stderr = run("--json", "--secret", "GATECTL_SECRET_KEY="+other, "--secret", "GATECTL_SECRET_KEY="+echo)
	assert.Equal(t, exitOK, code, "%s%s", stdout, stderr)
	assert.Contains(t, stdout, `"secrets": {
      "GATECTL_SECRET_KEY": [
        "`+other+`",
        "`+echo+`"
      ]
    },`)
	assert.NotContains(t, stdout+stderr, secretValue)
}

// okPeer is a loopback TCP peer that answers each line it reads "+OK",
// as a Redis that takes the password does: it hands no value back (one
// that did would have the read withheld, see docs/ABI.md).
func okPeer(t *testing.T) string {
	t.Helper()
	return testsvc.Serve(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		for {
			if _, err := r.ReadString('\n'); err != nil {
				return
			}
			if _, err := io.WriteString(c, "+OK\r\n"); err != nil {
				return
			}
		}
	})
}

// check reports a secret sent where it is not bound with the address it
// was to go to, in the table and in --json: what the manifest would need.
func TestCheckSecretBoundElsewhere(t *testing.T) {
	t.Setenv("GATECTL_SECRET_KEY", secretValue)
	peer, other := okPeer(t), okPeer(t)
	talk, err := filepath.Abs(hostile("talk"))
	require.NoError(t, err)
	m := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, m, `[[tools]]
name = "cache"
[tools.probe]
module = "`+talk+`"
config = { mode = "echo", addr = "`+peer+`", send = "AUTH ${secret:GATECTL_SECRET_KEY}\r\n" }
grants = { dial = ["127.0.0.1:*"], secrets = { GATECTL_SECRET_KEY = ["`+other+`"] } }
`)
	code, stdout, stderr := gatectl(t, "check", "-m", m)
	assert.Equal(t, exitUnavailable, code, "%s%s", stdout, stderr)
	// The probe makes the host's refusal its reason.
	assert.Contains(t, stdout, `  secret "GATECTL_SECRET_KEY" not granted to probe "cache" for "`+peer+`"`+"\n")
	assert.NotContains(t, stdout+stderr, secretValue)

	code, stdout, _ = gatectl(t, "check", "-m", m, "--json")
	assert.Equal(t, exitUnavailable, code)
	var report checkReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report), stdout)
	require.Len(t, report.Tools, 1)
	assert.Equal(t, []denialJSON{{Kind: "secret", Request: "GATECTL_SECRET_KEY", To: peer,
		Message: `secret "GATECTL_SECRET_KEY" not granted to probe "cache" for "` + peer + `"`}}, report.Tools[0].Denials)
	assert.Contains(t, stdout, `"to": "`+peer+`"`)
	assert.NotContains(t, stdout, secretValue)
}

// A denial the reason does not already say is added to the reason column,
// a secret's with where it was to go.
func TestReasonColumnDenials(t *testing.T) {
	e := checkEntry{Info: statusview.Info{Reason: "not configured"}, Denials: []denialJSON{
		{Kind: "env", Request: "A", Message: `env "A" not granted to probe "p"`},
		{Kind: "secret", Request: "K", To: "127.0.0.1:6380", Message: `secret "K" not granted to probe "p" for "127.0.0.1:6380"`},
	}}
	assert.Equal(t, `not configured [denied 2: env "A", secret "K" for "127.0.0.1:6380"]`, reasonColumn(e))
	e.Reason = e.Denials[1].Message
	assert.Equal(t, e.Reason+` [denied 1: env "A"]`, reasonColumn(e))
}
