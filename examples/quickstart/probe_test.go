package quickstart_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

// probeCase is one situation for requires.wasm: the environment and config
// it runs with, the outcome it must give and the probe's own reason (for an
// error, the runtime's message quotes it: "probe "x" raised: REASON"; the
// probe also logs it).
type probeCase struct {
	name   string
	env    map[string]string
	config map[string]string
	want   runtime.Outcome
	reason string
}

// TestRequiresProbe runs requires.wasm through probetest (the ABI, each
// case's outcome, reasons present, nothing asked beyond the grants, the
// same answer on a reused instance) and through an engine of its own to
// check each reason word for word.
func TestRequiresProbe(t *testing.T) {
	wasm, err := os.ReadFile(requiresWasm)
	require.NoError(t, err)

	up := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	down := testnet.ClosedAddr(t)
	hole := testnet.BlackHole(t)
	sock := testnet.Listen(t, "unix", t.TempDir()+"/docker.sock").Addr().String()
	const missingPy, missingBin = "py:gate_quickstart_no_such_module", "bin:gate-quickstart-no-such-program"

	var long []string
	for i := range 100 {
		long = append(long, fmt.Sprintf("LONG_%03d_%s", i, strings.Repeat("X", 20)))
	}
	set := map[string]string{"A": "1", "B": "2"}

	cases := []probeCase{
		// env
		{name: "env set", env: set, config: map[string]string{"env": "A, B"}, want: runtime.Available},
		{name: "env missing", env: map[string]string{"B": "2"}, config: map[string]string{"env": "A B"},
			want: runtime.Unavailable, reason: "Missing environment variables: A"},
		{name: "env empty counts as missing", env: map[string]string{"A": ""}, config: map[string]string{"env": "A,B"},
			want: runtime.Unavailable, reason: "Missing environment variables: A, B"},
		{name: "env reason override", config: map[string]string{"env": "DATABASE_URL", "reason_env": "DATABASE_URL not configured"},
			want: runtime.Unavailable, reason: "DATABASE_URL not configured"},
		{name: "env reason with {}", config: map[string]string{"env": "A,B", "reason_env": "need {} (both: {})"},
			want: runtime.Unavailable, reason: "need A, B (both: A, B)"},
		{name: "a long list is cut and says so", config: map[string]string{"env": strings.Join(long, ",")},
			want: runtime.Unavailable, reason: "Missing environment variables: " + strings.Join(long[:15], ", ") + ", and 85 more"},

		// imports
		{name: "imports found", config: map[string]string{"imports": "py:json bin:sh"}, want: runtime.Available},
		{name: "imports missing", config: map[string]string{"imports": "py:json," + missingPy + "," + missingBin},
			want: runtime.Unavailable, reason: "Missing imports: " + missingPy + ", " + missingBin},
		{name: "imports reason with {}", config: map[string]string{"imports": missingPy + " py:json", "reason_imports": "Missing ML dependencies: {}"},
			want: runtime.Unavailable, reason: "Missing ML dependencies: " + missingPy},

		// dial
		{name: "dial open", config: map[string]string{"dial": up}, want: runtime.Available},
		{name: "dial unix socket", config: map[string]string{"dial": "unix:" + sock}, want: runtime.Available},
		{name: "dial closed", config: map[string]string{"dial": up + "," + down}, want: runtime.Unavailable, reason: down + ": connection refused"},
		{name: "dial reason with {}", config: map[string]string{"dial": down, "reason_dial": "Docker unavailable: {}"},
			want: runtime.Unavailable, reason: "Docker unavailable: " + down + ": connection refused"},
		{name: "dial timed out", config: map[string]string{"dial": hole}, want: runtime.Unavailable, reason: hole + ": timed out"},

		// transient: a failed dial raises instead of answering unavailable
		{name: "transient refused raises", config: map[string]string{"dial": down, "transient": "refused,timeout,unreachable", "reason_dial": "Network unreachable"},
			want: runtime.Failed, reason: "Network unreachable"},
		{name: "transient timeout raises", config: map[string]string{"dial": hole, "transient": "timeout"},
			want: runtime.Failed, reason: hole + ": timed out"},
		{name: "a refusal that is not transient is an answer", config: map[string]string{"dial": down, "transient": "timeout unreachable"},
			want: runtime.Unavailable, reason: down + ": connection refused"},
		{name: "transient and up", config: map[string]string{"dial": up, "transient": "refused"}, want: runtime.Available},

		// order: env, imports, dial; the first kind that fails answers
		{name: "all three pass", env: set, config: map[string]string{"env": "A", "imports": "py:json", "dial": up}, want: runtime.Available},
		{name: "env before imports and dial", config: map[string]string{"env": "A", "imports": missingPy, "dial": down, "transient": "refused"},
			want: runtime.Unavailable, reason: "Missing environment variables: A"},
		{name: "imports before dial", env: set, config: map[string]string{"env": "A", "imports": missingPy, "dial": down, "transient": "refused"},
			want: runtime.Unavailable, reason: "Missing imports: " + missingPy},
		{name: "dial last", env: set, config: map[string]string{"env": "A", "imports": "py:json", "dial": down, "reason_env": "unused"},
			want: runtime.Unavailable, reason: down + ": connection refused"},

		// config mistakes are errors: the probe can't ask what it was meant to
		{name: "no config", want: runtime.Failed,
			reason: "requires probe: config names nothing to check: set env, imports and/or dial"},
		{name: "only reasons", config: map[string]string{"reason_env": "x"}, want: runtime.Failed,
			reason: "requires probe: config names nothing to check: set env, imports and/or dial"},
		{name: "a key that lists nothing", config: map[string]string{"env": "A", "dial": " , "}, want: runtime.Failed,
			reason: `requires probe: config "dial" lists nothing; leave it out instead`},
		{name: "unknown transient outcome", config: map[string]string{"env": "A", "transient": "refused, flaky"}, want: runtime.Failed,
			reason: `requires probe: config "transient" names an unknown outcome (want refused, timeout or unreachable): "flaky"`},
		{name: "bad address", config: map[string]string{"dial": "localhost"}, want: runtime.Failed,
			reason: `requires probe: config "dial" names a bad address (want host:port or unix:/path): "localhost"`},
	}
	grants := hostfuncs.Grants{
		Env:    []string{"A", "B", "DATABASE_URL", "LONG_*"},
		Import: []string{"py:json", "bin:sh", missingPy, missingBin},
		Dial:   []string{up, down, hole, "unix:" + sock},
	}

	t.Run("probetest", func(t *testing.T) {
		var pcs []probetest.Case
		for _, c := range cases {
			pcs = append(pcs, probetest.Case{Name: c.name, Env: c.env, Config: c.config, Want: c.want})
		}
		// A case that wants runtime.Failed must raise on purpose (answer 2
		// with a reason); probetest reports any other outcome.
		for _, v := range probetest.Check(context.Background(), wasm, probetest.Options{Grants: grants, Cases: pcs}) {
			t.Error(v.Error())
		}
	})

	t.Run("reasons", func(t *testing.T) {
		ctx := context.Background()
		env := &caseEnv{}
		engine, err := runtime.NewEngine(ctx, runtime.NewEngineConfig().WithLookupEnv(env.lookup))
		require.NoError(t, err)
		defer engine.Close(ctx)
		mod, err := engine.Compile(ctx, "requires.wasm", wasm)
		require.NoError(t, err)
		for _, c := range cases {
			config := c.config
			if config == nil {
				config = map[string]string{}
			}
			probe, err := engine.NewProbe(ctx, "requires", mod, runtime.ProbeConfig{Grants: grants, Config: config})
			require.NoError(t, err)
			env.set(c.env)
			res := probe.Run(ctx)
			probe.Close(ctx)
			if !assert.Equal(t, c.want, res.Outcome, "case %q: %s", c.name, res.Reason) {
				continue
			}
			if c.want != runtime.Failed {
				assert.Equal(t, c.reason, res.Reason, "case %q", c.name)
				assert.LessOrEqual(t, len(res.Reason), 1024, "case %q", c.name)
				continue
			}
			var perr *runtime.ProbeError
			if assert.ErrorAs(t, res.Err, &perr, "case %q", c.name) {
				assert.Equal(t, runtime.KindStatus, perr.Kind, "case %q", c.name)
				assert.EqualValues(t, 2, perr.Status, "case %q", c.name)
			}
			if assert.Len(t, res.Logs, 1, "case %q: a raise logs its reason", c.name) {
				assert.Equal(t, c.reason, res.Logs[0].Message, "case %q", c.name)
			}
		}
	})

	t.Run("denied dial", func(t *testing.T) {
		// Not a probetest case: asking beyond the grants is what probetest
		// reports. The host's sentence naming the grant is the reason.
		ctx := context.Background()
		engine, err := runtime.NewEngine(ctx, runtime.NewEngineConfig())
		require.NoError(t, err)
		defer engine.Close(ctx)
		mod, err := engine.Compile(ctx, "requires.wasm", wasm)
		require.NoError(t, err)
		probe, err := engine.NewProbe(ctx, "docker_command", mod, runtime.ProbeConfig{
			Config: map[string]string{"dial": "unix:/var/run/docker.sock", "reason_dial": "Docker unavailable: {}"}})
		require.NoError(t, err)
		defer probe.Close(ctx)
		res := probe.Run(ctx)
		assert.Equal(t, runtime.Unavailable, res.Outcome)
		assert.Equal(t, `dial "unix:/var/run/docker.sock" not granted to probe "docker_command"`, res.Reason)
	})
}

// caseEnv is the environment gate.env sees in the current case.
type caseEnv struct {
	mu  sync.Mutex
	env map[string]string
}

func (e *caseEnv) set(env map[string]string) {
	e.mu.Lock()
	e.env = env
	e.mu.Unlock()
}

func (e *caseEnv) lookup(k string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.env[k]
	return v, ok
}
