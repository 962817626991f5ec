package runtime

import (
	"errors"
	"fmt"

	"github.com/gate-dev/gate/internal/manifest"
)

// ErrSuspectEdit is wrapped by the error a Service's reload (the
// watcher's or Reload's) gives for an edit that looks like a file caught
// half-written, which it refuses to load:
//
//   - every tool and server is gone: an editor that truncates before it
//     writes leaves a moment when the file is empty, and an empty file is
//     a valid manifest that offers nothing;
//   - a tool or server that had a probe has none: a file cut after a
//     tool's name is valid too, and a tool without a probe is offered as
//     always available, so a half-written file would fail open.
//
// The watcher also waits for the file to settle first; this catches what
// settling cannot (an editor that paused mid-write, a copy in two steps, a
// SIGHUP sent while the file was being written). To make such a change on
// purpose, start the service again: a new process has no "before".
var ErrSuspectEdit = errors.New("refused: the edit looks half-written")

// suspectEdit says why loading next in place of prev looks like loading a
// half-written file, or nil when it does not.
func suspectEdit(path string, prev, next *manifest.Manifest) error {
	if prev == nil {
		return nil
	}
	had := len(prev.Tools) + len(prev.Servers)
	if had > 0 && len(next.Tools)+len(next.Servers) == 0 {
		return manifest.Errors{manifest.ErrorAt(manifest.Position{File: path}, "",
			fmt.Errorf("%w: it lists no tools or servers now (it had %d); restart the service if that is what you mean", ErrSuspectEdit, had))}
	}
	var errs manifest.Errors
	probed := map[string]*manifest.Probe{}
	for _, t := range prev.Tools {
		probed["tools/"+t.Name] = t.Probe
	}
	for _, sv := range prev.Servers {
		probed["servers/"+sv.Name] = sv.Probe
	}
	lost := func(kind string, i int, name string, p *manifest.Probe, pos manifest.Position) {
		old := probed[kind+"/"+name]
		if p != nil || old == nil {
			return
		}
		errs = append(errs, manifest.ErrorAt(pos, fmt.Sprintf("%s[%d]", kind, i), fmt.Errorf(
			"%w: %s %q had a probe (%s) and has none now, which would offer it as always available; put the probe back, or restart the service if that is what you mean",
			ErrSuspectEdit, kind[:len(kind)-1], name, old.Label())))
	}
	for i, t := range next.Tools {
		lost("tools", i, t.Name, t.Probe, t.Pos)
	}
	for i, sv := range next.Servers {
		lost("servers", i, sv.Name, sv.Probe, sv.Pos)
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}
