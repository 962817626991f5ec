package runtime

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/gate-dev/gate/runtime/manifest"
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
		if err := w.Add(filepath.Dir(s.path)); err == nil {
			events, errs, mode = w.Events, w.Errors, WatchInotify
			interval *= 10
		}
		defer w.Close()
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
