package manifest

import "github.com/gate-dev/gate/internal/pathfmt"

// Label names a probe for people: its shorthand, or its module's path
// relative to the working directory; "" for none.
func (p *Probe) Label() string {
	switch {
	case p == nil:
		return ""
	case p.Standard != "":
		return p.Standard
	}
	return pathfmt.RelAny(p.Module)
}
