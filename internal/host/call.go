package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gate-dev/gate/hostfuncs"
)

// Bounds on what one run may hand to the host. They keep a hostile probe
// from turning the host's memory or logs into its own.
const (
	// MaxReason is how many bytes of a reason are kept.
	MaxReason = 1024
	// MaxLogs is how many log entries one run may leave; later ones are
	// counted in Call.LogsDropped.
	MaxLogs = 32
	// MaxLogMessage is how many bytes of one log message are kept.
	MaxLogMessage = 512
	// MaxName is the longest env name, config key, address or import spec
	// the host reads; longer ones are refused (bad address, not found).
	MaxName = 4096
)

// What a run leaves behind, as package hostfuncs defines it for host apps.
type (
	Level    = hostfuncs.Level
	LogEntry = hostfuncs.LogEntry
	Denial   = hostfuncs.Denial
)

// The log levels of ABI v1.
const (
	LevelDebug = hostfuncs.LevelDebug
	LevelInfo  = hostfuncs.LevelInfo
	LevelWarn  = hostfuncs.LevelWarn
	LevelError = hostfuncs.LevelError
)

// CPU is the engine's limit on how many probes execute at once. A host
// function that waits without using the CPU (a dial, a sleep) gives its slot
// back for the wait, so that a hundred probes dialling black holes do not
// queue behind each other.
type CPU interface {
	Release()
	Acquire(ctx context.Context) error
}

// Call is the state of one probe run: what the host functions may read
// (the grants, the config, the deadline) and what they leave behind (the
// reason, logs, denials). The engine makes one per run and passes it to
// the host functions in the context (WithCall); a Call is used by one
// goroutine at a time.
type Call struct {
	// Probe names the probe in every denial and error.
	Probe string
	// Policy holds the compiled grants; nil denies everything.
	Policy *Policy
	// Config is the probe's config from the manifest, read by gate.config.
	Config Config
	// LookupEnv reads the host environment; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Resolvers answer gate.import; nil means every spec is unknown.
	Resolvers *Resolvers
	// Deadline is when the budget runs out. The zero time means none.
	Deadline time.Time
	// CPU, when set, is released around waits. The engine has acquired
	// a slot for this run before the first host call.
	CPU CPU
	// Reserve is kept back from the network and lookup waits that a probe
	// asks for, so that a dial which times out still leaves the probe time
	// to say "unavailable: timed out" instead of being cut off mid-answer.
	// A measured run's dial or lookup may wait as long again past its
	// timeout (waitGrace), and is charged for it: a wait is never free.
	// It is also the answer allowance: when such a wait ends with less than
	// Reserve left (the machine was slow to run the probe again), the
	// deadline moves to Reserve after the probe is back on a CPU, once per
	// run, so that a loaded host does not turn an honest "timed out" into
	// an overrun.
	Reserve time.Duration
	// Stop, when set, ends the run once it says so (its probe is being
	// closed): at the next check or sleep the guest is stopped with an
	// *Interrupt whose Err is ErrStopped. A dial or lookup under way is not
	// cut short (it ends within the budget anyway); the check after it
	// stops the guest.
	Stop Stopper
	// EngineStop, when set, ends the run once it is closed (the engine is
	// being closed), as Stop does. It is a channel because every run of an
	// engine shares it.
	EngineStop <-chan struct{}
	// Output receives what the probe writes to stdout and stderr (WASI
	// file descriptors 1 and 2); nil discards it.
	Output io.Writer
	// OnWait, when set, is called when the run gives its CPU slot back to
	// wait (a dial, a lookup, a sleep), so that whoever runs probes on a
	// set of goroutines can start another while this one waits, as the Go
	// scheduler hands a thread's work on when a system call blocks.
	OnWait func()
	// Net is how the run's streams and HTTP requests reach the network;
	// nil means the defaults (see Net).
	Net *Net

	secrets *secretCache
	// net is the run's ABI v2 state (handles, byte counts, last error),
	// made by the first v2 call and dropped by End.
	net *netState

	reason       string
	reasonSet    bool
	logs         []LogEntry
	logsDropped  int
	denials      []Denial
	notes        []string
	cpuReleased  bool
	extended     bool
	interruption *Interrupt
	// usage follows what a measured run used of its budget (see Measure).
	usage usage
	// failure is the last failure the host observed (see observe).
	failure Failure
}

