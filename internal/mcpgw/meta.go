package mcpgw

import (
	"errors"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errMetaKey is why a definition whose _meta has a key safetext's rule
// would change is not offered: a key is a name, and two keys cleaned to
// one would leave which value a client sees to chance.
var errMetaKey = errors.New("its _meta has a key with a control, bidirectional-formatting or invisible character")

// cleanMeta returns m with safetext's rule applied to every string value
// in it, at any depth, as to a description: a client shows _meta's text
// (an app's resource URI, a widget's template) or hands it to a model, as
// it does the definition's other text. m is not changed; a key the rule
// would change is errMetaKey.
func cleanMeta(m mcp.Meta) (mcp.Meta, error) {
	if m == nil {
		return nil, nil
	}
	v, err := cleanJSON(map[string]any(m))
	if err != nil {
		return nil, err
	}
	return mcp.Meta(v.(map[string]any)), nil
}

// cleanJSON is cleanMeta for one decoded JSON value.
func cleanJSON(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return safetext.Clean(x, true), nil
	case []any:
		out := make([]any, len(x))
		for i, el := range x {
			c, err := cleanJSON(el)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, el := range x {
			if safetext.IndexRefused(k, false) >= 0 {
				return nil, errMetaKey
			}
			c, err := cleanJSON(el)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	}
	return v, nil
}

// cleanIcons returns icons with safetext's rule applied to their text,
// each a single line.
func cleanIcons(icons []mcp.Icon) []mcp.Icon {
	if icons == nil {
		return nil
	}
	out := make([]mcp.Icon, len(icons))
	for i, ic := range icons {
		ic.Source = safetext.Clean(ic.Source, false)
		ic.MIMEType = safetext.Clean(ic.MIMEType, false)
		ic.Theme = mcp.IconTheme(safetext.Clean(string(ic.Theme), false))
		if ic.Sizes != nil {
			sizes := make([]string, len(ic.Sizes))
			for j, s := range ic.Sizes {
				sizes[j] = safetext.Clean(s, false)
			}
			ic.Sizes = sizes
		}
		out[i] = ic
	}
	return out
}
