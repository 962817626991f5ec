package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
)

// progressDelay is how long a probe module's compile runs before gatectl
// says it is compiling: a compile from the compilation cache takes tens
// of milliseconds and says nothing; a cold compile of a Go-built probe
// takes seconds, which would otherwise be seconds of silence. 0 says it
// at once (the tests).
var progressDelay = 300 * time.Millisecond

// withProgress adds to cfg a progress line on stderr for each slow
// compile, when stderr is a terminal: a person is waiting there. Written
// to a pipe or a file, the line would only be noise in a log.
func withProgress(cfg runtime.EngineConfig, stderr io.Writer) runtime.EngineConfig {
	if !isTerminal(stderr) {
		return cfg
	}
	p := &compileProgress{w: stderr, delay: progressDelay}
	return cfg.WithCompileObserver(p.observe)
}

// compileProgress writes a line for each compile that outlasts delay:
//
//	gatectl: compiling probe probes/db.wasm (2.1 MB)... done in 3.6s
//
// its start when delay has passed and its end, on the same line, when the
// compile ends. When another line must be written between the two (two
// compiles at once), the first is left as it is and its end gets a line
// of its own.
type compileProgress struct {
	w     io.Writer
	delay time.Duration

	mu   sync.Mutex
	open *compileLine // the line whose start is the last thing written, or nil
}

// compileLine is one compile's line.
type compileLine struct {
	name         string
	size         int
	start        time.Time
	shown, ended bool
}

// observe is the runtime's compile observer.
func (p *compileProgress) observe(name string, size int) func(error) {
	l := &compileLine{name: safetext.Terminal(name), size: size, start: time.Now()}
	if p.delay <= 0 {
		p.begin(l)
		return func(err error) { p.end(l, err) }
	}
	t := time.AfterFunc(p.delay, func() { p.begin(l) })
	return func(err error) {
		t.Stop()
		p.end(l, err)
	}
}

// begin writes l's start, unless its compile has already ended.
func (p *compileProgress) begin(l *compileLine) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l.ended {
		return
	}
	p.breakLine()
	fmt.Fprintf(p.w, "gatectl: compiling probe %s (%s)...", l.name, megabytes(l.size))
	l.shown = true
	p.open = l
}

// end writes how l's compile ended, if its start was written.
func (p *compileProgress) end(l *compileLine, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l.ended = true
	if !l.shown {
		return
	}
	took := time.Since(l.start).Round(100 * time.Millisecond)
	outcome := "done"
	if err != nil {
		outcome = "failed" // the command reports why
	}
	if p.open == l {
		fmt.Fprintf(p.w, " %s in %s\n", outcome, took)
		p.open = nil
		return
	}
	p.breakLine()
	fmt.Fprintf(p.w, "gatectl: compiling probe %s: %s in %s\n", l.name, outcome, took)
}

// megabytes writes a size in decimal megabytes: "2.1 MB".
func megabytes(size int) string { return fmt.Sprintf("%.1f MB", float64(size)/1e6) }

// breakLine ends the line left open, so that what comes next starts a
// line of its own.
func (p *compileProgress) breakLine() {
	if p.open != nil {
		fmt.Fprintln(p.w)
		p.open = nil
	}
}
