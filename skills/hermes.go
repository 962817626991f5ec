package skills

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readHermes reads metadata.hermes (Nous Research's hermes-agent) into
// rr:
//
//	requires_tools         every tool must be available
//	requires_toolsets      every toolset must be present
//	fallback_for_tools     offered only while none of these tools is available
//	fallback_for_toolsets  offered only while none of these toolsets is present
//
// They are listKeys, and take the same forms as PraisonAI's lists
// (NormalizeList). gate has no toolsets of its own: a toolset X counts as
// present when a tool or a server named exactly X is available (Hermes
// names its toolsets after what they provide: "web", "terminal").
//
// Hermes' top-level platforms is read by readPlatforms.
func readHermes(meta *yaml.Node, rr *reqReader) {
	n := mapGet(meta, "hermes")
	if n == nil || isNull(n) {
		return
	}
	block, err := asMapping(n, meta.Line)
	if err != nil {
		rr.warn(Issue{Code: CodeMetadata, Line: err.Line, Message: "metadata.hermes " + err.Message + ": ignored"})
		return
	}
	rr.readKeys(hermesBlock, func(key string) (*yaml.Node, string) {
		return mapGet(block, key), "metadata.hermes." + key
	})
}

// hermesPlatforms translates Hermes' platforms to GOOS.
var hermesPlatforms = map[string]string{"macos": "darwin", "linux": "linux", "windows": "windows"}

// readPlatforms reads Hermes' top-level platforms (a list; a single value
// is wrapped) as GOOS values: macos is darwin, linux and windows are
// themselves. OpenClaw's spellings (darwin, win32) are accepted too; any
// other value is kept as written, lower-cased, with a warning, and matches
// a GOOS of that name.
func readPlatforms(n *yaml.Node, warn func(Issue)) []string {
	goos, unknown := translateOS(normalizeNode(n), hermesOS)
	if len(unknown) > 0 {
		line := 0
		if r := resolve(n); r != nil {
			line = r.Line
		}
		warn(Issue{Code: CodeRequirement, Line: line, Message: fmt.Sprintf(
			"platforms: unknown platform %s (Hermes uses macos, linux, windows)", quoteList(unknown))})
	}
	return goos
}

func hermesOS(p string) string {
	p = strings.ToLower(strings.TrimSpace(p))
	if g, ok := hermesPlatforms[p]; ok {
		return g
	}
	return openClawOS(p)
}