// A Stopper tells a run that it must stop: its probe is being closed.
type Stopper interface {
	// Stopping reports whether the run must stop; every check asks.
	Stopping() bool
	// Done returns a channel that is closed once the run must stop, for
	// waits to select on.
	Done() <-chan struct{}
}

// StopChan is a Stopper that says stop once the channel is closed.
type StopChan <-chan struct{}

// Stopping reports whether the channel is closed.
func (s StopChan) Stopping() bool {
	select {
	case <-s:
		return true
	default:
		return false
	}
}

// Done returns the channel.
func (s StopChan) Done() <-chan struct{} { return s }

// ErrStopped is the cause of an interruption because the engine or the
// probe was closed while the probe ran.
var ErrStopped = errors.New("stopped: the probe engine is closing")

type callKey struct{}

// WithCall returns a context that carries c to the host functions.
func WithCall(ctx context.Context, c *Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the Call in ctx, or nil.
func CallFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// Reason returns the reason the probe set, and whether it set one.
func (c *Call) Reason() (string, bool) { return c.reason, c.reasonSet }

// Logs returns the entries the probe logged, in order.
func (c *Call) Logs() []LogEntry { return c.logs }

// LogsDropped is how many log entries were over MaxLogs.
func (c *Call) LogsDropped() int { return c.logsDropped }

// Denials returns one sentence per request that the grants refused (see
// Denial.String), in order.
func (c *Call) Denials() []string {
	out := make([]string, len(c.denials))
	for i, d := range c.denials {
		out[i] = d.String()
	}
	return out
}

// Denied returns the requests that the grants refused, in order.
func (c *Call) Denied() []Denial { return c.denials }

// Notes returns what the host learned while answering that the probe's
// status codes cannot carry, such as why a dependency lookup failed.
func (c *Call) Notes() []string { return c.notes }

// RedactRun makes what the run leaves behind (its reason, logs, notes and
// denials) fit to leave it, for the engine to call once the run is over
// and before its Result is built: a run that a destination handed a value
// back to, or that wrote the value of a secret it sent into one of them,
// leaves the host's sentence instead (see withholdRun). A run that sent no
// secret costs nothing here.
func (c *Call) RedactRun() {
	c.withholdRun()
}

// Holding reports whether the run still holds its CPU slot; it does not when
// a wait for the slot ended with the budget.
func (c *Call) Holding() bool { return !c.cpuReleased }

// Interrupted returns the interruption that stopped the run, if any.
func (c *Call) Interrupted() *Interrupt { return c.interruption }

func (c *Call) setReason(b []byte) {
	c.reason = clipUTF8(b, MaxReason)
	c.reasonSet = true
}

func (c *Call) log(level Level, msg []byte) {
	if len(c.logs) >= MaxLogs {
		c.logsDropped++
		return
	}
	if level < LevelDebug {
		level = LevelDebug
	}
	if level > LevelError {
		level = LevelError
	}
	c.logs = append(c.logs, LogEntry{Level: level, Message: clipUTF8(msg, MaxLogMessage)})
}

// deny records a refused request and returns the status that says so.
func (c *Call) deny(kind, what string) int32 {
	return c.record(Denial{Kind: kind, Request: what, Probe: c.Probe})
}

// record keeps a denial and returns the status that says so.
func (c *Call) record(d Denial) int32 {
	c.observe(FailDenied)
	// A probe that asks for the same thing in a loop should not grow the
	// list: keep each sentence once, and at most MaxLogs of them.
	for _, old := range c.denials {
		if old == d {
			return StatusDenied
		}
	}
	if len(c.denials) < MaxLogs {
		c.denials = append(c.denials, d)
	}
	return StatusDenied
}

func (c *Call) note(msg string) {
	for _, n := range c.notes {
		if n == msg {
			return
		}
	}
	if len(c.notes) < MaxLogs {
		c.notes = append(c.notes, msg)
	}
}

func (c *Call) lookupEnv(name string) (string, bool) {
	if c.LookupEnv != nil {
		return c.LookupEnv(name)
	}
	return os.LookupEnv(name)
}

// Remaining is the time left in the budget; a Call without a deadline has
// an hour, which is as good as forever for a probe.
func (c *Call) Remaining() time.Duration {
	if c.Deadline.IsZero() {
		return time.Hour
	}
	return time.Until(c.Deadline)
}

// Check stops the guest, by panicking with an *Interrupt that wazero hands
// back to the engine as the call's error, when the budget is spent or ctx
// is done. Every host function calls it before it returns, and the
// metering refuel calls it every quantum, so no guest runs on long after its
// deadline whatever it does. A measured run (see Measure) whose deadline
// has passed is stopped only once it has used its budget itself.
func (c *Call) Check(ctx context.Context, where string) {
	if c.Remaining() <= 0 {
		c.settle()
		if c.Remaining() <= 0 {
			c.interrupt(where, context.DeadlineExceeded)
		}
	}
	if err := ctx.Err(); err != nil {
		c.interrupt(where, err)
	}
	if c.Stop != nil && c.Stop.Stopping() {
		c.interrupt(where, ErrStopped)
	}
	// One receive with a default is a lock-free look at an open channel (a
	// select of several cases would lock them all, and every run of an
	// engine shares EngineStop). A nil channel is never ready.
	select {
	case <-c.EngineStop:
		c.interrupt(where, ErrStopped)
	default:
	}
}

func (c *Call) interrupt(where string, err error) {
	c.interruption = &Interrupt{Probe: c.Probe, Where: where, Err: err, Budget: c.Remaining() <= 0}
	panic(c.interruption)
}

// wait runs fn, which blocks without using the CPU, with the run's CPU slot
// released, and takes the slot back before returning. allowed is the
// longest fn may wait (its timeout): a measured run counts the wait against
// its budget up to that, so a wake-up the machine delayed is not charged to
// the probe.
//
// The wait for a slot afterwards is the host's, never the run's: it is not
// charged, and it is bounded by the run's late limit (by the deadline for a
// run that is not measured), not by its budget. A run that cannot have a
// slot by then is interrupted with ErrHostBusy, an answer about the host,
// never an overrun or a timeout. A measured run's goroutine is locked to
// its thread again only once it holds a slot: a locked goroutine that
// blocks hands its processor to another thread, and the kernel must wake
// its own again, which a busy machine delays by milliseconds at every
// hand-over.
//
// With answer set (a wait the probe asked for, clipped to waitLimit), a
// wait that leaves less than Reserve of the budget gives the probe Reserve
// from now instead, once per run: on a loaded machine the wake-up itself
// can come late by more than the Reserve, and the probe must still get to
// give its own answer ("timed out") rather than be cut off for the
// machine's delay. Sleeps do not get it: a probe that sleeps to its
// deadline has spent its budget itself.
func (c *Call) wait(ctx context.Context, where string, answer bool, allowed time.Duration, fn func(ctx context.Context)) {
	grant := answer && !c.extended
	if c.OnWait != nil {
		c.OnWait()
	}
	if c.CPU == nil {
		c.waitFor(ctx, allowed, !answer, fn)
		c.resume()
		if grant {
			c.extend()
		}
		return
	}
	c.CPU.Release()
	c.cpuReleased = true
	c.waitFor(ctx, allowed, !answer, fn)
	if err := c.reacquire(ctx); err != nil {
		c.relock()
		c.interrupt(where, err)
	}
	c.cpuReleased = false
	c.resume()
	if grant {
		c.extend() // counted from when the probe holds a CPU again
	}
}

// waitFor runs fn between beginWait and endWait; endWait runs however fn
// ends, so that a wait's hold on the starvation clock never outlives it.
func (c *Call) waitFor(ctx context.Context, allowed time.Duration, sleep bool, fn func(ctx context.Context)) {
	mark := c.beginWait()
	defer c.endWait(mark, allowed, sleep)
	fn(ctx)
}

// ErrHostBusy is the cause of an interruption because the host had no
// CPU for the run in time (see wait): it says nothing about the probe or
// its peer.
var ErrHostBusy = errors.New("the host had no CPU free for the run in time")

// reacquire takes the run's CPU slot back after a wait, by the run's late
// limit (or its deadline, for a run that is not measured).
func (c *Call) reacquire(ctx context.Context) error {
	by := c.usage.limit
	if c.usage.budget == 0 {
		by = c.Deadline
	}
	actx, cancel := ctx, context.CancelFunc(func() {})
	if !by.IsZero() {
		actx, cancel = context.WithDeadline(ctx, by)
	}
	err := c.CPU.Acquire(actx)
	cancel()
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return ErrHostBusy
	}
	return err
}

