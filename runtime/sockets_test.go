package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/host"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testsvc"
)

// socketsChildEnv carries the Redis address to the re-executed test
// binary of TestProbesOutOfSocketsNeverAnswerUnreachable.
const socketsChildEnv = "GATE_SOCKETS_CHILD_REDIS"

// socketsChildLimit is the descriptor limit the child runs under: 40
// tools each holding 8 streams want 320 sockets, more than it has.
const socketsChildLimit = 256

// TestProbesOutOfSocketsNeverAnswerUnreachable: under a low descriptor
// limit, tools that each hold their 8 streams for their whole budget must
// not make innocent tools (the standard tcp probe's gate.dial, the
// standard redis probe's gate.connect) answer "unavailable": a host out
// of sockets says nothing about the service. They answer available, or
// raise naming the host's bound; once the holders are done, every
// innocent tool answers available again (no socket's slot is lost).
//
// The probes run in a child process (this test binary again) whose
// RLIMIT_NOFILE is lowered before its first socket; the real Redis they
// talk to runs outside it, so that its side of each connection takes none
// of the child's descriptors.
func TestProbesOutOfSocketsNeverAnswerUnreachable(t *testing.T) {
	if addr := os.Getenv(socketsChildEnv); addr != "" {
		socketsChild(t, addr)
		return
	}
	addr := testsvc.Redis(t, "")
	cmd := exec.Command(os.Args[0], "-test.run=^TestProbesOutOfSocketsNeverAnswerUnreachable$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), socketsChildEnv+"="+addr)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	require.NoError(t, err, "the child's assertions failed (see its output)")
	require.Contains(t, string(out), "--- PASS: TestProbesOutOfSocketsNeverAnswerUnreachable", "the child ran")
}

func socketsChild(t *testing.T, addr string) {
	ctx := context.Background()
	lim := syscall.Rlimit{Cur: socketsChildLimit, Max: socketsChildLimit}
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	require.Equal(t, socketsChildLimit/host.SocketShare, host.SocketBound(), "the bound is a share of the lowered limit")

	e := newEngine(t, NewEngineConfig())
	holder := hostileModule(t, e, "hold_streams")
	var holders, innocents []*Probe
	for i := range 40 {
		p, err := e.NewProbe(ctx, fmt.Sprint("holder", i), holder, ProbeConfig{
			Grants: hostfuncs.Grants{Dial: []string{addr}}, Config: map[string]string{"addr": addr}})
		require.NoError(t, err)
		holders = append(holders, p)
	}
	for i := range 30 {
		for _, kind := range []string{"tcp", "redis"} {
			p, err := e.StandardProbe(ctx, fmt.Sprint(kind, i), kind+":"+addr, ProbeConfig{})
			require.NoError(t, err)
			innocents = append(innocents, p)
		}
	}

	outcomes := map[string]int{}
	for range 5 {
		var wg sync.WaitGroup
		for _, p := range holders {
			wg.Add(1)
			go func() { defer wg.Done(); p.Run(ctx) }()
		}
		// The holders connect first, so that the innocent tools meet a
		// process whose sockets are taken; a late start only makes the
		// round press less.
		time.Sleep(10 * time.Millisecond)
		var mu sync.Mutex
		for _, p := range innocents {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := p.Run(ctx)
				mu.Lock()
				defer mu.Unlock()
				switch res.Outcome {
				case Available:
					outcomes["available"]++
				case Unavailable:
					outcomes["unavailable"]++
					t.Errorf("%s answered unavailable while the host was out of sockets: %s", p.Name(), res.Reason)
				case Failed:
					// Named the bound, or got its socket late and then
					// ran out of time talking: either way, not a "no".
					key := "raised: " + res.Reason[strings.LastIndex(res.Reason, ": ")+2:]
					if strings.Contains(res.Reason, "open sockets across all probes is reached") {
						key = "raised, naming the bound"
					}
					if outcomes[key] == 0 {
						t.Logf("%s %s", key, res.Reason)
					}
					outcomes[key]++
				}
			}()
		}
		wg.Wait()
	}
	t.Logf("innocent runs under pressure: %v", outcomes)

	// Every slot came back: alone, every innocent tool gets through.
	for _, p := range innocents {
		res := p.Run(ctx)
		assert.Equal(t, Available, res.Outcome, "%s after the holders: %s %v", p.Name(), res.Reason, res.Err)
	}
}
