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
// WebAssembly probes and NativeProbes run on a small set of goroutines,
// one per CPU, that take the jobs in claims (see probeWorkers): a
// goroutine a tool cost a goroutine's start and its stack's growth into
// wazero per probe, over a third of a cold listing, and a NativeProbe's
// own goroutine, context and channels a run were most of a native listing.
// A probe that waits (a dial, a lookup, a sleep) for longer than
// handOnAfter has a worker started in its place (host.Call.OnWait; for a
// NativeProbe, its worker's timer, as it cannot tell waiting from working),
// so a read over many stale tools still costs about one budget when all of
// them wait on the network; a NativeProbe that overruns is answered at its
// budget by its worker's timer while the worker waits for the function. Any
// other Prober (a host app's own) may block in ways the registry cannot
// see, and gets a goroutine of its own.
func (r *Registry) startProbes(ctx context.Context, jobs []probeJob, now time.Time) <-chan struct{} {
	if len(jobs) == 0 {
		return nil
	}
	b := &batch{done: make(chan struct{})}
	b.left.Store(int64(len(jobs)))
	onWorkers := jobs[:0] // WebAssembly and native, in jobs' front
	for i, j := range jobs {
		switch j.e.tool.Probe.(type) {
		case *Probe, *NativeProbe:
			if len(onWorkers) < i { // a job before went to a goroutine
				jobs[len(onWorkers)] = j
			}
			onWorkers = jobs[:len(onWorkers)+1]
		default:
			go func() {
				r.probe(ctx, j.e, j.f, now)
				b.finish()
			}()
		}
	}
	if len(onWorkers) > 0 {
		workers := min(len(onWorkers), goruntime.GOMAXPROCS(0))
		w := newProbeWorkers(onWorkers, workers)
		w.r, w.now, w.batch = r, now, b
		// A registry's probes are a Gate's, of one engine: its slots say
		// whether another worker could run.
		for _, j := range onWorkers {
			if p, ok := j.e.tool.Probe.(*Probe); ok {
				w.cpu = p.engine().cpu
				break
			}
		}
		w.ctx = withWaitHook(ctx, w.waiting)
		for range workers {
			w.spawn()
		}
	}
	return b.done
}

// batch counts one startProbes' jobs down to done.
type batch struct {
	left atomic.Int64
	done chan struct{}
}

func (b *batch) finish() {
	if b.left.Add(-1) == 0 {
		close(b.done)
	}
}

// probeWorkers is one startProbes' set of workers.
type probeWorkers struct {
	r    *Registry
	ctx  context.Context
	jobs []probeJob
	// The jobs are taken in claims of claimLen jobs in a row: a worker
	// takes a claim, then the claim's jobs one by one. Workers that took
	// turns at neighbouring jobs wrote to neighbouring entries and flights,
	// which share cache lines, and to one counter, so that each answer of a
	// cold listing moved cache lines between the CPUs: two workers used
	// twice the CPU of one for the same listing. A worker that finds no
	// claim left to take takes the jobs left in the others' (one whose
	// probe runs on, or waits), so none is left behind a slow probe.
	claims    []claim
	claimLen  int
	nextClaim atomic.Int64
	now       time.Time
	batch     *batch
	cpu       cpuSlots
}

// newProbeWorkers sets out jobs in claims for a number of workers: four
// claims each at least, so that one that ends first has others' to help
// with.
func newProbeWorkers(jobs []probeJob, workers int) *probeWorkers {
	w := &probeWorkers{jobs: jobs}
	w.claimLen = min(max(len(jobs)/(4*workers), 1), maxClaimLen)
	w.claims = make([]claim, (len(jobs)+w.claimLen-1)/w.claimLen)
	return w
}

// claim is a run of claimLen jobs, claim k's starting at k*claimLen.
type claim struct {
	taken atomic.Int64 // how many of its jobs have been taken (or more)
	_     [56]byte     // a cache line of its own, as its neighbours are other workers'
}

// maxClaimLen bounds a claim: 32 jobs in a row are a few KB of entries and
// flights, past which longer claims save nothing.
const maxClaimLen = 32

// handOnAfter is how long a probe may wait (a dial, a lookup) before its
// worker's place goes to a new worker. A loopback dial takes 30-100 µs:
// handing on at once made a check of 1,000 tcp tools run them all at
// once, each on a fresh instance (27 MB). A wait this long starts a
// worker; the new worker's probe, if it waits too, starts another, so
// the workers double every 200 µs while every probe waits on a black hole.
const handOnAfter = 200 * time.Microsecond

// waiting is the runs' host.Call.OnWait: a worker is started in the
// waiting one's place if the wait lasts handOnAfter.
func (w *probeWorkers) waiting() func() bool {
	t := time.AfterFunc(handOnAfter, w.handOn)
	return func() bool { return !t.Stop() }
}

// handOn starts a worker in a waiting one's place if an execution slot is
// free for it. With every slot busy another worker would add nothing but
// a run queued for a slot, ahead of runs coming back from their waits,
// whose budgets go on while they queue.
func (w *probeWorkers) handOn() {
	if w.cpu == nil || len(w.cpu) < cap(w.cpu) {
		w.spawn()
	}
}

// spawn starts a worker, unless every job has been taken.
func (w *probeWorkers) spawn() {
	if w.untaken() {
		go w.work()
	}
}