// extend moves a deadline that is less than Reserve away to Reserve from
// now (see wait).
func (c *Call) extend() {
	if c.Deadline.IsZero() {
		return
	}
	if now := time.Now(); c.Deadline.Sub(now) < c.Reserve {
		c.Deadline = now.Add(c.Reserve)
		if c.usage.budget > 0 && c.Deadline.After(c.usage.limit) {
			c.Deadline = c.usage.limit // a measured run's late limit holds
		}
		c.extended = true
	}
}

// waitLimit is how long a wait the probe asked for may last: what is left
// of the budget less the Reserve. A measured run that reached its late
// limit with budget left is stopped here, in where: that the machine ran
// it so late is no answer about the peer, and "timed out" would be one.
func (c *Call) waitLimit(where string) time.Duration {
	d := c.left() - c.Reserve
	if d <= 0 && c.usage.budget > 0 && !c.Deadline.Before(c.usage.limit) {
		c.interrupt(where, context.DeadlineExceeded)
	}
	return d
}

// Sleep is the probe's clock sleep (WASI poll_oneoff and the like): it never
// sleeps past the deadline, and a sleep that reaches it stops the guest.
// wazero's own real sleep ignores deadlines and its default fake clock does
// not sleep at all; neither is right for a budgeted probe.
func (c *Call) Sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		c.Check(ctx, "sleep")
		return
	}
	if rem := c.left(); d > rem {
		d = rem
	}
	var stop <-chan struct{}
	if c.Stop != nil {
		stop = c.Stop.Done()
	}
	c.wait(ctx, "sleep", false, d, func(ctx context.Context) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		case <-stop:
		case <-c.EngineStop:
		}
	})
	c.Check(ctx, "sleep")
}

