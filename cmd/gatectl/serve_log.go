package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
)

// eventLogBuffer is how many events the log may fall behind a stuck
// stderr (a pipe nobody reads) before it drops them, counting: the
// service publishes on its own goroutines and must never wait for a
// terminal.
const eventLogBuffer = 1024

// eventLog writes what serve's operator should hear about to stderr: every
// reload, whoever triggered it, and every flip of a tool, server or skill
// (not every probe run: a tool that keeps failing the same way is one
// line, when it starts). Probe reasons and names are escaped for the
// terminal.
type eventLog struct {
	cmd     string // "gatectl serve", the prefix of every line
	w       io.Writer
	events  chan runtime.Event
	done    chan struct{}
	mu      sync.Mutex
	dropped int
}

func newEventLog(cmd string, w io.Writer) *eventLog {
	l := &eventLog{cmd: cmd, w: w, events: make(chan runtime.Event, eventLogBuffer), done: make(chan struct{})}
	go l.run()
	return l
}

// add is the service subscriber: it never blocks.
func (l *eventLog) add(e runtime.Event) {
	select {
	case l.events <- e:
	default:
		l.mu.Lock()
		l.dropped++
		l.mu.Unlock()
	}
}

// close stops the writer once what was added is written.
func (l *eventLog) close() {
	close(l.events)
	<-l.done
}

func (l *eventLog) run() {
	defer close(l.done)
	for e := range l.events {
		l.mu.Lock()
		dropped := l.dropped
		l.dropped = 0
		l.mu.Unlock()
		if dropped > 0 {
			fmt.Fprintf(l.w, "%s: %d event(s) not logged: stderr was not keeping up\n", l.cmd, dropped)
		}
		fmt.Fprint(l.w, formatEvent(l.cmd, e))
	}
}

// formatEvent is one event as the lines serve logs for it.
func formatEvent(cmd string, e runtime.Event) string {
	name := safetext.Terminal(e.Name)
	switch e.Type {
	case "reload":
		how := "on SIGHUP"
		if e.Trigger == "watch" {
			how = "after an edit"
		}
		if e.State == "error" {
			return fmt.Sprintf("%s: reload of %s %s failed; the previous configuration keeps serving:\n%s\n",
				cmd, name, how, indent(safetext.TerminalLines(e.Reason)))
		}
		return fmt.Sprintf("%s: reloaded %s %s\n", cmd, name, how)
	case "tool", "server", "skill", "upstream", "breaker", "drift":
		if p := e.Pending; p != nil {
			line := fmt.Sprintf("%s: %s %s still %s: %d of %d answers in a row %s", cmd, e.Type, name,
				safetext.Terminal(e.State), p.Count, p.Of, safetext.Terminal(string(p.State)))
			if !p.HeldUntil.IsZero() {
				line += fmt.Sprintf(", held until %s", p.HeldUntil.Format(time.RFC3339))
			}
			if p.Reason != "" {
				line += ": " + safetext.Terminal(p.Reason)
			}
			return line + "\n"
		}
		line := fmt.Sprintf("%s: %s %s %s", cmd, e.Type, name, safetext.Terminal(e.State))
		if e.Type == "skill" && e.State != "removed" {
			// A skill flips on its offer too: a fallback skill stays
			// active while the tool it stands in for comes and goes.
			line += offeredWord(e.Available)
		}
		if e.Graced {
			line += " (last good answer kept within the grace window)"
		}
		if e.Reason != "" {
			line += ": " + safetext.Terminal(e.Reason)
		}
		return line + "\n"
	}
	return ""
}

// offeredWord says whether a skill is in the prompt, as its log line
// ends.
func offeredWord(offered bool) string {
	if offered {
		return ", offered"
	}
	return ", not offered"
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}
