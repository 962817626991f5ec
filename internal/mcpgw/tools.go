package mcpgw

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/uplink"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxToolBytes caps one upstream tool's definition, as JSON. A definition
// goes to the model with every request; one this large is a mistake or an
// attack, and hiding it keeps every other tool usable.
const maxToolBytes = 256 << 10

// listedTool is one tool of an upstream's listing, checked once when it
// was listed: a tool is offered as it was listed (see offer), and a
// malformed one carries why it is hidden.
type listedTool struct {
	name    string    // as the upstream names it
	tool    *mcp.Tool // cleaned, not yet prefixed; nil when invalid
	invalid string    // why the tool can never be offered; "" when valid
	def     string    // tool as JSON, to tell a changed definition
	// listed is the SHA-256 of the tool as the upstream listed it: a
	// relisting that lists it again byte for byte keeps this check of it
	// (checkTool's prev).
	listed [sha256.Size]byte
}

// size is what gate keeps of the tool, in bytes: its definition, and the
// name and reason of one it hides.
func (lt listedTool) size() int { return len(lt.name) + len(lt.invalid) + len(lt.def) }

// checkTool checks and cleans an upstream's tool. Its definition is
// bounded first, before any work on its schemas; names must be MCP tool
// names; the input schema must be a JSON Schema for an object (the SDK's
// server, and the clients, require it), within schemaObject's bounds and
// compiled offline; an output schema must be a JSON Schema too. Text a
// model reads (title, description, annotations' title, and the prose of
// the schemas) is cleaned by safetext's rule: no control, bidirectional
// formatting or invisible character, which could hide instructions from a
// person reviewing what the model is told; so is every string of _meta and
// the icons' text, which clients show or hand on too. A compile waits at most
// compileTimeout, and not past ctx (the listing's bound, or a shutdown);
// slot is the upstream's.
//
// prev is the upstream's last listing, by name, or nil: a valid tool of
// it whose definition the upstream lists again unchanged is returned as it
// is, without cleaning and compiling it again, so that a relisting costs
// the tools that changed, and an unchanged tool keeps its identity (what
// the offered set and the pins tell an unchanged tool by). An invalid one
// is checked again: its compile may have run out of time on a busy
// machine.
func checkTool(ctx context.Context, t *mcp.Tool, slot *compileSlot, prev map[string]listedTool) listedTool {
	if t == nil {
		return listedTool{invalid: "the upstream listed a null tool"}
	}
	lt := listedTool{name: t.Name}
	if depth := uplink.TooDeep(t.Meta); depth > 0 {
		lt.invalid = fmt.Sprintf("its definition nests %d deep: the listing was over the %d levels the MCP SDK decodes, and gate kept the server's other tools", depth, uplink.SDKMaxDepth)
		return lt
	}
	if err := checkToolName(t.Name); err != nil {
		lt.invalid = err.Error()
		return lt
	}
	raw, err := json.Marshal(t)
	if err := checkToolSize(raw, err); err != nil {
		lt.invalid = err.Error()
		return lt
	}
	lt.listed = sha256.Sum256(raw)
	if p, ok := prev[t.Name]; ok && p.tool != nil && p.listed == lt.listed {
		return p
	}
	c := *t
	c.Title = safetext.Clean(c.Title, false)
	c.Description = safetext.Clean(c.Description, true)
	if c.Annotations != nil {
		a := *c.Annotations
		a.Title = safetext.Clean(a.Title, false)
		c.Annotations = &a
	}
	if c.Meta, err = cleanMeta(c.Meta); err != nil {
		lt.invalid = err.Error()
		return lt
	}
	c.Icons = cleanIcons(c.Icons)
	in, err := schemaObject(ctx, c.InputSchema, true, slot)
	if err != nil {
		lt.invalid = "its inputSchema " + err.Error()
		return lt
	}
	c.InputSchema = in
	if c.OutputSchema != nil {
		out, err := schemaObject(ctx, c.OutputSchema, false, slot)
		if err != nil {
			lt.invalid = "its outputSchema " + err.Error()
			return lt
		}
		c.OutputSchema = out
	}
	// Cleaning can make text longer (U+FFFD is three bytes), so the
	// definition offered is measured again.
	def, err := json.Marshal(&c)
	if err := checkToolSize(def, err); err != nil {
		lt.invalid = err.Error()
		return lt
	}
	lt.tool, lt.def = &c, string(def)
	return lt
}

// checkToolSize refuses a tool whose definition, as JSON, is over
// maxToolBytes or could not be written.
func checkToolSize(def []byte, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("it cannot be written as JSON: %v", err)
	case len(def) > maxToolBytes:
		return fmt.Errorf("its definition is %d bytes, over the gateway's %d", len(def), maxToolBytes)
	}
	return nil
}

// checkToolName applies MCP's tool-name rule (SEP-986), which the Go SDK's
// server logs and the clients enforce: 1 to 128 of A-Z a-z 0-9 _ - .
func checkToolName(name string) error {
	if name == "" || len(name) > 128 {
		return fmt.Errorf("its name has %d bytes: MCP tool names have 1 to 128", len(name))
	}
	for i := 0; i < len(name); i++ {
		if !toolNameByte(name[i]) {
			return fmt.Errorf("its name %s has a character MCP tool names cannot have (A-Z a-z 0-9 _ - . only)", safetext.Terminal(fmt.Sprintf("%q", name)))
		}
	}
	return nil
}

func toolNameByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '-' || b == '.'
}

// DefaultPrefix is the prefix of a server's tools when its manifest entry
// writes none: its name with every character an MCP tool name cannot
// have made "_", then "_" ("mcp:github" gives "mcp_github_").
func DefaultPrefix(server string) string {
	b := []byte(server)
	for i := range b {
		if !toolNameByte(b[i]) {
			b[i] = '_'
		}
	}
	return string(b) + "_"
}

func prefixOf(name string, u *manifest.Upstream) string {
	if u.Prefix != nil {
		return *u.Prefix
	}
	return DefaultPrefix(name)
}

// ruleFor returns the first rule that fits the upstream tool name, or nil.
func ruleFor(rules []manifest.UpstreamTool, name string) *manifest.UpstreamTool {
	for i := range rules {
		r := &rules[i]
		if r.Name != "" {
			if r.Name == name {
				return r
			}
			continue
		}
		if ok, _ := path.Match(r.Match, name); ok {
			return r
		}
	}
	return nil
}
