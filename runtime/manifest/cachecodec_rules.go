package manifest

// The cache codec's rules about particular fields and types: the few
// places where a value is not coded by its kind alone (cachecodec.go),
// where a count has another bound than its kind's, and what the checks
// guarantee of a value, which a decoded one must hold too. A field
// without a rule here needs none: a new one is coded by its kind.

import (
	"reflect"
	"strings"
	"unsafe"

	"github.com/gate-dev/gate/internal/grants"
)

// cacheFieldCodecs code the fields named (Type.Field) otherwise than by
// their kind. A Position's File is the same as the last Position's in
// almost every Position of a Manifest: it is a byte 1 and the name when
// it changes, else 0.
var cacheFieldCodecs = map[string]ccodec{
	"Position.File": {
		enc: func(e *cenc, p unsafe.Pointer) {
			f := *(*string)(p)
			e.bool(f != e.file)
			if f != e.file {
				e.str(f)
				e.file = f
			}
		},
		dec: func(d *cdec, p unsafe.Pointer) {
			if d.bool() {
				f := d.str()
				if f == d.file {
					d.fail() // not the shortest form
				}
				d.file = f
			}
			*(*string)(p) = d.file
		},
	},
}

// cacheCountLimits bound the counts of the slices and maps named
// (Type.Field, and Type.Field[] for their elements) as parsing bounds
// them, where that is not MaxArrayLen (a slice: a TOML array) or
// MaxKeysPerTable (a map: a TOML table).
var cacheCountLimits = map[string]func(*Limits) int{
	"Manifest.Tools":   func(l *Limits) int { return l.MaxTools },
	"Manifest.Servers": func(l *Limits) int { return l.MaxServers },
	"Upstream.Command": func(l *Limits) int { return min(maxCommandArgs, l.MaxArrayLen) },
	"Upstream.Env":     func(l *Limits) int { return l.MaxKeysPerTable },
	"Upstream.Headers": func(*Limits) int { return maxHeaders },
	"Upstream.Tools":   func(l *Limits) int { return min(l.MaxTools, l.MaxArrayLen) },
	"OAuth.Scopes":     func(*Limits) int { return maxScopes },
	"ProbeNet.Secrets": func(*Limits) int { return grants.MaxSecretGrants },
}

// cacheCountLimit returns the bound of the counts of the slice or map
// named, of type t.
func cacheCountLimit(name string, t reflect.Type) func(*Limits) int {
	if f, ok := cacheCountLimits[name]; ok {
		return f
	}
	if t.Kind() == reflect.Map {
		return func(l *Limits) int { return l.MaxKeysPerTable }
	}
	return func(l *Limits) int { return l.MaxArrayLen }
}

// cacheValueRules are what the checks guarantee of a value of each type
// beyond its fields' bounds, and of a decoded one therefore too: the
// limits a string is within, the order of lists kept sorted, the values
// an enumeration takes, the one form of "none".
var cacheValueRules = map[reflect.Type]func(unsafe.Pointer, *Limits) bool{
	reflect.TypeFor[Tool](): valueRule(func(t *Tool, l *Limits) bool {
		return len(t.Description) <= l.MaxDescription && (t.Toolset == "" || validToolset(t.Toolset))
	}),
	reflect.TypeFor[Server](): valueRule(func(s *Server, l *Limits) bool {
		return len(s.Description) <= l.MaxDescription
	}),
	reflect.TypeFor[Policy](): valueRule(func(p *Policy, _ *Limits) bool {
		threshold := func(n int) bool { return 0 <= n && n <= maxThreshold }
		return *p != Policy{} && threshold(p.FailureThreshold) && threshold(p.SuccessThreshold) &&
			(p.Retry == nil || *p.Retry > 0) && (p.HoldDown == nil || *p.HoldDown >= 0)
	}),
	reflect.TypeFor[Upstream](): valueRule(func(u *Upstream, _ *Limits) bool {
		for i := 1; i < len(u.Env); i++ {
			if u.Env[i].Name <= u.Env[i-1].Name {
				return false
			}
		}
		for i := 1; i < len(u.Headers); i++ {
			if strings.ToLower(u.Headers[i].Name) <= strings.ToLower(u.Headers[i-1].Name) {
				return false
			}
		}
		return u.Pin == PinOff || u.Pin == PinOn || u.Pin == PinStrict
	}),
	reflect.TypeFor[Probe](): valueRule(func(p *Probe, _ *Limits) bool {
		return p.Net == nil || p.Net.ptr() != nil
	}),
	reflect.TypeFor[ProbeNet](): valueRule(func(n *ProbeNet, _ *Limits) bool {
		for _, dests := range n.Secrets {
			if len(dests) == 0 {
				return false
			}
		}
		return true
	}),
}

// valueRule is f as a rule over the value at a pointer.
func valueRule[T any](f func(*T, *Limits) bool) func(unsafe.Pointer, *Limits) bool {
	return func(p unsafe.Pointer, l *Limits) bool { return f((*T)(p), l) }
}
