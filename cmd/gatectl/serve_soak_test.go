package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soakManifest gates tools on hostile probes that are always running when
// a signal comes: busy, touching many pages of a mapped memory, holding a
// granted secret in a one-page memory, sleeping to the budget, recursing,
// all re-probed every 50 ms.
const soakManifest = `
[runtime]
ttl = "50ms"
grace = "0s"

[[tools]]
name = "spin"
probe = { module = %[1]q }

[[tools]]
name = "pages"
probe = { module = %[2]q }

[[tools]]
name = "secret"
probe = { module = %[3]q, grants = { env = ["SECRET_TOKEN"] } }

[[tools]]
name = "sleep"
probe = { module = %[4]q }

[[tools]]
name = "recursion"
probe = { module = %[5]q }

[[tools]]
name = "home"
probe = "env:HOME"
%[6]s
`

// TestServeSignalSoak runs gatectl serve as a real process, many times,
// and sends it SIGHUP (reloads that retire a Gate whose probes are
// running) and SIGTERM at random moments while hostile and secret-holding
// probes run. It used to die with SIGSEGV ("unexpected fault address",
// "split stack overflow") in 2-3 of 5 tries. Every process must exit 0,
// promptly, with nothing fatal on stderr; a last, longer round checks that
// reloads leak neither goroutines nor memory.
func TestServeSignalSoak(t *testing.T) {
	bin := buildGatectlBinary(t)
	dir := t.TempDir()
	abs := func(name string) string {
		p, err := filepath.Abs(hostile(name))
		require.NoError(t, err)
		return p
	}
	manifest := filepath.Join(dir, "gate.toml")
	write := func(extra string) {
		writeFile(t, manifest, fmt.Sprintf(soakManifest, abs("loop_probe"), abs("touch_pages"), abs("secret_loop"), abs("sleep"), abs("recursion"), extra))
	}
	write("")
	env := append(os.Environ(), "SECRET_TOKEN=S3CRET-TOKEN-VALUE", "GATE_CACHE_DIR="+filepath.Join(dir, "cache"))

	rounds := 10
	if testing.Short() {
		rounds = 3
	}
	for round := range rounds {
		s := startServe(t, bin, manifest, env)
		for range rand.IntN(4) {
			time.Sleep(time.Duration(50+rand.IntN(250)) * time.Millisecond)
			write(fmt.Sprintf("\n[[tools]]\nname = \"extra%d\"\n", rand.IntN(1000)))
			require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		s.stop(t, fmt.Sprintf("round %d", round))
	}

	// Leaks: reload every 100 ms for 3 s, let the replaced Gates close
	// (at once, once their probes stop), and compare with the state after
	// the first reloads.
	s := startServe(t, bin, manifest, env)
	defer s.stop(t, "the leak round")
	reload := func(n int) {
		for i := range n {
			write(fmt.Sprintf("\n[[tools]]\nname = \"extra%d\"\n", i))
			require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
			time.Sleep(100 * time.Millisecond)
		}
	}
	reload(3)
	time.Sleep(2 * time.Second)
	before := s.quietest(t)
	reload(30)
	time.Sleep(2 * time.Second)
	after := s.quietest(t)
	t.Logf("after 3 reloads: %v; after 30 more: %v", before, after)
	// Probes are re-probed every 50 ms, each run in a goroutine of its own,
	// so a few come and go at any moment; a leak per reload would be 30 or
	// more.
	assert.LessOrEqual(t, after["go_goroutines"], before["go_goroutines"]+10, "goroutines leaked across reloads")
	// Heap in use, not resident memory: freed pages go back to the system
	// lazily, and under the race detector resident memory is mostly its
	// shadow. The bound is the server soak's: 2x + 16 MiB.
	assert.Less(t, after["go_memstats_heap_inuse_bytes"], 2*before["go_memstats_heap_inuse_bytes"]+16<<20, "memory leaked across reloads")
}

type serveProcess struct {
	cmd    *exec.Cmd
	addr   string
	token  string // sent with every metrics read, when set
	stderr *syncBuffer
	done   chan error
}

func startServe(t *testing.T, bin, manifest string, env []string) *serveProcess {
	t.Helper()
	return startServeArgs(t, bin, env, "-m", manifest, "--addr", "127.0.0.1:0")
}

// startServeArgs starts gatectl serve with args and waits until it
// listens.
func startServeArgs(t *testing.T, bin string, env []string, args ...string) *serveProcess {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &serveProcess{cmd: cmd, stderr: &syncBuffer{}, done: make(chan error, 1)}
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			s.stderr.Write([]byte(line + "\n"))
			if m := regexp.MustCompile(`listening on http://(\S+)`).FindStringSubmatch(line); m != nil {
				listening <- m[1]
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case s.addr = <-listening:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("gatectl serve did not start:\n%s", s.stderr.String())
	}
	return s
}

// stop sends SIGTERM and checks that the process exits 0, within a few
// seconds, having printed nothing that a crash or a race prints.
func (s *serveProcess) stop(t *testing.T, what string) {
	t.Helper()
	if s.cmd.ProcessState != nil {
		return
	}
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-s.done:
		out := s.stderr.String()
		require.NoError(t, err, "%s: gatectl serve exited badly:\n%s", what, out)
		for _, bad := range []string{"fatal error", "SIGSEGV", "panic:", "unexpected fault", "DATA RACE", "split stack"} {
			require.NotContains(t, out, bad, "%s:\n%s", what, out)
		}
		assert.Contains(t, out, "gatectl serve: stopped", what)
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Signal(syscall.SIGQUIT) // a goroutine dump on stderr
		time.Sleep(time.Second)
		t.Fatalf("%s: gatectl serve did not stop within 15 s of SIGTERM:\n%s", what, s.stderr.String())
	}
}

// quietest reads the metrics five times, 200 ms apart, and keeps the
// smallest value of each: the process at its quietest, without the
// goroutines of the probe runs under way at one instant.
func (s *serveProcess) quietest(t *testing.T) map[string]float64 {
	t.Helper()
	out := s.metrics(t)
	for range 4 {
		time.Sleep(200 * time.Millisecond)
		for k, v := range s.metrics(t) {
			out[k] = min(out[k], v)
		}
	}
	return out
}

// metrics reads the process's goroutine count and heap in use from its
// /metrics endpoint.
func (s *serveProcess) metrics(t *testing.T) map[string]float64 {
	t.Helper()
	out := s.series(t, "go_goroutines", "go_memstats_heap_inuse_bytes")
	require.Len(t, out, 2)
	return out
}

// series reads the named series (a name, with its labels if any) from the
// process's /metrics endpoint; one it does not export is left out.
func (s *serveProcess) series(t *testing.T, names ...string) map[string]float64 {
	t.Helper()
	req, err := http.NewRequest("GET", "http://"+s.addr+"/metrics", nil)
	require.NoError(t, err)
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		for _, name := range names {
			if v, ok := strings.CutPrefix(line, name+" "); ok {
				f, err := strconv.ParseFloat(v, 64)
				require.NoError(t, err)
				out[name] = f
			}
		}
	}
	return out
}