// Interrupt is what stops a guest from the host side: its budget ran out
// (Err is context.DeadlineExceeded) or the caller gave up (Err is the
// context's error). It unwraps to Err, so errors.Is(err,
// context.DeadlineExceeded) holds for an overrun.
type Interrupt struct {
	Probe string
	Where string // the host function that noticed, e.g. "gate.dial", or "running" for metering
	Err   error
	// Budget is true when the run's own budget was spent, false when the
	// caller's context ended first.
	Budget bool
}

func (i *Interrupt) Error() string {
	return fmt.Sprintf("probe %q stopped in %s: %v", i.Probe, i.Where, i.Err)
}

func (i *Interrupt) Unwrap() error { return i.Err }

// clipUTF8 returns at most max bytes of b as valid UTF-8, cutting at a rune
// boundary and replacing invalid bytes, so that a probe cannot put broken
// text into a JSON report or a terminal.
func clipUTF8(b []byte, max int) string {
	if len(b) > max {
		b = b[:max]
		// Drop a last rune that the clip cut in half (utf8.UTFMax-1 bytes at most).
		i := len(b) - 1
		for i > 0 && i > len(b)-utf8.UTFMax && !utf8.RuneStart(b[i]) {
			i--
		}
		if i >= 0 && !utf8.FullRune(b[i:]) {
			b = b[:i]
		}
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	// Each invalid byte became three: clip again, now at a rune start of
	// valid text, so that max holds for what is kept, not only for what
	// was read.
	for len(s) > max {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
