package runtime

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
)

// TestCostlyTLSPeerSharesTheEngine: probes whose TLS peer presents a chain
// that would cost most of a second of CPU to verify (testnet.Chains.Costly),
// through gate.connect and gate.http, run on one engine beside probes of an
// honest https peer. Each costly run answers unavailable with the refusal,
// which names the peer's host and port and nothing it wrote; the honest
// runs answer available; and once the runs are over no goroutine of the
// process is still checking a signature.
func TestCostlyTLSPeerSharesTheEngine(t *testing.T) {
	ch := testnet.TLSChains(t)
	costly := testsvc.ServeTLSWith(t, ch.Costly, testnet.AnswerNoContent)
	honest := testsvc.ServeTLSWith(t, ch.Honest, testnet.AnswerNoContent)
	e := newEngine(t, NewEngineConfig())
	grants := hostfuncs.Grants{Dial: []string{"127.0.0.1:*"}, HTTP: []string{"https://127.0.0.1:*"}}
	probe := func(config map[string]string) *Probe {
		return talkProbe(t, e, ProbeConfig{Grants: grants, Config: config, TLSRootCAs: ch.Roots})
	}
	hostile := []*Probe{
		probe(map[string]string{"mode": "keep", "addr": "tls:" + costly}),
		probe(map[string]string{"mode": "http", "req": "GET https://" + costly + "/\n"}),
	}
	good := probe(map[string]string{"mode": "http", "req": "GET https://" + honest + "/\n"})

	const rounds = 10
	var (
		mu      sync.Mutex
		results = map[*Probe][]Result{}
		wg      sync.WaitGroup
	)
	run := func(p *Probe) {
		defer wg.Done()
		for range rounds {
			res := p.Run(context.Background())
			mu.Lock()
			results[p] = append(results[p], res)
			mu.Unlock()
		}
	}
	for _, p := range hostile {
		wg.Add(1)
		go run(p)
	}
	for range 2 {
		wg.Add(1)
		go run(good)
	}
	wg.Wait()
	assert.False(t, testnet.Verifying(), "a signature check outlived the runs")

	for _, p := range hostile {
		require.Len(t, results[p], rounds)
		for _, res := range results[p] {
			assert.NotContains(t, res.Reason, testnet.HostileSubject)
			if res.Elapsed >= lateLimit*p.Budget() {
				// The machine kept the run off the CPU past the late
				// limit: it was stopped, or timed out, before the peer's
				// 64 KiB came, and that answer is the machine's.
				continue
			}
			require.Equal(t, Unavailable, res.Outcome, "after %v: %v %s", res.Elapsed, res.Err, res.Reason)
			assert.Contains(t, res.Reason, "tls: "+costly+": certificate chain refused before verification: the peer sent over 64 KiB before its handshake ended")
		}
	}
	require.Len(t, results[good], 2*rounds)
	// As in TestAnswersUnderLoad: an honest run that failed is the
	// machine's only when it kept the run off the CPU past the late
	// limit; short of that it is a wrong answer.
	var wrong []string
	machineLate := 0
	for _, res := range results[good] {
		switch {
		case res.Outcome == Available:
		case res.Elapsed >= lateLimit*good.Budget():
			machineLate++
		default:
			wrong = append(wrong, fmt.Sprintf("%v after %v: %s", res.Outcome, res.Elapsed, res.Reason))
		}
	}
	assert.Empty(t, wrong, "honest runs that did not answer available, short of the late limit")
	assert.LessOrEqual(t, machineLate, len(results[good])/10, "the machine kept a tenth of the honest runs off the CPU past the late limit")
}
