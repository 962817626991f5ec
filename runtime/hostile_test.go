package runtime

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/host"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
)

// TestHostileCorpusIsFresh rebuilds every hostile .wasm from its .wat and
// fails when a committed file differs, so the sources stay the truth.
func TestHostileCorpusIsFresh(t *testing.T) {
	_, err := exec.LookPath("wat2wasm")
	require.NoError(t, err, "wat2wasm is needed to check the hostile corpus: apt-get install wabt")
	out := t.TempDir()
	cmd := exec.Command("sh", filepath.Join("testdata", "hostile", "gen.sh"), out)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Run())
	built, err := filepath.Glob(filepath.Join(out, "*.wasm"))
	require.NoError(t, err)
	require.NotEmpty(t, built)
	for _, b := range built {
		name := filepath.Base(b)
		committed, err := os.ReadFile(filepath.Join("testdata", "hostile", name))
		require.NoError(t, err, "%s is built from source but not committed", name)
		assert.True(t, bytes.Equal(readFile(t, b), committed), "testdata/hostile/%s is stale: run sh testdata/hostile/gen.sh", name)
	}
}

// TestHostileProbes runs each module of the hostile corpus and checks that
// it is contained: the right outcome, a clear message, an answer within
// the budget plus a small slack, and an engine that works afterwards.
func TestHostileProbes(t *testing.T) {
	blackHole := testnet.BlackHole(t)
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"SECRET_X": "s3cret"})))

	tests := []struct {
		module  string
		cfg     ProbeConfig
		outcome Outcome
		kind    ErrorKind // for Failed
		phase   string
		reason  string // a substring of Result.Reason
		check   func(t *testing.T, res Result)
	}{
		{module: "loop_probe", outcome: Failed, kind: KindOverrun, phase: "probe",
			reason: `probe "loop_probe" ran past its 100ms budget in probe`},
		{module: "loop_initialize", outcome: Failed, kind: KindOverrun, phase: "_initialize",
			reason: "ran past its 100ms budget in _initialize"},
		{module: "loop_start_section", outcome: Failed, kind: KindOverrun, phase: "instantiate",
			reason: "ran past its 100ms budget in instantiate"},
		{module: "loop_command", outcome: Failed, kind: KindOverrun, phase: "_start",
			reason: "ran past its 100ms budget in _start"},
		{module: "calltree", outcome: Failed, kind: KindOverrun, phase: "probe",
			reason: "ran past its 100ms budget in probe"},
		{module: "sleep", outcome: Failed, kind: KindOverrun, phase: "sleep",
			reason: "ran past its 100ms budget in sleep"},
		{module: "recursion", outcome: Failed, kind: KindTrap, phase: "probe",
			reason: `probe "recursion" trapped in probe: call stack too deep: over the 2 MiB stack limit`},
		{module: "touch_pages", outcome: Failed, kind: KindOverrun, phase: "probe",
			reason: "ran past its 100ms budget in probe"},
		{module: "unreachable", outcome: Failed, kind: KindTrap, phase: "probe",
			reason: `probe "unreachable" trapped in probe: wasm error: unreachable`},
		{module: "abort", outcome: Failed, kind: KindTrap, phase: "probe",
			reason: "probe \"abort\" trapped in probe: abort: boom\uFFFD\uFFFD[2J at assembly/index.ts:3:5", check: func(t *testing.T, res Result) {
				var abort *host.AbortError
				require.ErrorAs(t, res.Err, &abort)
				assert.Equal(t, uint32(3), abort.Line)
			}},
		{module: "bad_status", outcome: Failed, kind: KindStatus, phase: "probe",
			reason: `probe "bad_status" returned 7 (want 0 available or 1 unavailable)`},
		{module: "bad_pointer", outcome: Failed, kind: KindABI, phase: "probe",
			reason: `misused the ABI in probe: gate.env: name (ptr=0x7fff0000, len=16) is outside the probe's memory of 65536 bytes`},
		{module: "grow", outcome: Unavailable, reason: "512", check: func(t *testing.T, res Result) {
			assert.Equal(t, "512", res.Reason, "memory.grow must stop at the 32 MiB cap (512 pages)")
		}},
		{module: "reason_1mib", outcome: Unavailable, check: func(t *testing.T, res Result) {
			assert.Equal(t, strings.Repeat("x", host.MaxReason), res.Reason)
		}},
		{module: "log_flood", outcome: Available, check: func(t *testing.T, res Result) {
			assert.Len(t, res.Logs, host.MaxLogs)
			assert.Equal(t, 10000-host.MaxLogs, res.LogsDropped)
			assert.Equal(t, hostfuncs.LogEntry{Level: hostfuncs.LevelWarn, Message: "flood"}, res.Logs[0])
		}},
		{module: "stdout_flood", outcome: Available, check: func(t *testing.T, res Result) {
			assert.Less(t, len(res.Output), outputHead+outputTail+100)
			assert.Contains(t, res.Output, "bytes dropped")
			assert.True(t, strings.HasPrefix(res.Output, "oooo"))
		}},
		{module: "ask", cfg: ProbeConfig{Config: map[string]string{"op": "env", "arg": "SECRET_X"}},
			// The probe's own reason wins; the denial is always reported.
			outcome: Unavailable, reason: "status -2", check: func(t *testing.T, res Result) {
				assert.Equal(t, []string{`env "SECRET_X" not granted to probe "ask"`}, res.Denials)
			}},
		{module: "ask", cfg: ProbeConfig{Config: map[string]string{"op": "env", "arg": "SECRET_X"}, Grants: hostfuncs.Grants{Env: []string{"SECRET_*"}}},
			outcome: Available},
		{module: "ask", cfg: ProbeConfig{Config: map[string]string{"op": "dial", "arg": "127.0.0.1:22"}},
			outcome: Unavailable, reason: "status -2", check: func(t *testing.T, res Result) {
				assert.Equal(t, []string{`dial "127.0.0.1:22" not granted to probe "ask"`}, res.Denials)
			}},
		{module: "ask", cfg: ProbeConfig{Config: map[string]string{"op": "import", "arg": "bin:sh"}},
			outcome: Unavailable, reason: "status -2", check: func(t *testing.T, res Result) {
				assert.Equal(t, []string{`import "bin:sh" not granted to probe "ask"`}, res.Denials)
			}},
		{module: "ask", cfg: ProbeConfig{Config: map[string]string{"op": "dial", "arg": blackHole}, Grants: hostfuncs.Grants{Dial: []string{blackHole}}},
			// The dial is clipped to the budget less a reserve, so the
			// probe still answers, honestly, that it timed out.
			outcome: Unavailable, reason: "status -4"},
		// 2 is the SDKs' answer for "the probe itself failed" (GATE_ERROR,
		// sdk.Failed): its reason is the error's; any other answer is an
		// error too, and says its number.
		{module: "answer", cfg: ProbeConfig{Config: map[string]string{"status": "2", "reason": "config \"addr\" is not set"}},
			outcome: Failed, kind: KindStatus, phase: "probe", reason: `probe "answer" raised: config "addr" is not set`, check: func(t *testing.T, res Result) {
				assert.Equal(t, `probe "answer" raised: config "addr" is not set`, res.Reason)
			}},
		{module: "answer", cfg: ProbeConfig{Config: map[string]string{"status": "2"}},
			outcome: Failed, kind: KindStatus, phase: "probe", reason: `probe "answer" returned 2 (want 0 available or 1 unavailable)`},
		{module: "answer", cfg: ProbeConfig{Config: map[string]string{"status": "3", "reason": "odd"}},
			outcome: Failed, kind: KindStatus, phase: "probe", reason: `probe "answer" raised: odd (status 3)`},
		{module: "exit_code", cfg: ProbeConfig{Config: map[string]string{"code": "0"}}, outcome: Available},
		{module: "exit_code", cfg: ProbeConfig{Config: map[string]string{"code": "1"}}, outcome: Unavailable},
		{module: "exit_code", cfg: ProbeConfig{Config: map[string]string{"code": "3"}}, outcome: Failed, kind: KindStatus, phase: "_start",
			reason: `probe "exit_code" exited with code 3 (want 0 available or 1 unavailable)`},
	}
	for _, tt := range tests {
		t.Run(tt.module+"/"+tt.cfg.Config["op"]+tt.cfg.Config["code"]+tt.cfg.Config["status"], func(t *testing.T) {
			res := runTimed(t, hostileProbe(t, e, tt.module, tt.cfg))

			assert.Equal(t, tt.outcome, res.Outcome, "reason: %s", res.Reason)
			assert.Contains(t, res.Reason, tt.reason)
			if tt.outcome == Failed {
				var perr *ProbeError
				require.ErrorAs(t, res.Err, &perr)
				assert.Equal(t, tt.kind, perr.Kind)
				assert.Equal(t, tt.phase, perr.Phase)
				assert.Equal(t, tt.kind == KindOverrun, errors.Is(res.Err, context.DeadlineExceeded))
			} else {
				assert.NoError(t, res.Err)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
			assertHealthy(t, e)
		})
	}
}

