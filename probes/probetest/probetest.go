// Package probetest checks a probe module against the probe ABI, as
// testing/slogtest checks a slog.Handler: a probe author calls Test from a
// go test, and every way the module breaks the contract is reported at
// once, each as its own failure, under the subtest of its case
// (TestProbe/set, TestProbe/unset below; go test -run 'TestProbe/unset'
// runs that case alone).
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
// The rules, beyond what the module looks like (checked as the engine
// checks it at load: one exported memory, one entry point of the right
// type, only ABI imports, a minimum memory within the cap):
//
//   - it loads: the engine can meter and compile it;
//   - each case answers within the budget, without trapping, misusing a
//     host function or answering anything but 0 or 1 (or 2, GATE_ERROR,
//     when the case wants runtime.Failed: the probe raises on purpose);
//   - each case gives the outcome the case wants (a run that ends at its
//     budget without it is tried twice more first: a loaded machine, not
//     the probe, may have starved it);
//   - its fake peers (Case.Peers) see what their scripts expect;
//   - no secret's value (Case.Secrets) shows in the run's reason, logs,
//     notes, denials, error or output;
//   - an "unavailable" answer comes with a reason;
//   - it asks for nothing its grants leave out (a denial means the
//     manifest would need a grant the author did not list), and sends a
//     secret only where the grants bind it (a placeholder for anywhere
//     else is refused, and reported with the destination to bind);
//   - a reactor answers the same on a reused instance as on a fresh one,
//     since the engine keeps instances between runs.
//
// A probe that talks to services (ABI v2) is tested against fake peers
// instead of servers: a Script that expects and sends bytes, a Handler
// that serves HTTP (and HTTPS), or Refuse:
//
//	probetest.Test(t, wasm, probetest.Options{
//		Grants: hostfuncs.Grants{
//			Dial:    []string{"127.0.0.1:6379"},
//			Secrets: map[string][]string{"TOKEN": {"127.0.0.1:6379"}}, // sent there alone
//		},
//		Cases: []probetest.Case{{
//			Name:    "pong",
//			Secrets: map[string]string{"TOKEN": "s3cret"},
//			Peers: map[string]probetest.Peer{"127.0.0.1:6379": probetest.Script(
//				probetest.Expect("AUTH ${secret:TOKEN}\r\nPING\r\n"),
//				probetest.Send("+OK\r\n+PONG\r\n"),
//			)},
//			Want: runtime.Available,
//		}},
//	})
package probetest

import (
	"context"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	"github.com/gate-dev/gate/internal/limits"
	"maps"
	gonet "net"
	"slices"
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
	// Peers are fake services shared by every case; a case's own Peers
	// are merged over them. A key is the address as the probe's request
	// reaches it: "host:port" and "unix:/path" for streams (and HTTP over
	// them: a unix: key serves unix:/path:/request URLs), "tls:host:port"
	// for a TLS stream, "http://host[:port]" and "https://host[:port]"
	// (origins, no path) for HTTP. Host names never resolve: a peer can
	// sit behind "api.example.com:443". TLS peers (tls: and https: keys)
	// present a certificate of a CA made for the Check, and the probe
	// verifies against that CA only, so verification passes as with a
	// real server. When any Peers are set (here or in a Case), any address
	// without a peer refuses connections and no case reaches the network;
	// a Check with no Peers at all dials for real, as v1 probes are
	// tested against real listeners.
	Peers map[string]Peer
}

