package manifest

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/probes"
)

// The keys of a [[servers]] entry that say how gate's MCP gateway reaches
// the server and which of its tools it offers (see Upstream).

var (
	// upstreamKeys are in the order the documentation gives them:
	// command or url (first) says where the server is, and the rest only
	// mean something with one of them.
	upstreamKeys = []string{"command", "url", "transport", "env", "pass_env", "default_env", "headers", "oauth", "prefix", "call_timeout", "breaker", "pin", "tools"}
	ruleKeys     = []string{"name", "match", "probe"}
)

// The bounds of the upstream keys. They are far above any real server
// and keep a broken manifest from handing the gateway something no
// operating system or client would take.
const (
	// maxCommandArgs: an MCP server's command line is a launcher and a
	// handful of flags.
	maxCommandArgs = 64
	// maxArgBytes is PATH_MAX on Linux: a path argument fits.
	maxArgBytes = 4096
	// maxPrefix leaves a prefixed name room for the tool's own name
	// within the 128 characters MCP allows a tool name.
	maxPrefix = 64
	// maxRuleName is the longest tool name MCP allows.
	maxRuleName = 128
	// maxPattern matches maxRuleName: a pattern is a name with
	// wildcards.
	maxPattern = 128
	// maxCallTimeout: a tool call that takes longer than a day is a hung
	// server, and a larger value is a typo ("30h" for "30s").
	maxCallTimeout = 24 * time.Hour
)

// upstream checks the upstream keys of the server at the place at (its
// table is t), returning nil when it has neither command nor url.
func (c *checker) upstream(at place, t map[string]any) *Upstream {
	cmd, hasCmd := t["command"]
	addr, hasURL := t["url"]
	if !hasCmd && !hasURL {
		c.notAllowed(at, t, upstreamKeys[2:], "%s needs command or url: it is about the MCP server the gateway fronts, which command (run over stdio) or url (streamable HTTP) names")
		return nil
	}
	u := &Upstream{}
	if hasCmd && hasURL {
		c.keyErr(c.later(at, "command", "url"), "command and url are mutually exclusive: the gateway either runs the server (command, over stdio) or connects to it (url, over streamable HTTP)")
	}
	if hasCmd {
		u.Command = c.command(c.key(at, "command"), cmd)
	}
	if hasURL {
		u.URL = c.upstreamURL(c.key(at, "url"), addr)
	}
	if v, ok := t["transport"]; ok {
		u.Transport = c.transport(c.key(at, "transport"), v, hasURL)
	}
	if !hasCmd {
		c.notAllowed(at, t, []string{"env", "pass_env", "default_env"}, "%s is only allowed with command: a server at a url runs elsewhere, in an environment gate does not give it")
	}
	if v, ok := t["env"]; ok && hasCmd {
		u.Env = c.env(c.key(at, "env"), v)
	}
	if v, ok := t["pass_env"]; ok && hasCmd {
		u.PassEnv = c.passEnv(c.key(at, "pass_env"), v)
	}
	if b, ok := c.boolField(at, t, "default_env"); ok && hasCmd {
		u.DefaultEnv = &b
	}
	c.credentials(at, t, u, hasURL)
	if s, p, ok := c.strField(at, t, "prefix", `a prefix (a string) like "gh_", or "" for none`); ok {
		if len(s) > maxPrefix || s != "" && !nameOf(s, maxPrefix, "_-.") {
			c.valueErr(p, `bad prefix %q: want at most %d letters, digits, _ - or . (what MCP allows in a tool name), or "" for none`, s, maxPrefix)
		} else {
			u.Prefix = &s
		}
	}
	if d, p, ok := c.duration(at, t, "call_timeout"); ok {
		switch {
		case d <= 0:
			c.valueErr(p, "call_timeout %v: want more than 0", d)
		case d > maxCallTimeout:
			c.valueErr(p, "call_timeout %v: want at most 24h (a call that takes longer is a hung server, not a slow one)", d)
		default:
			u.CallTimeout = &d
		}
	}
	if v, p, ok := c.field(at, t, "breaker"); ok {
		u.Breaker = c.breaker(p, v)
	}
	if v, p, ok := c.field(at, t, "pin"); ok {
		u.Pin = c.pin(p, v)
	}
	if v, p, ok := c.field(at, t, "tools"); ok {
		u.Tools = c.upstreamTools(p, v)
	}
	return u
}

// later returns the place of whichever of the keys a and b of the table at
// the place at is written second: a conflict is reported there, since the
// first one written is the one a reader takes as meant.
func (c *checker) later(at place, a, b string) place {
	pa, pb := c.key(at, a), c.key(at, b)
	if c.keySpan(pa).off > c.keySpan(pb).off {
		return pa
	}
	return pb
}