// untaken reports whether a job is left for a new worker to take.
func (w *probeWorkers) untaken() bool {
	if int(w.nextClaim.Load()) < len(w.claims) {
		return true
	}
	for k := range w.claims {
		if w.left(k) {
			return true
		}
	}
	return false
}

// left reports whether claim k has jobs not yet taken.
func (w *probeWorkers) left(k int) bool {
	return int(w.claims[k].taken.Load()) < min(w.claimLen, len(w.jobs)-k*w.claimLen)
}

// take returns the index of the next job for a worker whose claim is
// *own (-1: none yet), which it updates; ok is false once every job has
// been taken. *help is the first claim, among those other workers took,
// that may have jobs left: a claim found empty stays empty, so a worker
// looks through them once.
func (w *probeWorkers) take(own, help *int) (i int, ok bool) {
	for *own >= 0 || int(w.nextClaim.Load()) < len(w.claims) {
		if *own >= 0 {
			if i, ok := w.takeFrom(*own); ok {
				return i, true
			}
		}
		if *own = int(w.nextClaim.Add(1)) - 1; *own >= len(w.claims) {
			*own = -1
		}
	}
	for ; *help < len(w.claims); *help++ {
		if i, ok := w.takeFrom(*help); ok {
			*own = *help
			return i, true
		}
	}
	return 0, false
}

// takeFrom takes the next job of claim k, if it has one left.
func (w *probeWorkers) takeFrom(k int) (i int, ok bool) {
	if !w.left(k) {
		return 0, false
	}
	n := int(w.claims[k].taken.Add(1)) - 1
	i = k*w.claimLen + n
	return i, n < w.claimLen && i < len(w.jobs)
}

func (w *probeWorkers) work() {
	var native *nativeWorker
	defer func() {
		if native != nil {
			native.exit()
		}
	}()
	own, help := -1, 0
	for {
		i, ok := w.take(&own, &help)
		if !ok {
			return
		}
		j := w.jobs[i]
		if n, ok := j.e.tool.Probe.(*NativeProbe); ok {
			if native == nil {
				native = newNativeWorker(w)
			}
			n.runHere(native, j)
			continue
		}
		w.r.probe(w.ctx, j.e, j.f, w.now)
		w.batch.finish()
	}
}

// nativeWorker is a worker's state for the NativeProbes it runs: its run
// (one at a time), and one timer for all its runs, which ticks every
// handOnAfter or so while the worker works and acts for the run under way
// (see nativeRun.tick), so that a run sets no timer of its own.
type nativeWorker struct {
	w      *probeWorkers
	run    nativeRun
	timer  *time.Timer
	parked atomic.Bool // the timer is stopped while an overrun goes on
	exited atomic.Bool
	// base is when the worker started: a run's start is read as base plus
	// the monotonic clock's time since, one clock read where time.Now
	// makes two.
	base time.Time
}

func newNativeWorker(w *probeWorkers) *nativeWorker {
	nw := &nativeWorker{w: w, base: time.Now()}
	r := &nw.run
	r.parent, r.worker = w.ctx, nw
	r.answered, r.finished = true, true // no run under way
	if w.ctx.Done() != nil {
		// The caller's context ends whichever run is under way then; a run
		// asked for after it ended answers at once (runHere).
		r.stopWatch = context.AfterFunc(w.ctx, func() { r.end(w.ctx.Err()) })
	}
	nw.timer = time.AfterFunc(time.Hour, nw.tick)
	nw.timer.Reset(handOnAfter) // once nw.timer is set for tick to read
	return nw
}

// clock is the time now.
func (nw *nativeWorker) clock() time.Time { return nw.base.Add(time.Since(nw.base)) }

// tick is the timer's: it ticks the run under way, and sets itself again
// for when that run wants it, or handOnAfter from now.
func (nw *nativeWorker) tick() {
	if nw.exited.Load() {
		return
	}
	again := nw.run.tick()
	if nw.exited.Load() || again <= 0 && nw.parked.Load() {
		return
	}
	if again <= 0 {
		again = handOnAfter
	}
	nw.timer.Reset(again)
}

// begin sets a parked timer going again, for the run under way.
func (nw *nativeWorker) begin() {
	if nw.parked.Load() {
		nw.parked.Store(false)
		nw.timer.Reset(handOnAfter)
	}
}

// exit stops the timer and the watch once the worker has no more jobs. A
// tick already under way may set the timer again, once, and then finds
// the worker gone.
func (nw *nativeWorker) exit() {
	nw.exited.Store(true)
	nw.timer.Stop()
	if nw.run.stopWatch != nil {
		nw.run.stopWatch()
	}
}

func (nw *nativeWorker) settle(j probeJob, res Result) {
	nw.w.r.settle(nw.w.ctx, j.e, j.f, nw.w.now, res)
	nw.w.batch.finish()
}

// handOn has another worker take up the jobs while this one's native
// probe runs on.
func (nw *nativeWorker) handOn() { nw.w.spawn() }

type waitHookKey struct{}

// withWaitHook makes fn every run's host.Call.OnWait under ctx.
func withWaitHook(ctx context.Context, fn func() func() bool) context.Context {
	return context.WithValue(ctx, waitHookKey{}, fn)
}

func waitHook(ctx context.Context) func() func() bool {
	fn, _ := ctx.Value(waitHookKey{}).(func() func() bool)
	return fn
}