// Case is one situation and the answer it must give.
type Case struct {
	Name string
	// Env is the whole environment gate.env sees (never the process's).
	Env map[string]string
	// Config is merged over Options.Config.
	Config map[string]string
	// Secrets are the values of the secrets the case's grants name
	// (Grants.Secrets, each with the destinations it may be sent to):
	// the host reads them as environment variables, so they are merged
	// over Env. The probe never sees them; fake peers the secret is bound
	// to receive them where the probe wrote ${secret:NAME} (a placeholder
	// bound for anywhere else is refused before anything is sent: rule
	// "grants"), and a value that shows up in the run's reason, logs,
	// notes, error or output is a violation of rule "secret".
	Secrets map[string]string
	// Peers are the case's fake services, merged over Options.Peers.
	Peers map[string]Peer
	// Want is the outcome the probe must give. runtime.Failed means the
	// probe must raise: answer 2 (GATE_ERROR, sdk.Failed) by itself, with a reason,
	// as a probe does for a transient failure such as a timeout; a trap or
	// an overrun is a violation still.
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

// Test runs Check's rules and reports each violation as a separate
// t.Error. Given a *testing.T, it runs each case as a subtest named for
// the case (t.Run(case.Name, ...)), so that go test -run 'TestProbe/NAME'
// runs one case and a failure is reported under its case; a violation of
// the module itself (it does not load, say) is reported by t.
func Test(t testing.TB, wasm []byte, opts Options) {
	t.Helper()
	ctx := context.Background()
	ck, module := newChecker(ctx, wasm, opts)
	for _, v := range module {
		t.Error(v.Error())
	}
	if ck == nil {
		return
	}
	defer ck.close()
	tt, subtests := t.(*testing.T)
	for _, c := range ck.cases {
		if !subtests {
			for _, v := range ck.check(c) {
				t.Error(v.Error())
			}
			continue
		}
		tt.Run(c.Name, func(t *testing.T) {
			t.Helper()
			for _, v := range ck.check(c) {
				t.Error(v.Msg) // the subtest's name is the case's
			}
		})
	}
}

// Check returns every violation, or none when the module conforms.
func Check(ctx context.Context, wasm []byte, opts Options) []*Violation {
	ck, out := newChecker(ctx, wasm, opts)
	if ck == nil {
		return out
	}
	defer ck.close()
	for _, c := range ck.cases {
		out = append(out, ck.check(c)...)
	}
	return out
}

// checker holds what every case of a Check shares: the engine, with its
// swappable environment and network, and the compiled module.
type checker struct {
	ctx       context.Context
	opts      Options
	budget    time.Duration
	engine    *runtime.Engine
	mod       *runtime.Module
	reactor   bool // the module's instances are reused
	env       *swappableEnv
	peers     *swappablePeers
	ca        *testCA
	cases     []Case
	anyAnswer bool // no cases were given: any answer but an error passes
}

// newChecker checks the module itself and makes what its cases share. It
// returns the module's violations, and a nil checker when there are any.
func newChecker(ctx context.Context, wasm []byte, opts Options) (*checker, []*Violation) {
	var out []*Violation
	add := func(rule, format string, args ...any) {
		out = append(out, &Violation{Rule: rule, Msg: fmt.Sprintf(format, args...)})
	}

	cfg := runtime.NewEngineConfig()
	if opts.MemoryLimit > 0 {
		cfg = cfg.WithMemoryLimit(opts.MemoryLimit)
	}
	budget := limits.MaxBudget
	if opts.Budget > 0 {
		budget = opts.Budget
		cfg = cfg.WithBudget(opts.Budget)
	}
	info, err := inspect.Module(wasm, inspect.Limits{MemoryLimit: cfg.MemoryLimit()})
	if err != nil {
		add("format", "not a WebAssembly module: %v", err)
		return nil, out
	}
	for _, v := range info.Violations {
		add(v.Rule, "%s", v.Msg)
	}
	if len(out) > 0 {
		return nil, out
	}

	ck := &checker{ctx: ctx, opts: opts, budget: budget, reactor: info.Entry == inspect.Reactor, env: &swappableEnv{}, peers: &swappablePeers{}, ca: &testCA{}}
	// With peers anywhere in the Check, the probe reaches nothing else; a
	// Check without any dials the real network, as probes of ABI v1 were
	// always tested against real listeners.
	ecfg := cfg.WithLookupEnv(ck.env.lookup)
	hermetic := len(opts.Peers) > 0
	for _, c := range opts.Cases {
		hermetic = hermetic || len(c.Peers) > 0
	}
	if hermetic {
		ecfg = ecfg.WithDialContext(ck.peers.dial)
	}
	ck.engine, err = runtime.NewEngine(ctx, ecfg)
	if err != nil {
		add("engine", "%v", err)
		return nil, out
	}
	ck.mod, err = ck.engine.Compile(ctx, "probe", wasm)
	if err != nil {
		ck.close()
		add("load", "%v", err)
		return nil, out
	}
	ck.cases = opts.Cases
	ck.anyAnswer = len(ck.cases) == 0
	if ck.anyAnswer {
		ck.cases = []Case{{Name: "default"}}
	}
	return ck, nil
}

func (ck *checker) close() { ck.engine.Close(ck.ctx) }

// check runs case c, with its reruns and its run on a reused instance,
// and returns the rules it broke.
func (ck *checker) check(c Case) []*Violation {
	ctx, opts, anyAnswer := ck.ctx, ck.opts, ck.anyAnswer
	var out []*Violation
	add := func(c, rule, format string, args ...any) {
		v := &Violation{Case: c, Rule: rule, Msg: fmt.Sprintf(format, args...)}
		for _, o := range out {
			if *o == *v { // the reused instance's run can break a rule the fresh one did
				return
			}
		}
		out = append(out, v)
	}

	config := maps.Clone(opts.Config)
	if config == nil {
		config = map[string]string{}
	}
	maps.Copy(config, c.Config)
	caseEnv := maps.Clone(c.Env)
	if caseEnv == nil {
		caseEnv = map[string]string{}
	}
	maps.Copy(caseEnv, c.Secrets)
	casePeers := maps.Clone(opts.Peers)
	if casePeers == nil {
		casePeers = map[string]Peer{}
	}
	maps.Copy(casePeers, c.Peers)
	pcfg := runtime.ProbeConfig{Grants: opts.Grants, Config: config}
	if len(casePeers) > 0 {
		if err := ck.ca.init(); err != nil {
			add(c.Name, "peers", "making the peers' CA: %v", err)
			return out
		}
		pcfg.TLSRootCAs = ck.ca.pool
	}
	fake, err := newPeerNet(casePeers, c.Secrets, ck.ca)
	if err != nil {
		add(c.Name, "peers", "%v", err)
		return out
	}
	probe, err := ck.engine.NewProbe(ctx, "probe", ck.mod, pcfg)
	if err != nil {
		add(c.Name, "grants", "%v", err)
		fake.close()
		return out
	}
	ck.env.set(caseEnv)
	ck.peers.set(fake)
	// renewPeers gives a run that is tried again peers of its own: the
	// peers saw the starved run too (a connection closed mid-handshake),
	// and what they report must be of the run that is judged.
	renewPeers := func() bool {
		fake.settle(settleGrace)
		ck.peers.set(nil)
		fake.close()
		next, err := newPeerNet(casePeers, c.Secrets, ck.ca)
		if err != nil { // as the first was made: not while its peers are the same
			add(c.Name, "peers", "%v", err)
			return false
		}
		fake = next
		ck.peers.set(fake)
		return true
	}
	fresh := probe.Run(ctx)
	// A run that ended at its budget without the answer the case
	// wants may have been starved by a loaded machine (a TLS
	// handshake under the race detector, say) rather than be wrong:
	// it runs again, twice at most, before it is judged. A probe
	// that is wrong every time is still reported.
	for try := 1; try < 3 && !anyAnswer && !answers(c, fresh) && nearBudget(fresh, ck.budget); try++ {
		if !renewPeers() {
			break
		}
		fresh = probe.Run(ctx)
	}
	checkResult(c, fresh, anyAnswer, add)
	if fresh.Outcome != runtime.Failed && ck.reactor {
		again := probe.Run(ctx)
		// The same holds for the two runs compared: one that a loaded
		// machine starved (a dial refused at once in one, timed out at
		// the budget in the other) tells nothing of state kept between
		// runs, so the pair runs again, on a new instance, twice at most.
		for try := 1; try < 3 && !again.Fresh && differ(fresh, again) &&
			(nearBudget(fresh, ck.budget) || nearBudget(again, ck.budget)); try++ {
			if !renewPeers() {
				break
			}
			next, err := ck.engine.NewProbe(ctx, "probe", ck.mod, pcfg)
			if err != nil { // as the first was made: not while the engine is the same
				add(c.Name, "grants", "%v", err)
				break
			}
			probe.Close(ctx)
			probe = next
			fresh, again = probe.Run(ctx), probe.Run(ctx)
		}
		if again.Fresh {
			add(c.Name, "reuse", "the engine could not reuse the instance of a healthy run")
		} else if differ(fresh, again) {
			add(c.Name, "reuse", "answers %s (%q) on a reused instance but %s (%q) on a fresh one; a reactor must not keep state between runs",
				again.Outcome, again.Reason, fresh.Outcome, fresh.Reason)
		}
		checkSecrets(c, again, add)
	}
	probe.Close(ctx)
	// The host closed the runs' connections as they ended; give the
	// peers' scripts the moment they need to see that and finish.
	fake.settle(settleGrace)
	ck.peers.set(nil)
	for _, f := range fake.close() {
		add(c.Name, "peer", "%s", f)
	}
	return out
}

// answers reports whether res is the answer c wants: its outcome, or for
// runtime.Failed a deliberate raise (status 2).
func answers(c Case, res runtime.Result) bool {
	var perr *runtime.ProbeError
	if errors.As(res.Err, &perr) {
		return c.Want == runtime.Failed && perr.Kind == runtime.KindStatus && perr.Status == 2
	}
	return res.Outcome == c.Want
}

// differ reports whether two runs answered differently.
func differ(a, b runtime.Result) bool {
	return a.Outcome != b.Outcome || a.Reason != b.Reason
}

// nearBudget reports whether a run took at least 90% of its budget: long
// enough that the machine's lateness, not the probe, may have decided it.
func nearBudget(res runtime.Result, budget time.Duration) bool {
	return res.Elapsed >= budget*9/10
}

// settleGrace bounds how long a case waits for its peers to finish after
// the run. It only matters when the host fails to close a connection,
// which the host's own tests would catch; the peers are closed after it.
const settleGrace = 2 * time.Second

// swappablePeers is the fake network of the current case; cases run one
// at a time, and between cases every address refuses.
type swappablePeers struct {
	mu  sync.Mutex
	net *peerNet
}

func (p *swappablePeers) set(n *peerNet) {
	p.mu.Lock()
	p.net = n
	p.mu.Unlock()
}

func (p *swappablePeers) dial(ctx context.Context, network, addr string) (gonet.Conn, error) {
	p.mu.Lock()
	n := p.net
	p.mu.Unlock()
	if n == nil {
		n = &peerNet{}
	}
	return n.dial(ctx, network, addr)
}

// checkSecrets reports a secret whose value shows anywhere the run leaves
// behind. It names the secret, never the value.
func checkSecrets(c Case, res runtime.Result, add func(c, rule, format string, args ...any)) {
	names := slices.Sorted(maps.Keys(c.Secrets))
	for _, name := range names {
		v := c.Secrets[name]
		if v == "" {
			continue
		}
		where := map[string][]string{"reason": {res.Reason}, "output": {res.Output}, "notes": res.Notes, "denials": res.Denials}
		for _, l := range res.Logs {
			where["logs"] = append(where["logs"], l.Message)
		}
		if res.Err != nil {
			where["error"] = []string{res.Err.Error()}
		}
		for _, w := range slices.Sorted(maps.Keys(where)) {
			if contains(v, where[w]...) {
				add(c.Name, "secret", "the value of secret %s leaked into the run's %s", name, w)
			}
		}
	}
}

func checkResult(c Case, res runtime.Result, anyAnswer bool, add func(c, rule, format string, args ...any)) {
	checkSecrets(c, res, add)
	var perr *runtime.ProbeError
	if errors.As(res.Err, &perr) {
		if c.Want == runtime.Failed && !anyAnswer && perr.Kind == runtime.KindStatus && perr.Status == 2 {
			if perr.Reason == "" {
				add(c.Name, "reason", "raises (answers 2) without a reason (call gate.reason)")
			}
			return
		}
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
	for _, d := range res.Denied {
		add(c.Name, "grants", "%s", grantHint(d))
	}
}

// grantHint says what a denial means for the manifest: a grant it would
// need, or, for a secret the probe holds but sent where it is not bound,
// the destination its secrets grant would need to name.
func grantHint(d hostfuncs.Denial) string {
	if d.Kind == "secret" && d.To != "" {
		return fmt.Sprintf("%s (bind it there if the probe must send it there: secrets = { %s = [%q] })", d, d.Request, d.To)
	}
	return fmt.Sprintf("%s (add it to the grants if the probe needs it)", d)
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