// command checks an upstream's argv.
func (c *checker) command(at place, v any) []string {
	arr, ok := v.([]any)
	if !ok {
		c.valueErr(at, `want an array of strings like ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."], got %s`, describe(v))
		return nil
	}
	switch {
	case len(arr) == 0:
		c.valueErr(at, "empty command: want at least the program to run")
		return nil
	case len(arr) > maxCommandArgs:
		c.valueErr(at, "command of %d strings: want at most %d", len(arr), maxCommandArgs)
		return nil
	}
	out := make([]string, len(arr))
	good := true
	for i, el := range arr {
		p := c.elem(at, i)
		s, ok := c.str(p, el, "a string")
		switch {
		case !ok:
			good = false
		case len(s) > maxArgBytes:
			c.valueErr(p, "argument of %d bytes: want at most %d", len(s), maxArgBytes)
			good = false
		case strings.IndexByte(s, 0) >= 0:
			c.valueErr(p, "argument with a NUL byte: no program can be given one")
			good = false
		case i == 0 && strings.TrimSpace(s) == "":
			c.valueErr(p, "empty program: the first string of command is the program to run")
			good = false
		case i == 0 && strings.ContainsRune(s, '/'):
			// A path, like a shell's: relative to the manifest, so that
			// it can name a server next to it whatever the gateway's
			// working directory.
			out[i] = c.resolve(s)
		default:
			out[i] = s
		}
	}
	if !good {
		return nil
	}
	return out
}

// env checks an upstream command's environment, returning it sorted by
// name so that it does not depend on the order of a map.
func (c *checker) env(at place, v any) []EnvVar {
	t, ok := c.table(at, v, `a table of strings like { NAME = "value" }`)
	if !ok {
		return nil
	}
	out := make([]EnvVar, 0, len(t))
	for _, k := range slices.Sorted(maps.Keys(t)) {
		p := c.key(at, k)
		good := true
		if !probes.ValidEnvName(k) {
			c.keyErr(p, "bad variable name %q: want a letter or _, then letters, digits or _", k)
			good = false
		}
		s, ok := c.str(p, t[k], "a string (environment values are strings)")
		switch {
		case !ok:
			good = false
		case strings.IndexByte(s, 0) >= 0:
			c.valueErr(p, "value with a NUL byte: an environment cannot hold one")
			good = false
		default:
			if _, err := SecretNames(s); err != nil {
				c.valueErr(p, "%v", err)
				good = false
			}
		}
		if good {
			out = append(out, EnvVar{Name: k, Value: s})
		}
	}
	return out
}

// passEnv checks the names of the variables an upstream command gets
// from gate's own environment.
func (c *checker) passEnv(at place, v any) []string {
	list, good := c.stringList(at, v, "variable name", "variable names")
	return c.uniqueNames(at, list, good, "variable", func(s string) string {
		if !probes.ValidEnvName(s) {
			return fmt.Sprintf("bad variable name %q: want a letter or _, then letters, digits or _", s)
		}
		return ""
	})
}

// uniqueNames checks each string of list (what stringList took at the
// place at; good is its verdict) with bad, which says what is wrong with
// one, and reports a repeated one as a duplicate what at its second place.
// It returns list, or nil when anything was wrong.
func (c *checker) uniqueNames(at place, list []string, good bool, what string, bad func(string) string) []string {
	first := make(map[string]int, len(list))
	for i, s := range list {
		if s == "" {
			continue // already reported
		}
		p := c.elem(at, i)
		if why := bad(s); why != "" {
			c.valueErr(p, "%s", why)
			good = false
			continue
		}
		if j, dup := first[s]; dup {
			c.valueErr(p, "duplicate %s %q: already listed at %s", what, s, c.path(c.elem(at, j)))
			good = false
			continue
		}
		first[s] = i
	}
	if !good {
		return nil
	}
	return list
}

// upstreamURL checks the url of a server spoken to over streamable HTTP.
// The messages never repeat the URL: it may hold credentials, and the
// source line shown under the message already has it.
func (c *checker) upstreamURL(at place, v any) string {
	s, ok := c.str(at, v, `a URL (a string) like "http://127.0.0.1:9000/mcp"`)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the URL
	}
	scheme := ""
	if u != nil {
		scheme = strings.ToLower(u.Scheme)
	}
	switch {
	case err != nil:
		c.valueErr(at, `bad url: %v; want one like "http://127.0.0.1:9000/mcp"`, err)
	case u.User != nil:
		c.valueErr(at, "url with credentials (user@ or user:password@): leave them out, since a manifest's URLs show up in logs and status; a header taken from a secret is the place for them")
	case scheme == "":
		c.valueErr(at, `url without a scheme: want http:// or https://, like "http://127.0.0.1:9000/mcp"`)
	case scheme != "http" && scheme != "https":
		c.valueErr(at, "url scheme %q: want http or https (MCP's streamable HTTP transport)", u.Scheme)
	case u.Hostname() == "":
		c.valueErr(at, `url without a host: want one like "http://127.0.0.1:9000/mcp"`)
	case strings.ContainsRune(s, '#'):
		c.valueErr(at, "url with a fragment (#...): leave it out, since HTTP never sends it to the server")
	default:
		return s
	}
	return ""
}

