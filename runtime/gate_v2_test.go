package runtime

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/inspect"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
)

// testCAPEM is a self-signed CA certificate in PEM, made for the test.
func testCAPEM(t testing.TB) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "gate test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// A secret granted in the manifest is one the probe cannot read, even
// when an env grant names it too; the same probe without the secrets
// grant reads it.
func TestOpenManifestSecretsDenyEnv(t *testing.T) {
	ask := readFile(t, hostilePath("ask"))
	path := writeManifest(t, `[[tools]]
name = "with_secret"
[tools.probe]
module = "probes/ask.wasm"
config = { op = "env", arg = "API_KEY" }
grants = { env = ["API_KEY"], secrets = { API_KEY = ["https://api.example.com/v1/"] } }

[[tools]]
name = "env_only"
[tools.probe]
module = "probes/ask.wasm"
config = { op = "env", arg = "API_KEY" }
grants = { env = ["API_KEY"] }
`, map[string][]byte{"probes/ask.wasm": ask})
	cfg := NewGateConfig().WithEngine(NewEngineConfig().WithLookupEnv(func(k string) (string, bool) {
		return "sk-live-value", k == "API_KEY"
	}))
	ctx := context.Background()
	g, err := Open(ctx, path, cfg)
	require.NoError(t, err)
	defer g.Close(ctx)

	tool, ok := g.Tools().Get("with_secret")
	require.True(t, ok)
	res := tool.Probe.Run(ctx)
	assert.Equal(t, Unavailable, res.Outcome, "%+v", res)
	require.NotEmpty(t, res.Denials)
	assert.Contains(t, res.Denials[0], "API_KEY")
	assert.NotContains(t, fmt.Sprint(res), "sk-live-value")

	tool, ok = g.Tools().Get("env_only")
	require.True(t, ok)
	res = tool.Probe.Run(ctx)
	assert.Equal(t, Available, res.Outcome, "%+v", res)
	assert.Empty(t, res.Denials)

	probe := tool.Probe.(*Probe)
	assert.Empty(t, probe.Grants().Secrets)
	tool, _ = g.Tools().Get("with_secret")
	assert.Equal(t, map[string][]string{"API_KEY": {"https://api.example.com/v1/"}}, tool.Probe.(*Probe).Grants().Secrets,
		"the manifest's grants reach the probe, destinations and all")
}

// tls_ca is read when the manifest is opened, relative to the manifest,
// for module and standard probes alike; a file that is missing or holds
// no certificate stops the open with an error at the probe that names
// the key and the file.
func TestOpenManifestTLSCA(t *testing.T) {
	ask := readFile(t, hostilePath("ask"))
	ca := testCAPEM(t)
	key := []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
	files := map[string][]byte{
		"probes/ask.wasm": ask,
		"certs/ca.pem":    append(append([]byte("# a comment, as bundles have\n"), ca...), ca...),
		"certs/key.pem":   key,
		"certs/empty.pem": []byte("nothing here\n"),
		"certs/bad.pem":   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not DER")}),
		"certs/big.pem":   []byte(strings.Repeat("x", host.MaxTLSCASize+1)),
	}

	good := writeManifest(t, `[[tools]]
name = "module"
probe = { module = "probes/ask.wasm", config = { op = "available" }, tls_ca = "certs/ca.pem", proxy = true }

[[tools]]
name = "standard"
probe = { standard = "env:HOME", tls_ca = "certs/ca.pem" }
`, files)
	t.Chdir(t.TempDir()) // paths resolve against the manifest
	g, err := Open(context.Background(), good, NewGateConfig())
	require.NoError(t, err, "%+v", err)
	require.NoError(t, g.Close(context.Background()))

	bad := writeManifest(t, `[[tools]]
name = "missing"
probe = { module = "probes/ask.wasm", tls_ca = "certs/nope.pem" }

[[tools]]
name = "key"
[tools.probe]
standard = "env:HOME"
tls_ca = "certs/key.pem"

[[tools]]
name = "empty"
probe = { standard = "env:HOME", tls_ca = "certs/empty.pem" }

[[tools]]
name = "bad"
probe = { standard = "env:HOME", tls_ca = "certs/bad.pem" }

[[tools]]
name = "big"
probe = { standard = "env:HOME", tls_ca = "certs/big.pem" }

[[tools]]
name = "dir"
probe = { standard = "env:HOME", tls_ca = "certs" }
`, files)
	dir := filepath.Dir(bad)
	_, err = Open(context.Background(), bad, NewGateConfig())
	var errs manifest.Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 6, "%+v", err)
	// At the probe, as for its module: the Manifest keeps one position
	// per probe.
	at := func(line, col, tool int) string {
		return fmt.Sprintf("%s:%d:%d: tools[%d].probe.tls_ca: tls_ca: ", bad, line, col, tool)
	}
	file := func(name string) string { return filepath.Join(dir, "certs", name) }
	assert.Equal(t, at(3, 1, 0)+"open "+file("nope.pem")+": no such file or directory", errs[0].Error())
	assert.ErrorIs(t, errs[0], os.ErrNotExist)
	assert.Equal(t, at(7, 8, 1)+file("key.pem")+": PEM block 1 is a PRIVATE KEY, not a CERTIFICATE: a CA file holds the certificates of the CAs that sign the probe's TLS peers, nothing else", errs[1].Error())
	assert.Equal(t, at(13, 1, 2)+file("empty.pem")+": no PEM certificate in it: want one or more -----BEGIN CERTIFICATE----- blocks", errs[2].Error())
	assert.True(t, strings.HasPrefix(errs[3].Error(), at(17, 1, 3)+file("bad.pem")+": certificate 1: x509: malformed certificate"), errs[3].Error())
	assert.Contains(t, errs[4].Error(), at(21, 1, 4)+"read "+file("big.pem")+": file too large")
	assert.Contains(t, errs[5].Error(), at(25, 1, 5)+"open "+file("")+": not a regular file (a directory)")
	assert.Contains(t, fmt.Sprintf("%+v", errs[1]), "\n   7 | [tools.probe]\n")
}

func TestLoadTLSCA(t *testing.T) {
	ca := testCAPEM(t)
	path := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(path, ca, 0o600))
	pool, err := host.LoadTLSCA(path)
	require.NoError(t, err)
	block, _ := pem.Decode(ca)
	cert, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	_, err = cert.Verify(x509.VerifyOptions{Roots: pool})
	assert.NoError(t, err, "the pool verifies with the file's certificate")
}

// Inspect says which ABI version a module needs: 2 as soon as it imports
// a function version 2 added, 1 otherwise.
func TestInspectABIVersion(t *testing.T) {
	for _, tc := range []struct {
		path string
		want int
	}{
		{hostilePath("ask"), 1},
		{hostilePath("unknown_import"), 1},
		{filepath.Join("..", "cmd", "gatectl", "testdata", "probes", "v2_secret.wasm"), 2},
	} {
		info, err := inspect.Module(readFile(t, tc.path), inspect.Limits{})
		require.NoError(t, err)
		assert.Equal(t, tc.want, info.ABIVersion, tc.path)
	}
}
