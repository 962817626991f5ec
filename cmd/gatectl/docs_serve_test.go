package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/testnet"
)

// TestServeDocLogs plays the three scenarios of docs/CLI.md's "gatectl
// serve" (an editor's half-written manifest, a module that is not a file
// and a SIGHUP; a listener coming and going and a tool added) and
// compares what serve logs with the page (-update rewrites it).
func TestServeDocLogs(t *testing.T) {
	page := filepath.Join("..", "..", "docs", "CLI.md")
	module, err := filepath.Abs(hostile("ask"))
	require.NoError(t, err)
	t.Setenv("GATE_CACHE_DIR", t.TempDir())

	t.Run("refused edits", func(t *testing.T) {
		manifest := "[runtime]\nttl = \"30s\"\n\n" +
			"[[tools]]\nname = \"search_web\"\nprobe = \"env:SERP_API_KEY\"\n\n" +
			"[[tools]]\nname = \"terminal\"\nprobe = \"import:bin:sh\"\n\n" +
			"[[tools]]\nname = \"query_database\"\n" +
			"probe = { module = \"" + module + "\" }\n"
		s := startDocServe(t, manifest)
		// An editor rewrites the file in place, and stops after a name.
		s.write(manifest[:strings.Index(manifest, "name = \"search_web\"\n")+len("name = \"search_web\"\n")])
		s.waitFor("half-written")
		s.write(strings.Replace(manifest, module, "/dev/zero", 1))
		s.waitFor("a character device")
		s.reload <- os.Interrupt // the test stands in for SIGHUP
		s.waitFor("on SIGHUP failed")
		doctest.Compare(t, page, 0, "gatectl serve -m gate.toml", s.stop(), golden.Update())
	})

	t.Run("flips and a new tool", func(t *testing.T) {
		ports := doctest.Ports{}
		ports.Free(t, "16379")
		t.Setenv("SERP_API_KEY", "")
		os.Unsetenv("SERP_API_KEY") // t.Setenv restores it
		manifest := ports.ToRun("[runtime]\nttl = \"1s\"\ngrace = \"0s\"\n\n[[tools]]\nname = \"cache_data\"\nprobe = \"tcp:127.0.0.1:16379\"\n")
		s := startDocServe(t, manifest)
		l := testnet.Listen(t, "tcp", "127.0.0.1:"+ports["16379"])
		s.waitFor("tool cache_data available")
		l.Close()
		s.waitFor("tool cache_data unavailable")
		s.write(manifest + "\n[[tools]]\nname = \"search_web\"\nprobe = \"env:SERP_API_KEY\"\n")
		s.waitFor("reloaded")
		doctest.Compare(t, page, 1, "gatectl serve -m gate.toml", ports.FromRun(s.stop()), golden.Update())
	})

	t.Run("thresholds", func(t *testing.T) {
		ports := doctest.Ports{}
		ports.Free(t, "16379")
		manifest := ports.ToRun("[runtime]\nttl = \"1s\"\nretry = \"200ms\"\nfailure_threshold = 2\nsuccess_threshold = 2\n\n" +
			"[[tools]]\nname = \"cache_data\"\nprobe = \"tcp:127.0.0.1:16379\"\n")
		l := testnet.Listen(t, "tcp", "127.0.0.1:"+ports["16379"])
		s := startDocServe(t, manifest)
		l.Close()
		s.waitFor("still available")
		s.waitFor("tool cache_data unavailable")
		testnet.Listen(t, "tcp", "127.0.0.1:"+ports["16379"]) // closed when the test ends
		s.waitFor("still unavailable")
		s.waitFor("tool cache_data available")
		log := ports.FromRun(s.stop())
		doctest.Compare(t, page, 2, "gatectl serve -m gate.toml", log, golden.Update())
		doctest.Compare(t, filepath.Join("..", "..", "README.md"), 0, "gatectl serve -m gate.toml", log, golden.Update())
	})
}

// docServe is gatectl serve, in process, on a manifest of its own.
type docServe struct {
	t        *testing.T
	dir      string
	manifest string
	base     string
	reload   chan os.Signal
	stderr   *syncBuffer
	cancel   func()
	code     chan int
}

func startDocServe(t *testing.T, manifest string) *docServe {
	dir := t.TempDir()
	s := &docServe{t: t, dir: dir, manifest: filepath.Join(dir, "gate.toml"), reload: make(chan os.Signal, 1),
		stderr: &syncBuffer{}, code: make(chan int, 1)}
	writeFile(t, s.manifest, manifest)
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	t.Cleanup(cancel)
	addrc := make(chan string, 1)
	go func() {
		s.code <- serveContext(ctx, []string{"-m", s.manifest, "--addr", "127.0.0.1:0"}, s.reload, io.Discard, s.stderr, func(a string) { addrc <- a })
	}()
	s.base = "http://" + <-addrc
	require.Eventually(t, func() bool { c, _ := get(t, s.base+"/readyz", ""); return c == http.StatusOK }, time.Minute, 10*time.Millisecond)
	return s
}

// write rewrites the manifest in place, as an editor does.
func (s *docServe) write(content string) { writeFile(s.t, s.manifest, content) }

func (s *docServe) waitFor(text string) {
	s.t.Helper()
	require.Eventually(s.t, func() bool { return strings.Contains(s.stderr.String(), text) }, time.Minute, 10*time.Millisecond,
		"waiting for %q in:\n%s", text, s.stderr.String())
}

// stop ends serve as SIGTERM does, and returns its log as the page shows
// it: run with -m gate.toml, on the default address.
func (s *docServe) stop() string {
	s.cancel()
	require.Equal(s.t, exitOK, <-s.code)
	out := strings.ReplaceAll(s.stderr.String(), s.manifest, "gate.toml")
	return strings.ReplaceAll(out, s.base, "http://127.0.0.1:7311")
}
