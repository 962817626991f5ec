package runtime

import (
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
)

// goBuilds holds one build per Go package, shared by the tests and
// benchmarks of this binary: a wasip1 build takes seconds.
var goBuilds sync.Map // package path -> *goBuild

type goBuild struct {
	once sync.Once
	wasm []byte
	err  error
}

// buildGoWasm builds a Go package (a path relative to this package, like
// "./testdata/goprobe") as a wasip1 reactor, once per test binary.
func buildGoWasm(t testing.TB, pkg string) []byte {
	t.Helper()
	v, _ := goBuilds.LoadOrStore(pkg, &goBuild{})
	b := v.(*goBuild)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "gobuild")
		if err != nil {
			b.err = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "probe.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
			return
		}
		b.wasm, b.err = os.ReadFile(out)
	})
	require.NoError(t, b.err)
	return b.wasm
}

// TestGoGuest runs a real Go-built probe: its runtime initialises in
// _initialize (outside the run, by the warm-up) and sleeps on gate's WASI,
// and a panic, a sleep, a busy loop, a memory bomb and a crypto/rand loop
// are each contained and explained.
func TestGoGuest(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"GOPROBE_VAR": "x"})))
	m, err := e.Compile(ctx, "goprobe.wasm", buildGoWasm(t, "./testdata/goprobe"))
	require.NoError(t, err)
	assert.Equal(t, inspect.Reactor, m.entry)
	budget := e.Config().Budget()

	tests := []struct {
		mode    string
		outcome Outcome
		kinds   []ErrorKind
		reason  string
	}{
		{"ok", Available, nil, ""},
		{"env", Available, nil, ""},
		{"panic", Failed, []ErrorKind{KindTrap}, "trapped in probe: wasm error: unreachable (stderr: panic: probe exploded"},
		{"sleep", Failed, []ErrorKind{KindOverrun}, "ran past its 100ms budget in sleep"},
		{"busy", Failed, []ErrorKind{KindOverrun}, "ran past its 100ms budget in probe"},
		// The Go runtime runs out of the 32 MiB cap ("fatal error: out of
		// memory", a trap) unless faulting in the pages takes longer than
		// the budget first; both are contained.
		{"alloc", Failed, []ErrorKind{KindTrap, KindOverrun}, ""},
		// crypto/rand is WASI random_get, which checks the budget.
		{"rand", Failed, []ErrorKind{KindOverrun}, "ran past its 100ms budget in "},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			p, err := e.NewProbe(ctx, "goprobe", m, ProbeConfig{
				Config: map[string]string{"mode": tt.mode},
				Grants: hostfuncs.Grants{Env: []string{"GOPROBE_VAR"}},
			})
			require.NoError(t, err)
			stop := schedNoise(t)
			res := p.Run(ctx)
			assertAnsweredInTime(t, res.Elapsed, budget, stop())
			assert.Equal(t, tt.outcome, res.Outcome, "%s", res.Reason)
			assert.Contains(t, res.Reason, tt.reason)
			if tt.outcome == Failed {
				var perr *ProbeError
				require.ErrorAs(t, res.Err, &perr)
				assert.Contains(t, tt.kinds, perr.Kind)
				if perr.Kind == KindTrap && tt.mode == "alloc" {
					assert.Contains(t, res.Output, "out of memory")
				}
			} else {
				again := p.Run(ctx)
				assert.Equal(t, tt.outcome, again.Outcome)
				assert.False(t, again.Fresh)
			}
			assertHealthy(t, e)
		})
	}
}
