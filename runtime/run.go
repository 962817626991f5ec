package runtime

import (
	"context"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/internal/inspect"
	goruntime "runtime"
	"time"

	"github.com/gate-dev/gate/internal/host"

	"github.com/tetratelabs/wazero/sys"
)

// Run runs the probe once and returns its answer. The budget is what the
// run itself may use: the CPU time of the thread it runs on plus the time
// it waits on I/O (dials, lookups, reads, sleeps), each wait counted up to
// its own timeout. On an idle machine that is the wall clock; on a busy one
// the time the machine keeps the run off the CPU is not counted, so an
// honest probe keeps its answer however late it was scheduled, and says so
// (Result.Late). Busy loops, loop-free call trees and sleeps are stopped
// once they have used the budget, by metering and by host functions that
// honour the deadline, whatever the load. Run never returns later than
// ten times the budget (the late limit) after the probe started running,
// plus a small slack and whatever the machine was late by in running it
// again. Where the thread's CPU time cannot be read (any OS but Linux) the
// budget is the wall clock's.
//
// A run waits for a place among the runs in flight first (see
// EngineConfig.WithMaxRuns), then for an execution slot (see
// EngineConfig.WithConcurrency), and for the probe's warm-up if it is
// still going; its budget starts once it has them. ctx bounds those waits
// and the run; a caller whose deadline passes while the run waits gets
// KindBusy. After Close (of the probe or its engine) a run answers Failed
// with an error matching ErrClosed.
func (p *Probe) Run(ctx context.Context) Result { return p.run(ctx, false) }

// run is Run for a caller that holds the run's place already (admitted),
// or not.
func (p *Probe) run(ctx context.Context, admitted bool) Result {
	e := p.engine()
	// start is read once when nothing is waited for (the clock is a
	// tenth of a reused run's cost on some VMs), and again after a wait.
	start := time.Now()
	queuedAt := start
	if !e.life.enter() {
		return p.refused(queuedAt, ErrClosed)
	}
	defer e.life.leave()
	if !p.life.enter() {
		return p.refused(queuedAt, ErrClosed)
	}
	defer p.life.leave()
	if !admitted {
		if !e.runs.tryAcquire() {
			if err := e.runs.acquire(ctx, p.life.Done(), e.stop); err != nil {
				return p.refused(queuedAt, err)
			}
			start = time.Now()
		}
		defer e.runs.Release()
	}
	select {
	case <-p.pool.warming:
		if !e.cpu.tryAcquire() {
			if err := e.cpu.acquire(ctx, p.life.Done(), e.stop); err != nil {
				return p.refused(queuedAt, err)
			}
			start = time.Now()
		}
	default:
		select {
		case <-p.pool.warming:
		case <-ctx.Done():
			return p.refused(queuedAt, ctx.Err())
		}
		if err := e.cpu.acquire(ctx, p.life.Done(), e.stop); err != nil {
			return p.refused(queuedAt, err)
		}
		start = time.Now()
	}
	inst := p.pool.take()
	var call *host.Call
	if inst != nil {
		call = &inst.call
		p.resetCall(call, start.Add(p.budget))
	} else {
		call = p.newCall(start.Add(p.budget))
	}
	call.OnWait = waitHook(ctx)
	measured := measure(call, p.budget, start)
	x := p.execute(host.WithCall(ctx, call), call, inst)
	if measured {
		goruntime.UnlockOSThread()
	}
	if call.Holding() {
		e.cpu.Release()
	}
	// However the run ended (an answer, a trap, the budget, a Close), the
	// streams and responses it left open are closed now, before its
	// instance can be kept, and no secret's value leaves it.
	call.End()
	call.RedactRun()
	if len(call.Policy.Secrets()) > 0 {
		x.output = call.Redact(x.output)
	}

	res := Result{
		Elapsed:     x.end.Sub(start),
		Queued:      start.Sub(queuedAt),
		Fresh:       x.fresh,
		Denials:     call.Denials(),
		Denied:      call.Denied(),
		Notes:       call.Notes(),
		Logs:        call.Logs(),
		LogsDropped: call.LogsDropped(),
		Output:      x.output,
	}
	outcome, perr := p.classify(call, x)
	res.Outcome = outcome
	res.Late = call.Late(x.end) && (perr == nil || perr.Kind != KindOverrun)
	res.Code = codeOf(outcome, call.LastFailure(), perr)
	reason, _ := call.Reason()
	switch {
	case perr != nil:
		res.Err = perr
		res.Reason = perr.Error()
	case reason != "" || outcome == Available:
		res.Reason = reason
	case len(res.Denials) > 0:
		res.Reason = res.Denials[0]
	case len(res.Notes) > 0:
		res.Reason = res.Notes[0]
	}
	if x.keep != nil {
		// An idle instance holds nothing of its last run: not its probe's
		// config and grants.
		x.keep.call = host.Call{}
		p.pool.put(x.keep)
	}
	return res
}

