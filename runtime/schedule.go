package runtime

import (
	"context"
	goruntime "runtime"
	"sync/atomic"
	"time"
)

// probeJob is one flight to run: an entry's probe, whose answer every
// caller waiting on f shares.
type probeJob struct {
	e *entry
	f *flight
}

// startProbes runs the jobs' probes in the background, and keeps jobs,
// whose order it changes; their flights say when each is done, and the
// returned channel (nil without jobs) is closed once all are: a reader
// waiting for a thousand flights one by one woke a thousand times.
//
// WebAssembly probes and NativeProbes run on a set of goroutines that
// take the jobs in order, each run in a place among the runs in flight: a
// WebAssembly probe's place is its engine's (EngineConfig.WithMaxRuns), a
// NativeProbe's the registry's. A run's budget starts once it has its
// place, so a wait for one is never charged to the probe, and the places
// bound how many runs come back from their waits at once to queue for
// the CPUs, which is what a probe could otherwise be charged for.
//
// They start with a goroutine per CPU, and a run that gives its CPU back
// to wait on the network (host.Call.OnWait), or a NativeProbe's function
// that has run for nativeWaitAfter (a Go function cannot say when it
// waits), starts another, up to the places there are: probes that only
// compute do not queue for the CPUs on goroutines of their own, and
// probes that wait on a black hole wait together. Any other Prober (a
// host app's own) may block in ways the registry cannot see, and runs at
// once on a goroutine of its own.
func (r *Registry) startProbes(ctx context.Context, jobs []probeJob, now time.Time) <-chan struct{} {
	if len(jobs) == 0 {
		return nil
	}
	b := &batch{done: make(chan struct{}), r: r, now: now}
	b.left.Store(int64(len(jobs)))
	placed := jobs[:0] // WebAssembly and native, in jobs' front
	for i, j := range jobs {
		switch j.e.tool.Probe.(type) {
		case *Probe, *NativeProbe:
			if len(placed) < i { // a job before went to a goroutine
				jobs[len(placed)] = j
			}
			placed = jobs[:len(placed)+1]
		default:
			go func() {
				r.probe(ctx, j.e, j.f, now)
				b.finish()
			}()
		}
	}
	if len(placed) == 0 {
		return b.done
	}
	b.jobs = placed
	b.ctx = withWaitHook(ctx, b.waiting)
	for _, j := range placed {
		b.most = max(b.most, cap(r.places(j.e.tool.Probe)))
	}
	for range min(goruntime.GOMAXPROCS(0), b.most, len(placed)) {
		b.workers.Add(1)
		go b.work()
	}
	return b.done
}

// batch is one startProbes' jobs, counted down to done, and the
// goroutines that run them.
type batch struct {
	// Read by every run, written once.
	r    *Registry
	ctx  context.Context
	now  time.Time
	jobs []probeJob
	done chan struct{}
	most int // goroutines at most

	// Written by every run, each on a cache line of its own: on the line
	// of the fields above, they made every run's read of those a miss on
	// the other CPU.
	_       [64]byte
	next    atomic.Int64 // the next job to take
	_       [56]byte
	left    atomic.Int64 // jobs not yet answered
	_       [56]byte
	workers atomic.Int64 // goroutines taking jobs
}

func (b *batch) finish() {
	if b.left.Add(-1) == 0 {
		close(b.done)
	}
}

// work runs jobs, the next not taken each time, until none is left, each
// in a place it takes for the run and gives back after it: places are
// shared with other reads and direct runs of the same engine, which take
// their turns in between.
func (b *batch) work() {
	var native *nativeRun // made by the first NativeProbe's run
	var holding cpuSlots  // the place of the run under way, if any
	defer func() {
		// Holding a place here, the goroutine is ending mid-run: a native
		// function called runtime.Goexit (its run was answered, see
		// nativeRun.call). Its place goes back and another goroutine takes
		// up the jobs left, unless its run's end did both already.
		if holding != nil && (native == nil || !native.straggledRun()) {
			holding.Release()
			b.workers.Add(-1)
			b.waiting()
		}
		if native != nil {
			native.close()
		}
	}()
	for {
		i := int(b.next.Add(1)) - 1
		if i >= len(b.jobs) {
			return
		}
		j := b.jobs[i]
		places := b.r.places(j.e.tool.Probe)
		var stop <-chan struct{}
		if p, ok := j.e.tool.Probe.(*Probe); ok {
			stop = p.engine().stop
		}
		// A place is not had only when the engine is closing: the run says
		// so at once.
		if places.acquire(b.ctx, nil, stop) == nil {
			holding = places
		}
		switch p := j.e.tool.Probe.(type) {
		case *Probe:
			res := p.run(b.ctx, holding != nil)
			release(&holding) // before settle, which may call subscribers
			b.r.settle(b.ctx, j.e, j.f, b.now, res)
			b.finish()
		case *NativeProbe:
			if native == nil {
				native = newNativeRun(b.ctx, b.answer)
				native.onWait, native.onStraggle = b.waiting, b.straggling
			}
			// A function that overruns is answered at its budget, from its
			// run's timer, while it goes on here; its place was given back
			// then, and another goroutine took this one's.
			if p.runHere(native, j) {
				holding = nil
				return
			}
			release(&holding)
		}
	}
}

// release gives back the place *held, if any.
func release(held *cpuSlots) {
	if *held != nil {
		held.Release()
		*held = nil
	}
}

// straggling is every NativeProbe run's: a function that goes on past its
// run's end (a hung one may never return) gives its goroutine's place
// back, and the goroutine is no longer counted, so that a few hung
// functions cannot hold the places every other run needs; the goroutine
// ends once the function has returned.
func (b *batch) straggling() {
	b.r.nativeRuns.Release()
	b.workers.Add(-1)
	b.waiting()
}

// waiting is every run's host.Call.OnWait: a run that waits starts a
// goroutine for the jobs left, while there are fewer than places.
func (b *batch) waiting() {
	if int(b.next.Load()) >= len(b.jobs) {
		return
	}
	if n := b.workers.Add(1); n > int64(b.most) {
		b.workers.Add(-1)
		return
	}
	go b.work()
}

// answer settles a NativeProbe job's run (see NativeProbe.runHere).
func (b *batch) answer(j probeJob, res Result) {
	b.r.settle(b.ctx, j.e, j.f, b.now, res)
	b.finish()
}

// places is the semaphore of places a run of p takes, nil for a Prober
// the registry does not bound.
func (r *Registry) places(p Prober) cpuSlots {
	switch p := p.(type) {
	case *Probe:
		return p.engine().runs
	case *NativeProbe:
		r.nativeOnce.Do(func() { r.nativeRuns = make(cpuSlots, runsPerCPU*goruntime.GOMAXPROCS(0)) })
		return r.nativeRuns
	}
	return nil
}

type waitHookKey struct{}

// withWaitHook makes fn every run's host.Call.OnWait under ctx.
func withWaitHook(ctx context.Context, fn func()) context.Context {
	return context.WithValue(ctx, waitHookKey{}, fn)
}

func waitHook(ctx context.Context) func() {
	fn, _ := ctx.Value(waitHookKey{}).(func())
	return fn
}
