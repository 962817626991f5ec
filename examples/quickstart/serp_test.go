package quickstart_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// goodKey is the only SERP_API_KEY the stand-in for serpapi.com accepts.
const goodKey = "set-by-the-test"

// startSerp starts the loopback stand-in for serpapi.com's account
// endpoint, which gate.toml's search_web asks with its key: 200 for
// goodKey, 401 (as SerpApi answers a wrong key) for any other. It runs for
// the whole test binary, so that TestMain can name its address.
func startSerp() (addr string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/account.json" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("api_key") != goodKey {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":"Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key"}`)
			return
		}
		io.WriteString(w, `{"account_status":"Active","plan_searches_left":100}`)
	})}
	go srv.Serve(l)
	return l.Addr().String(), func() { srv.Close() }, nil
}

var copyManifest = sync.OnceValues(func() (string, error) {
	dir := filepath.Join(tmpDir, "quickstart")
	b, err := os.ReadFile("gate.toml")
	if err != nil {
		return "", err
	}
	const real = "https://serpapi.com/account.json"
	if !strings.Contains(string(b), real) {
		return "", fmt.Errorf("gate.toml no longer asks %s; update manifestCopy", real)
	}
	b = []byte(strings.ReplaceAll(string(b), real, "http://"+serpAddr+"/account.json"))
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasPrefix(path, "probes/") || strings.HasPrefix(path, "skills/")) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(path)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "gate.toml"), os.WriteFile(filepath.Join(dir, "gate.toml"), b, 0o644)
})

// manifestCopy is gate.toml, with its probes and skills, in a directory of
// the test's own, where search_web asks the loopback stand-in instead of
// serpapi.com: tests never reach the internet.
func manifestCopy(t testing.TB) string {
	t.Helper()
	path, err := copyManifest()
	require.NoError(t, err)
	return path
}
