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
// (normalizeList). A toolset is present while at least one of its tools
// is available (availability.Toolsets): a manifest tool names its toolset
// with toolset = "web", and one that names none is in the toolset of its
// own name (ManagerOptions.Toolsets).
//
// Hermes' top-level keys are read elsewhere: platforms (readPlatforms) and
// required_environment_variables (readEnvEntries).
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

// readEnvEntries reads Hermes' top-level required_environment_variables,
// whose items are variable names, or mappings with a name:
//
//	required_environment_variables: [SCIMINER_API_KEY]
//
//	required_environment_variables:
//	  - name: HOMELAB_GH_TOKEN
//	    prompt: GitHub token for the homelab repositories
//	    help: https://github.com/settings/tokens
//	    required_for: opening pull requests
//
// Hermes asks the user for a missing variable with its prompt and help;
// gate asks no one, so only the names are kept. A name is text, trimmed.
// One mapping on its own is a list of one, as Hermes reads it; a string
// is split as PraisonAI's lists are (normalizeList), and null items are
// dropped, as in every list. Anything else (a mapping with no name, or
// one that is not text or is empty; a list inside the list; a number) is
// reported with its line and skipped: the rest of the list still counts.
// The line is where the item is written (an alias's, not its anchor's).
func readEnvEntries(rr *reqReader, what string, n *yaml.Node) []string {
	r := resolve(n)
	if isNull(r) {
		return nil
	}
	bad := func(line int, format string, args ...any) {
		rr.warn(Issue{Code: CodeRequirement, Line: line, Message: what + ": " + fmt.Sprintf(format, args...) + ": ignored"})
	}
	var items []*yaml.Node
	switch {
	case r.Kind == yaml.SequenceNode:
		items = r.Content
	case r.Kind == yaml.MappingNode:
		items = []*yaml.Node{r}
	case r.ShortTag() == "!!str":
		return splitNames(r.Value)
	default:
		rr.warn(Issue{Code: CodeRequirement, Line: r.Line, Message: fmt.Sprintf(
			"%s is %s, not a list of names or of mappings with a name: ignored", what, kindName(r))})
		return nil
	}
	var names []string
	for i, item := range items {
		it := resolve(item)
		switch {
		case isNull(it):
		case it.Kind == yaml.ScalarNode:
			if s := strings.TrimSpace(it.Value); s != "" {
				names = append(names, s)
			}
		case it.Kind == yaml.MappingNode:
			name := mapGet(it, "name")
			switch {
			case name == nil:
				bad(item.Line, "item %d has no name", i+1)
			case resolve(name) == nil || resolve(name).ShortTag() != "!!str":
				bad(name.Line, "the name of item %d is %s, not text", i+1, kindName(name))
			case strings.TrimSpace(resolve(name).Value) == "":
				bad(name.Line, "the name of item %d is empty", i+1)
			default:
				names = append(names, strings.TrimSpace(resolve(name).Value))
			}
		default:
			bad(item.Line, "item %d is %s, not a name or a mapping with a name", i+1, kindName(it))
		}
	}
	return names
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