// upstreamTools checks a server's [[servers.tools]] rules.
func (c *checker) upstreamTools(at place, v any) []UpstreamTool {
	arr, ok := c.tableArray(at, v, "servers.tools", "rule")
	if !ok {
		return nil
	}
	if len(arr) > c.lim.MaxTools {
		// A rule is about at least one tool: no server needs more rules
		// than a manifest may have tools.
		p := c.elem(at, c.lim.MaxTools)
		c.add(c.tableSpan(p), c.path(p), c.path(p), "more than %d tool rules in one server (manifest.Limits.MaxTools)", c.lim.MaxTools)
		return nil
	}
	out := make([]UpstreamTool, 0, len(arr))
	// The place of the name or match of the first rule with each Rule(),
	// for duplicates: only then is its position needed.
	first := make(map[string]place, len(arr))
	for i, el := range arr {
		rp := c.elem(at, i)
		t, ok := c.table(rp, el, "a table")
		if !ok {
			continue
		}
		r := UpstreamTool{Pos: c.pos(c.tableSpan(rp))}
		c.unknownKeys(rp, t, ruleKeys)
		name, hasName := t["name"]
		match, hasMatch := t["match"]
		switch {
		case hasName && hasMatch:
			c.keyErr(c.later(rp, "name", "match"), "name and match are mutually exclusive: a rule fits either one tool by its name or the tools whose names match a pattern")
		case !hasName && !hasMatch:
			c.missing(rp, "name", `missing name or match: a rule fits one tool, name = "TOOL", or a pattern of them, match = "write_*"`)
		}
		idAt := place(noNode)
		if hasName {
			p := c.key(rp, "name")
			if s, ok := c.str(p, name, "a tool name (a string)"); ok {
				if !nameOf(s, maxRuleName, "_-.") {
					c.valueErr(p, "bad tool name %q: want 1 to %d letters, digits, _ - or . (what MCP allows in a tool name)", s, maxRuleName)
				} else {
					r.Name, idAt = s, p
				}
			}
		}
		if hasMatch {
			p := c.key(rp, "match")
			if s, ok := c.str(p, match, `a pattern (a string) like "write_*"`); ok {
				if msg := checkPattern(s); msg != "" {
					c.valueErr(p, "%s", msg)
				} else {
					r.Match, idAt = s, p
				}
			}
		}
		if v, ok := t["probe"]; ok {
			r.Probe = c.probe(c.key(rp, "probe"), v)
		} else {
			c.missing(rp, "probe", `missing probe: a rule offers the tools it fits only while its probe says they are available, like probe = "env:GITHUB_TOKEN"`)
		}
		if hasName != hasMatch && idAt != noNode {
			id := r.Rule()
			if p, dup := first[id]; dup {
				c.valueErr(idAt, `duplicate rule %q: already used at line %d (the gateway registers each rule's probe as "SERVER#RULE")`, id, c.pos(c.valueSpan(p)).Line)
			} else {
				first[id] = idAt
			}
		}
		out = append(out, r)
	}
	return out
}

// checkPattern returns what is wrong with a rule's match pattern, or "".
func checkPattern(p string) string {
	switch {
	case p == "":
		return `empty pattern: want one like "write_*" ("*" fits every tool)`
	case len(p) > maxPattern:
		return fmt.Sprintf("pattern of %d bytes: want at most %d", len(p), maxPattern)
	}
	// path.Match checks the whole pattern even against a name it cannot
	// fit, so "" finds every syntax error.
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Sprintf(`bad pattern %q: want a path.Match pattern: * ? [abc] [a-z] [^abc], and \ before a character to take it as it is`, p)
	}
	return ""
}

// UpstreamRuleName is the name under which a [[servers.tools]] rule's
// probe is registered with the servers: "SERVER#RULE" ('#' cannot occur in
// a server name), so that its answers are cached, refreshed, graced and
// published exactly as a server's are.
func UpstreamRuleName(server, rule string) string { return server + "#" + rule }
