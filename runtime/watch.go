package runtime

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/gate-dev/gate/internal/manifest"
)

// Watch modes a Service reports (Service.WatchMode).
const (
	// WatchInotify: the manifest's directory is watched with inotify (or
	// the platform's equivalent, through fsnotify), and polled every ten
	// watch intervals as a safety net.
	WatchInotify = "inotify"
	// WatchPoll: the platform offered no file events (or ran out of
	// inotify instances), so the manifest is read every watch interval.
	WatchPoll = "poll"
	// WatchOff: WithWatchInterval(0); only Reload reads the manifest.
	WatchOff = "off"
)

// maxSettleLooks bounds how many times a manifest that keeps changing is
// looked at before the watcher gives up until the next change: a file
// rewritten without pause (a log mistakenly named as the manifest) must
// not keep the watcher busy for ever.
const maxSettleLooks = 20

// manifestFile is the manifest's bytes as read once, or why they could not be
// read; sum tells two snapshots apart (a read error sums its message, so
// that a file that stays missing is one state, not a change every look).
type manifestFile struct {
	src []byte
	err error
	sum [sha256.Size]byte
}

// readManifest reads the manifest the one safe way (a FIFO, a device or a
// huge file named as the manifest is refused at once, not waited on).
func readManifest(path string, limits manifest.Limits) manifestFile {
	src, err := manifest.ReadFile(path, limits)
	if err != nil {
		return manifestFile{err: err, sum: sha256.Sum256([]byte(err.Error()))}
	}
	return manifestFile{src: src, sum: sha256.Sum256(src)}
}

// watch calls changed, on this goroutine, with every settled new content
// of the manifest, until ctx is done. A change is noticed by a file event
// in the manifest's directory (an editor's rename, a Kubernetes ConfigMap
// swapping a symlink) or, without file events, by polling; either way the
// content decides, so a same-size edit that kept its modification time
// is seen and a touch that changed nothing is not.
//
// A change is acted on only once the file has settled: read again after
// the settle delay (and after every further event) until two reads agree.
// An editor that rewrites in place is seen as an empty or truncated file
// for a moment; that moment is never loaded.
func (s *Service) watch(ctx context.Context, changed func(manifestFile)) {
	interval := s.cfg.watch
	var events <-chan fsnotify.Event
	var errs <-chan error
	mode := WatchPoll
	if w, err := fsnotify.NewWatcher(); err == nil {
		defer w.Close()
		if names, dirs := watchedNames(s.path); w.Add(dirs[0]) == nil {
			for _, d := range dirs[1:] {
				_ = w.Add(d) // a symlink's target's folder; polling covers a failure
			}
			events, errs, mode = relevant(ctx, w.Events, names), w.Errors, WatchInotify
			interval *= 10
		}
	}
	s.watchMode.Store(mode)

	poll := time.NewTicker(interval)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-poll.C:
		case _, ok := <-events:
			if !ok {
				events = nil
				continue
			}
		case <-errs: // an overflow: some events were lost, so look
		}
		snap, ok := s.settle(ctx, events)
		if ok && snap.sum != s.lastSum() {
			changed(snap)
		}
	}
}

// settle reads the manifest until two reads a settle delay apart (with no
// file event between them) agree, and returns that content; false when ctx
// ended or the file kept changing.
func (s *Service) settle(ctx context.Context, events <-chan fsnotify.Event) (manifestFile, bool) {
	prev := readManifest(s.path, s.limits)
	if prev.sum == s.lastSum() && events == nil {
		return prev, true // polling, and nothing changed: no need to wait
	}
	timer := time.NewTimer(s.cfg.settle)
	defer timer.Stop()
	for range maxSettleLooks {
		// Wait for a settle delay without events, but not for ever: a
		// file written without pause is read after ten delays anyway,
		// and counts as a look.
		giveUp := time.After(10 * s.cfg.settle)
		quiet := false
		for !quiet {
			select {
			case <-ctx.Done():
				return manifestFile{}, false
			case _, ok := <-events:
				if !ok {
					events = nil
				}
				// Still being written: wait a full delay after this one.
				timer.Reset(s.cfg.settle)
			case <-timer.C:
				quiet = true
			case <-giveUp:
				quiet = true
			}
		}
		cur := readManifest(s.path, s.limits)
		if cur.sum == prev.sum {
			return cur, true
		}
		prev = cur
		timer.Reset(s.cfg.settle)
	}
	return manifestFile{}, false
}

// watchedNames are the paths whose events concern the manifest (itself,
// and the file a symlink leads to), and the folders to watch for them:
// its own first, then its target's. Events for other files of the folder
// (an editor's swap file, a log written beside the manifest) are not
// changes, and a steady stream of them must not keep the watcher waiting
// for quiet.
func watchedNames(path string) (names map[string]bool, dirs []string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	names = map[string]bool{abs: true}
	dirs = []string{filepath.Dir(abs)}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		names[real] = true
		if d := filepath.Dir(real); d != dirs[0] {
			dirs = append(dirs, d)
		}
	}
	return names, dirs
}

// relevant passes on the events about the manifest: its names, and the
// entries Kubernetes swaps to update a mounted ConfigMap ("..data" and
// its timestamped folders), which change what a symlinked manifest reads
// without an event for its name.
func relevant(ctx context.Context, in <-chan fsnotify.Event, names map[string]bool) <-chan fsnotify.Event {
	out := make(chan fsnotify.Event)
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-in:
				if !ok {
					return
				}
				name, err := filepath.Abs(ev.Name)
				if err != nil {
					name = ev.Name
				}
				if !names[name] && !strings.HasPrefix(filepath.Base(name), "..") {
					continue
				}
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}
