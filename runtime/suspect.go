package runtime

import (
	"fmt"

	"github.com/gate-dev/gate/internal/manifest"
)

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
