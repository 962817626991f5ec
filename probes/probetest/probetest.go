// Package probetest checks a probe module against probe ABI v1, as
// testing/slogtest checks a slog.Handler: a probe author calls Test from a
// go test, and every way the module breaks the contract is reported at
// once, each as its own failure.
//
//	func TestProbe(t *testing.T) {
//		wasm, _ := os.ReadFile("db.wasm")
//		probetest.Test(t, wasm, probetest.Options{
//			Grants: hostfuncs.Grants{Env: []string{"DATABASE_URL"}},
//			Cases: []probetest.Case{
//				{Name: "set", Env: map[string]string{"DATABASE_URL": "postgres://"}, Want: runtime.Available},
//				{Name: "unset", Want: runtime.Unavailable},
//			},
//		})
//	}
//
// The rules, beyond what the module looks like (runtime.Inspect: one
// exported memory, one entry point of the right type, only ABI imports,
// a minimum memory within the cap):
//
//   - it loads: the engine can meter and compile it;
//   - each case answers within the budget, without trapping, misusing a
//     host function or answering anything but 0 or 1;
//   - each case gives the outcome the case wants;
//   - an "unavailable" answer comes with a reason;
//   - it asks for nothing its grants leave out (a denial means the
//     manifest would need a grant the author did not list);
//   - a reactor answers the same on a reused instance as on a fresh one,
//     since the engine keeps instances between runs.
package probetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/runtime"
)

// Options are the conditions of the check.
type Options struct {
	// Grants are what the probe will be granted in its manifest.
	Grants hostfuncs.Grants
	// Config is its config, shared by every case.
	Config map[string]string
	// Cases are the situations to run it in; none means one run with Config
	// and an empty environment, in which any answer but an error passes.
	Cases []Case
	// MemoryLimit and Budget default to the engine's defaults.
	MemoryLimit uint64
	Budget      time.Duration
}

// Case is one situation and the answer it must give.
type Case struct {
	Name string
	// Env is the whole environment gate.env sees (never the process's).
	Env map[string]string
	// Config is merged over Options.Config.
	Config map[string]string
	// Want is the outcome the probe must give.
	Want runtime.Outcome
}

// Violation is one broken rule.
type Violation struct {
	Case string // "" for a rule about the module itself
	Rule string
	Msg  string
}

func (v *Violation) Error() string {
	if v.Case == "" {
		return v.Msg
	}
	return fmt.Sprintf("case %q: %s", v.Case, v.Msg)
}

// Test runs Check and reports each violation as a separate t.Error.
func Test(t testing.TB, wasm []byte, opts Options) {
	t.Helper()
	for _, v := range Check(context.Background(), wasm, opts) {
		t.Error(v.Error())
	}
}

// Check returns every violation, or none when the module conforms.
func Check(ctx context.Context, wasm []byte, opts Options) []*Violation {
	var out []*Violation
	add := func(c, rule, format string, args ...any) {
		out = append(out, &Violation{Case: c, Rule: rule, Msg: fmt.Sprintf(format, args...)})
	}

	cfg := runtime.NewEngineConfig()
	if opts.MemoryLimit > 0 {
		cfg = cfg.WithMemoryLimit(opts.MemoryLimit)
	}
	if opts.Budget > 0 {
		cfg = cfg.WithBudget(opts.Budget)
	}
	info, err := runtime.Inspect(wasm, cfg)
	if err != nil {
		add("", "format", "not a WebAssembly module: %v", err)
		return out
	}
	for _, v := range info.Violations {
		add("", v.Rule, "%s", v.Msg)
	}
	if len(out) > 0 {
		return out
	}

	env := &swappableEnv{}
	engine, err := runtime.NewEngine(ctx, cfg.WithLookupEnv(env.lookup))
	if err != nil {
		add("", "engine", "%v", err)
		return out
	}
	defer engine.Close(ctx)
	mod, err := engine.Compile(ctx, "probe", wasm)
	if err != nil {
		add("", "load", "%v", err)
		return out
	}

	cases := opts.Cases
	anyAnswer := len(cases) == 0
	if anyAnswer {
		cases = []Case{{Name: "default"}}
	}
	for _, c := range cases {
		config := maps.Clone(opts.Config)
		if config == nil {
			config = map[string]string{}
		}
		maps.Copy(config, c.Config)
		probe, err := engine.NewProbe(ctx, "probe", mod, runtime.ProbeConfig{Grants: opts.Grants, Config: config})
		if err != nil {
			add(c.Name, "grants", "%v", err)
			continue
		}
		env.set(c.Env)
		fresh := probe.Run(ctx)
		checkResult(c, fresh, anyAnswer, add)
		if fresh.Outcome != runtime.Failed && mod.Entry() == runtime.Reactor {
			again := probe.Run(ctx)
			if again.Fresh {
				add(c.Name, "reuse", "the engine could not reuse the instance of a healthy run")
			} else if again.Outcome != fresh.Outcome || again.Reason != fresh.Reason {
				add(c.Name, "reuse", "answers %s (%q) on a reused instance but %s (%q) on a fresh one; a reactor must not keep state between runs",
					again.Outcome, again.Reason, fresh.Outcome, fresh.Reason)
			}
		}
		probe.Close(ctx)
	}
	return out
}

func checkResult(c Case, res runtime.Result, anyAnswer bool, add func(c, rule, format string, args ...any)) {
	var perr *runtime.ProbeError
	if errors.As(res.Err, &perr) {
		rule := map[runtime.ErrorKind]string{
			runtime.KindOverrun: "budget", runtime.KindTrap: "trap", runtime.KindABI: "abi",
			runtime.KindStatus: "status", runtime.KindCanceled: "budget",
		}[perr.Kind]
		add(c.Name, rule, "%v", perr)
		if res.Output != "" {
			add(c.Name, rule, "its output was:\n%s", res.Output)
		}
		return
	}
	if !anyAnswer && res.Outcome != c.Want {
		add(c.Name, "outcome", "answers %s (%q), want %s", res.Outcome, res.Reason, c.Want)
	}
	if res.Outcome == runtime.Unavailable && res.Reason == "" {
		add(c.Name, "reason", "answers unavailable without a reason (call gate.reason)")
	}
	for _, d := range res.Denials {
		add(c.Name, "grants", "%s (add it to the grants if the probe needs it)", d)
	}
}

// swappableEnv is the environment of the current case; cases run one at a
// time.
type swappableEnv struct {
	mu  sync.Mutex
	env map[string]string
}

func (e *swappableEnv) set(env map[string]string) {
	e.mu.Lock()
	e.env = env
	e.mu.Unlock()
}

func (e *swappableEnv) lookup(k string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.env[k]
	return v, ok
}
