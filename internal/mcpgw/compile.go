package mcpgw

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
)

// compileSlot makes one upstream's schema compiles one at a time, each
// bounded by compileTimeout of CPU time from when it starts (of wall time
// where the thread's CPU clock cannot be read): a compile is CPU work, and
// on a machine that runs it a fraction of the time, a good schema that
// waited for the processor has not had its time. The compiler cannot be
// interrupted: a compile that outlives its wait goes on in the background,
// holding the slot, and the upstream's next compile waits for it within
// the listing's time (the upstream's list timeout), not its own: the time
// a schema waits behind another is not its cost, and on a busy machine a
// good tool listed after a slow one would otherwise be hidden for it. So a
// hostile upstream keeps at most one compile running and slows only its
// own listing; neither a shutdown nor another upstream waits for a
// compile. The zero value is ready to use.
type compileSlot struct {
	once sync.Once
	ch   chan struct{} // cap 1: full while a compile runs
	// overrun is set while a compile that outlived its wait still runs.
	overrun atomic.Bool
}

// testHookCompile, when set (by tests only), runs in the compile's
// goroutine before the compiler: a way to hold a compile still.
var testHookCompile func()

// compile compiles a schema (see manifest.CompileSchema), or returns at
// once when the same bytes compiled before.
func (s *compileSlot) compile(ctx context.Context, raw []byte, doc map[string]any) error {
	sum := sha256.Sum256(raw)
	if compiledBefore(sum) {
		return nil
	}
	s.once.Do(func() { s.ch = make(chan struct{}, 1) })
	select {
	case s.ch <- struct{}{}:
	case <-ctx.Done():
		if s.overrun.Load() {
			return fmt.Errorf("was not compiled: the server's previous schema was still compiling after %v", compileTimeout)
		}
		return fmt.Errorf("was not compiled: %w", context.Cause(ctx))
	}
	// The compile waited for may have been of the same bytes.
	if compiledBefore(sum) {
		<-s.ch
		return nil
	}
	timer := time.NewTimer(compileTimeout)
	defer timer.Stop()
	done := make(chan error, 1)
	// cpu reads the compile's CPU time; the goroutine sends it once its
	// thread is its own.
	cpu := make(chan func() time.Duration, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu <- compileCPU()
		defer func() {
			s.overrun.Store(false)
			<-s.ch
		}()
		// A panic of the compiler on an upstream's schema is handed to
		// the listing that waits for it, and raised again there, where
		// the listing's recover makes it the upstream's failure
		// (panics.go); here it would end the process. One that comes
		// after the listing stopped waiting is dropped with the compile.
		defer func() {
			if v := recover(); v != nil {
				done <- compilePanic{v}
			}
		}()
		if h := testHookCompile; h != nil {
			h()
		}
		err := manifest.CompileSchema(doc)
		if err == nil {
			rememberCompiled(sum)
		}
		done <- err
	}()
	used := <-cpu
	for {
		select {
		case err := <-done:
			return compiledAs(err)
		case <-ctx.Done():
			return fmt.Errorf("was not compiled: %w", context.Cause(ctx))
		case <-timer.C:
		}
		select {
		case err := <-done: // it ended as the timer fired
			return compiledAs(err)
		default:
		}
		// A compile that has not used its CPU time was held off the
		// processor: it waits for the rest.
		if used != nil {
			if left := compileTimeout - used(); left > 0 {
				timer.Reset(max(left, compileRecheck))
				continue
			}
		}
		s.overrun.Store(true)
		// The compile may have ended since, and cleared overrun before
		// the line above: it sent on done first.
		select {
		case <-done:
			s.overrun.Store(false)
		default:
		}
		return fmt.Errorf("did not compile within %v", compileTimeout)
	}
}

// compileRecheck is the least wait before a compile's CPU time is read
// again: a compile with a sliver of its time left is not polled for it.
const compileRecheck = 10 * time.Millisecond

// compiledAs is a compile's outcome, as the listing that waited for it
// sees it: a panic of the compiler raised again here (see compile).
func compiledAs(err error) error {
	if p, ok := err.(compilePanic); ok {
		panic(p.v)
	}
	if err != nil {
		return fmt.Errorf("is not a valid JSON Schema: %s", firstLine(err.Error()))
	}
	return nil
}

// compilePanic carries a panic of the compile's goroutine to the
// listing that waits for it.
type compilePanic struct{ v any }

func (p compilePanic) Error() string { return fmt.Sprint("the compiler panicked: ", p.v) }

// compiled remembers the schemas that compiled, by their bytes' hash:
// upstreams relist on every list_changed and most tools of a server share
// a handful of schemas, while a compile costs tens of microseconds. Past
// compiledMax entries it starts again, which only costs compiles.
var compiled struct {
	sync.Mutex
	sums map[[sha256.Size]byte]struct{}
}

const compiledMax = 65536

func compiledBefore(sum [sha256.Size]byte) bool {
	compiled.Lock()
	defer compiled.Unlock()
	_, ok := compiled.sums[sum]
	return ok
}

func rememberCompiled(sum [sha256.Size]byte) {
	compiled.Lock()
	defer compiled.Unlock()
	if compiled.sums == nil || len(compiled.sums) >= compiledMax {
		compiled.sums = map[[sha256.Size]byte]struct{}{}
	}
	compiled.sums[sum] = struct{}{}
}
