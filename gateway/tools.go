package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
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
	def     []byte    // tool as JSON, to tell a changed definition
}

// checkTool checks and cleans an upstream's tool. Names must be MCP tool
// names; the input schema must be a JSON Schema for an object (the SDK's
// server, and the clients, require it), compiled offline; an output schema
// must be a JSON Schema too. Text a model reads (title, description,
// annotations' title) is cleaned of control and bidirectional formatting
// characters, which could hide instructions from a person reviewing what
// the model is told.
func checkTool(t *mcp.Tool) listedTool {
	if t == nil {
		return listedTool{invalid: "the upstream listed a null tool"}
	}
	lt := listedTool{name: t.Name}
	if err := checkToolName(t.Name); err != nil {
		lt.invalid = err.Error()
		return lt
	}
	c := *t
	c.Title = safetext.Clean(c.Title, false)
	c.Description = safetext.Clean(c.Description, true)
	if c.Annotations != nil {
		a := *c.Annotations
		a.Title = safetext.Clean(a.Title, false)
		c.Annotations = &a
	}
	in, err := schemaObject(c.InputSchema, true)
	if err != nil {
		lt.invalid = "its inputSchema " + err.Error()
		return lt
	}
	c.InputSchema = in
	if c.OutputSchema != nil {
		out, err := schemaObject(c.OutputSchema, false)
		if err != nil {
			lt.invalid = "its outputSchema " + err.Error()
			return lt
		}
		c.OutputSchema = out
	}
	def, err := json.Marshal(&c)
	switch {
	case err != nil:
		lt.invalid = "it cannot be written as JSON: " + err.Error()
		return lt
	case len(def) > maxToolBytes:
		lt.invalid = fmt.Sprintf("its definition is %d bytes, over the gateway's %d", len(def), maxToolBytes)
		return lt
	}
	lt.tool, lt.def = &c, def
	return lt
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

// schemaObject returns a schema given as any JSON value as the raw JSON of
// an object, after checking that it compiles as a JSON Schema offline
// (draft 2020-12 unless it says otherwise, no remote references) and, for
// an input schema, that its type is "object".
func schemaObject(v any, input bool) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("cannot be written as JSON: %v", err)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("is not a JSON object")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("is not JSON: %v", err)
	}
	m, _ := doc.(map[string]any)
	if input && m["type"] != "object" {
		return nil, fmt.Errorf(`has type %s: MCP wants "object"`, describeType(m["type"]))
	}
	if err := compileSchema(raw, m); err != nil {
		return nil, fmt.Errorf("is not a valid JSON Schema: %s", firstLine(err.Error()))
	}
	return raw, nil
}

func describeType(v any) string {
	if v == nil {
		return "unset"
	}
	b, _ := json.Marshal(v)
	return safetext.Terminal(string(b))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return safetext.Clean(s, false)
}

// compiled remembers the schemas that compiled, by their bytes' hash:
// upstreams relist on every list_changed and most tools of a server share
// a handful of schemas, while a compile costs tens of microseconds. Past
// compiledMax entries it starts again, which only costs compiles.
var compiled struct {
	sync.Mutex
	sums map[[sha256.Size]byte]struct{}
}

const compiledMax = 65536

func compileSchema(raw []byte, doc map[string]any) error {
	sum := sha256.Sum256(raw)
	compiled.Lock()
	_, ok := compiled.sums[sum]
	compiled.Unlock()
	if ok {
		return nil
	}
	if err := manifest.CompileSchema(doc); err != nil {
		return err
	}
	compiled.Lock()
	if compiled.sums == nil || len(compiled.sums) >= compiledMax {
		compiled.sums = map[[sha256.Size]byte]struct{}{}
	}
	compiled.sums[sum] = struct{}{}
	compiled.Unlock()
	return nil
}
