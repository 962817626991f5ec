package skills

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// openClawKeys are the metadata keys OpenClaw's block may live under, in the
// order they are looked for: the current name, then the legacy names of the
// project (clawdbot, clawdis, moltbot), all found in published skills. The
// first one present wins.
var openClawKeys = []string{"openclaw", "clawdbot", "clawdis", "moltbot"}

// openClaw is what an OpenClaw metadata block requires.
type openClaw struct {
	key                        string // which of openClawKeys
	bins, anyBins, env, config []string
	os                         []string // GOOS values
	always                     bool
}

// readOpenClaw reads the OpenClaw block of metadata, if there is one:
//
//	requires.bins     all must be found (the host's binary lookup)
//	requires.anyBins  at least one must be found
//	requires.env      each must be set and not empty
//	requires.config   dotted paths into openclaw.json; recorded only
//	os                darwin | linux | win32 (read as GOOS: win32 is windows)
//	always            true skips the requires.* checks, not os
//
// Lists are read as OpenClaw's normalizeCsvOrLooseStringList does (see
// NormalizeCSVList). A block that is a quoted JSON string is parsed, as
// OpenClaw's JSON5 pass would.
func readOpenClaw(meta *yaml.Node, warn func(Issue)) (openClaw, bool) {
	for _, key := range openClawKeys {
		n := mapGet(meta, key)
		if n == nil {
			continue
		}
		oc := openClaw{key: key}
		if isNull(n) {
			return oc, true
		}
		block, err := asMapping(n, meta.Line)
		if err != nil {
			warn(Issue{Code: CodeMetadata, Line: err.Line, Message: fmt.Sprintf("metadata.%s %s: ignored", key, err.Message)})
			return oc, true
		}
		if req := mapGet(block, "requires"); req != nil && !isNull(req) {
			if r := resolve(req); r != nil && r.Kind == yaml.MappingNode {
				oc.bins = dedupe(normalizeNode(mapGet(r, "bins")))
				oc.anyBins = dedupe(normalizeNode(mapGet(r, "anyBins")))
				oc.env = dedupe(normalizeNode(mapGet(r, "env")))
				oc.config = dedupe(normalizeNode(mapGet(r, "config")))
			} else {
				warn(Issue{Code: CodeRequirement, Line: req.Line, Message: fmt.Sprintf(
					"metadata.%s.requires is %s, not a mapping: ignored", key, kindName(req))})
			}
		}
		if osNode := mapGet(block, "os"); osNode != nil {
			var unknown []string
			oc.os, unknown = translateOS(normalizeNode(osNode), openClawOS)
			if len(unknown) > 0 {
				warn(Issue{Code: CodeRequirement, Line: osNode.Line, Message: fmt.Sprintf(
					"metadata.%s.os: unknown platform %s (OpenClaw uses darwin, linux, win32)", key, quoteList(unknown))})
			}
		}
		oc.always = isTrue(mapGet(block, "always"))
		return oc, true
	}
	return openClaw{}, false
}

// openClawOS translates an OpenClaw platform (Node's process.platform) to
// GOOS: win32 is windows; darwin and linux are the same.
func openClawOS(p string) string {
	p = strings.ToLower(strings.TrimSpace(p))
	if p == "win32" {
		return "windows"
	}
	return p
}

// translateOS translates platform names with tr, without duplicates; unknown
// lists the names that are not a GOOS after translation (they are kept).
func translateOS(names []string, tr func(string) string) (goos, unknown []string) {
	for _, n := range names {
		g := tr(n)
		if !knownGOOS[g] {
			unknown = append(unknown, n)
		}
		goos = append(goos, g)
	}
	return dedupe(goos), dedupe(unknown)
}

// quoteList formats names for a message: "x", or "x", "y" and 3 more.
func quoteList(names []string) string {
	const show = 3
	q := make([]string, 0, show)
	for i, n := range names {
		if i == show {
			return strings.Join(q, ", ") + fmt.Sprintf(" and %d more", len(names)-show)
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}

// knownGOOS are the operating systems Go knows (go tool dist list).
var knownGOOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true, "openbsd": true,
	"plan9": true, "solaris": true, "wasip1": true, "windows": true,
}

// mapGet returns the value of key in mapping m (the last one, if repeated);
// nil when m is not a mapping or has no such key.
func mapGet(m *yaml.Node, key string) *yaml.Node {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	var v *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := resolve(m.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key {
			v = m.Content[i+1]
		}
	}
	return v
}
