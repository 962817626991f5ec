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

// readOpenClaw reads the OpenClaw block of metadata into rr, if there is
// one, and says which of openClawKeys it was under:
//
//	requires.bins     all must be found (the host's binary lookup)
//	requires.anyBins  at least one must be found
//	requires.env      each must be set and not empty
//	requires.config   dotted paths into openclaw.json; recorded only
//	os                darwin | linux | win32 (read as GOOS: win32 is windows)
//	always            true skips the requires.* checks, not os
//
// The requires.* keys are listKeys. Lists are read as OpenClaw's
// normalizeCsvOrLooseStringList does (see normalizeCSVList). A block that
// is a quoted JSON string is parsed, as OpenClaw's JSON5 pass would.
func readOpenClaw(meta *yaml.Node, rr *reqReader) (string, bool) {
	for _, key := range openClawKeys {
		n := mapGet(meta, key)
		if n == nil {
			continue
		}
		if isNull(n) {
			return key, true
		}
		block, err := asMapping(n, meta.Line)
		if err != nil {
			rr.warn(Issue{Code: CodeMetadata, Line: err.Line, Message: fmt.Sprintf("metadata.%s %s: ignored", key, err.Message)})
			return key, true
		}
		if req := mapGet(block, "requires"); req != nil && !isNull(req) {
			if r := resolve(req); r != nil && r.Kind == yaml.MappingNode {
				rr.readKeys(openClawRequires, func(k string) (*yaml.Node, string) {
					return mapGet(r, k), "metadata." + key + ".requires." + k
				})
			} else {
				rr.warn(Issue{Code: CodeRequirement, Line: req.Line, Message: fmt.Sprintf(
					"metadata.%s.requires is %s, not a mapping: ignored", key, kindName(req))})
			}
		}
		if osNode := mapGet(block, "os"); osNode != nil {
			goos, unknown := translateOS(normalizeNode(osNode), openClawOS)
			rr.req.OS = appendUnique(rr.req.OS, goos...)
			if len(unknown) > 0 {
				rr.warn(Issue{Code: CodeRequirement, Line: osNode.Line, Message: fmt.Sprintf(
					"metadata.%s.os: unknown platform %s (OpenClaw uses darwin, linux, win32)", key, quoteList(unknown))})
			}
		}
		rr.req.Always = isTrue(mapGet(block, "always"))
		return key, true
	}
	return "", false
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