// refused is the answer of a run that never got to start: the caller gave
// up waiting, or the probe or its engine is closed.
//
// A caller whose deadline passed while the run waited for its place or its
// CPU was kept waiting by the host, not by the probe: that is KindBusy.
func (p *Probe) refused(queuedAt time.Time, err error) Result {
	perr := &ProbeError{Probe: p.name, Kind: KindCanceled, Phase: "queue", Err: err}
	if errors.Is(err, context.DeadlineExceeded) {
		perr.Kind, perr.Err = KindBusy, fmt.Errorf("%w: %w", ErrHostBusy, err)
	}
	return Result{Outcome: Failed, Err: perr, Reason: perr.Error(), Queued: time.Since(queuedAt), Code: codeOfError(perr)}
}

// execution is what execute saw, before it is judged.
type execution struct {
	phase  string
	status int64
	err    error
	fresh  bool
	output string
	// end is when the guest returned, before its instance is kept or
	// closed; overran says that was past the deadline as the run left it
	// (which moves for the time the machine kept the run off the CPU, see
	// host.Call.Measure, and for a dial that timed out, see
	// host.Call.Reserve).
	end     time.Time
	overran bool
	// keep is the instance to give back to the pool once the run's Call
	// has been read; nil if it was closed.
	keep *instance
}

// execute runs the probe on inst, an idle instance, or on a fresh one if
// inst is nil.
func (p *Probe) execute(ctx context.Context, call *host.Call, inst *instance) (x execution) {
	if inst != nil {
		inst.begin(call)
	} else {
		x.fresh = true
		x.phase = p.startPhase()
		var err error
		inst, err = p.instantiate(ctx, call)
		x.end = time.Now()
		x.overran = call.Overran(x.end)
		if err != nil || p.module.entry == inspect.Command || x.overran {
			// An instantiation that ended past the deadline without
			// reaching a check (a long element segment, say) is an overrun
			// of the start phase, not of a probe call that never began.
			x.err = err
			x.output = inst.out.String()
			inst.close(ctx)
			return x
		}
	}
	x.phase = "probe"
	x.err = inst.entry.CallWithStack(ctx, inst.stack[:])
	x.end = time.Now()
	x.overran = call.Overran(x.end)
	x.status = int64(int32(inst.stack[0]))
	x.output = inst.out.String()
	healthy := x.err == nil && (x.status == 0 || x.status == 1) &&
		call.Interrupted() == nil && !x.overran
	if healthy {
		// Kept by Run once it has read the run's Call, which lives in the
		// instance: the next run to take it resets that Call.
		x.keep = inst
	} else {
		// Never reuse an instance that trapped, overran or answered
		// nonsense: its memory and any Go runtime state in it are suspect.
		p.pool.drop(inst)
	}
	return x
}

func (p *Probe) startPhase() string {
	switch {
	case p.module.entry == inspect.Command:
		return "_start"
	case p.module.init:
		return "_initialize"
	}
	return "instantiate"
}

// classify turns an execution into an outcome, and a *ProbeError for a
// failed one. The order matters: an interruption is reported as such even
// though wazero wraps it as a trap, and a run that came back after its
// deadline is an overrun however it ended.
func (p *Probe) classify(call *host.Call, x execution) (Outcome, *ProbeError) {
	intr := call.Interrupted()
	if x.err == nil && intr == nil && !x.overran {
		// The common case, kept free of allocation.
		switch {
		case x.phase == "_start":
			return Available, nil // returned from _start without proc_exit: exit code 0
		case x.status == 0:
			return Available, nil
		case x.status == 1:
			return Unavailable, nil
		}
		reason, _ := call.Reason()
		return Failed, &ProbeError{Probe: p.name, Kind: KindStatus, Phase: x.phase, Status: x.status, Reason: reason}
	}
	perr := &ProbeError{Probe: p.name, Phase: x.phase, Budget: p.budget, Err: x.err}
	if intr == nil {
		// Its own variable: intr's address would put intr on the heap for
		// every run, the common case's too.
		var wrapped *host.Interrupt
		if errors.As(x.err, &wrapped) {
			intr = wrapped
		}
	}
	var exit *sys.ExitError
	var memErr *host.MemoryError
	switch {
	case intr != nil:
		perr.Kind, perr.Err = KindCanceled, intr
		switch {
		case errors.Is(intr.Err, ErrHostBusy):
			perr.Kind = KindBusy
		case intr.Budget:
			perr.Kind = KindOverrun
		}
		if intr.Where != "running" {
			if x.phase != "probe" {
				perr.During = x.phase
			}
			perr.Phase = intr.Where
		}
	case x.overran:
		perr.Kind, perr.Err = KindOverrun, context.DeadlineExceeded
	case errors.As(x.err, &exit):
		switch exit.ExitCode() {
		case 0:
			return Available, nil
		case 1:
			return Unavailable, nil
		}
		perr.Kind, perr.Status = KindStatus, int64(exit.ExitCode())
		perr.Reason, _ = call.Reason()
	case errors.As(x.err, &memErr):
		perr.Kind, perr.Err = KindABI, memErr
	default:
		perr.Kind = KindTrap
		perr.Stderr = explain(x.output)
	}
	return Failed, perr
}