// TestLoadRefusals: modules that must never reach a run, each refused with
// every problem named.
func TestLoadRefusals(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	tests := []struct {
		module string
		want   []string
	}{
		{"bigmin", []string{"memory minimum is 4096 pages (256 MiB), over the probe memory cap of 512 pages (32 MiB)"}},
		{"unknown_import", []string{
			"imports gate.exec, which the probe ABI does not have (it has env, dial, import, config, reason, log, connect, send, recv, close, http, http_status, http_header, http_body, tls, last_error)",
			"imports env.system, which the probe ABI does not have (it has abort)",
			`imports func "libc"."system": probes may import only from "gate", "wasi_snapshot_preview1" and "env"`,
		}},
		{"no_entry", []string{`no entry point: export "probe" () -> i32 (a reactor) or "_start" () -> () (a command)`}},
		{"truncated", []string{"wasm: "}},
		{"notwasm", []string{"wasm: "}},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			_, err := e.CompileFile(context.Background(), hostilePath(tt.module))
			require.Error(t, err)
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, hostilePath(tt.module), le.Module)
			assert.Contains(t, err.Error(), hostilePath(tt.module))
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assertHealthy(t, e)
		})
	}
}

// TestManyBusyGuests starts 32 busy guests at once on however many cores
// the machine has: each is stopped at its budget, measured from when it
// started running (they queue for execution slots), and the engine works
// afterwards.
func TestManyBusyGuests(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	p := hostileProbe(t, e, "loop_probe", ProbeConfig{})
	budget := e.Config().Budget()
	results := make([]Result, 32)
	stop := schedNoise(t)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = p.Run(context.Background())
		}()
	}
	wg.Wait()
	noise := stop()
	for i, res := range results {
		assert.Equal(t, Failed, res.Outcome, "guest %d", i)
		assert.ErrorIs(t, res.Err, context.DeadlineExceeded, "guest %d", i)
		assertAnsweredInTime(t, res.Elapsed, budget, noise, "guest %d", i)
	}
	assertHealthy(t, e)
}

// TestCallTreeGuestsLeaveTheCPUIdle: eight guests whose work is a loop-free
// exponential call tree (which wazero's own context check never sees) are
// all stopped, and afterwards the process uses no CPU: nothing runs on.
func TestCallTreeGuestsLeaveTheCPUIdle(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	p := hostileProbe(t, e, "calltree", ProbeConfig{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := p.Run(context.Background())
			assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
		}()
	}
	wg.Wait()
	// The measurement, not a wait: a stopped guest uses nothing in the
	// window; a busy machine only lends the process less CPU.
	time.Sleep(20 * time.Millisecond) // let the runtime settle
	before := cpuTime(t)
	time.Sleep(300 * time.Millisecond)
	used := cpuTime(t) - before
	// One runaway guest would use the whole 300 ms of a core.
	assert.Less(t, used, 60*time.Millisecond, "the process kept using CPU after every probe answered")
	assertHealthy(t, e)
}

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
