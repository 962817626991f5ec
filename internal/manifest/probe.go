package manifest

import (
	"strings"

	"github.com/gate-dev/gate/internal/probes"
)

var probeKeys = []string{"module", "standard", "sha256", "config", "grants", "budget", "tls_ca", "proxy"}

// probe checks a probe in either form: a shorthand string or a table.
func (c *checker) probe(at place, v any) *Probe {
	p := &Probe{Pos: c.pos(c.keySpan(at))}
	switch v := v.(type) {
	case string:
		if sh, err := probes.ParseShorthand(v); err != nil {
			c.valueErr(at, "%v", err)
		} else {
			p.Standard = sh.String()
		}
	case map[string]any:
		c.probeTable(p, at, v)
	default:
		c.valueErr(at, `want a standard probe like "env:API_KEY" or a table like { module = "probe.wasm" }, got %s`, describe(v))
	}
	return p
}

// probeTable checks the table form: a module with its pin, config, grants
// and budget, or a standard probe with a budget; either may name a CA file
// for its TLS peers and ask for the host's proxy.
func (c *checker) probeTable(p *Probe, at place, t map[string]any) {
	c.unknownKeys(at, t, probeKeys)
	_, hasMod := t["module"]
	_, hasStd := t["standard"]
	switch {
	case hasMod && hasStd:
		c.keyErr(c.key(at, "standard"), `standard and module are mutually exclusive: a probe runs one module (drop module to use the standard probe, or standard to use your own)`)
	case !hasMod && !hasStd:
		c.missing(at, "module", `missing module: want module = "PATH.wasm", or standard = "env:VAR" for a standard probe`)
	}
	if s, kp, ok := c.strField(at, t, "module", "a path to a .wasm file (a string)"); ok {
		if strings.TrimSpace(s) == "" {
			c.valueErr(kp, "empty module path")
		} else {
			p.Module = c.resolve(s)
		}
	}
	if s, kp, ok := c.strField(at, t, "standard", `a standard probe shorthand like "env:API_KEY"`); ok {
		if sh, err := probes.ParseShorthand(s); err != nil {
			c.valueErr(kp, "%v", err)
		} else {
			p.Standard = sh.String()
		}
	}
	if hasStd && !hasMod {
		// With both, the conflict is already reported; checking the rest
		// as a module's keeps the messages to one about it.
		c.notAllowed(at, t, []string{"sha256", "config", "grants"}, "%s is not allowed with standard: a standard probe's config and grants follow from its shorthand, and its module is built into gate")
	} else {
		c.sha256(p, at, t)
		c.config(p, at, t)
		c.grants(p, at, t)
	}
	c.tlsCA(p, at, t)
	p.Proxy, _ = c.boolField(at, t, "proxy")
	if d, kp, ok := c.duration(at, t, "budget"); ok {
		if err := checkBudget(d); err != nil {
			c.valueErr(kp, "%v", err)
		} else if rb := c.runtimeBudget; rb != nil && d > *rb {
			c.valueErr(kp, "budget %v: want at most runtime.budget (%v): a probe's budget can only lower the runtime's", d, *rb)
		} else {
			p.Budget = &d
		}
	}
}

// tlsCA reads the path of the PEM file whose certificates verify the
// probe's TLS peers. The file is not read here: like a module, it is the
// runtime's to open (and a cached Manifest would otherwise keep a CA file's
// old contents).
func (c *checker) tlsCA(p *Probe, probe place, t map[string]any) {
	s, at, ok := c.strField(probe, t, "tls_ca", `a path to a PEM file of CA certificates (a string), like "ca.pem"`)
	if !ok {
		return
	}
	if strings.TrimSpace(s) == "" {
		c.valueErr(at, "empty tls_ca path: want the PEM file of the CA certificates that verify the probe's TLS peers, or no tls_ca for the system roots")
		return
	}
	p.TLSCA = c.resolve(s)
}

// sha256 reads the optional pin of a module's contents.
func (c *checker) sha256(p *Probe, probe place, t map[string]any) {
	s, at, ok := c.strField(probe, t, "sha256", "64 hex digits (a string)")
	if !ok {
		return
	}
	if len(s) != 64 || strings.IndexFunc(s, func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
	}) >= 0 {
		c.valueErr(at, "bad sha256 %s: want exactly 64 hex digits, as sha256sum prints them", describe(s)[len("string "):])
		return
	}
	p.SHA256 = strings.ToLower(s)
}

// config reads the probe's config: strings only, since that is all
// gate.config can return.
func (c *checker) config(p *Probe, probe place, t map[string]any) {
	v, at, ok := c.field(probe, t, "config")
	if !ok {
		return
	}
	cfg, ok := c.table(at, v, "a table of strings, like { url_var = \"DATABASE_URL\" }")
	if !ok {
		return
	}
	p.Config = make(map[string]string, len(cfg))
	for k, v := range cfg {
		if s, ok := c.str(c.key(at, k), v, "a string (probe config values are strings)"); ok {
			p.Config[k] = s
		}
	}
}

// grants reads the probe's grants, checking each entry as the runtime
// will, so that a bad one is reported here, at its line, rather than when
// the probe is loaded.
func (c *checker) grants(p *Probe, probe place, t map[string]any) {
	v, at, ok := c.field(probe, t, "grants")
	if !ok {
		return
	}
	g, ok := c.table(at, v, grantsShape)
	if !ok {
		return
	}
	c.unknownKeys(at, g, grantKeys)
	for _, k := range grantKinds {
		if v, ok := g[k.key]; ok {
			k.read(c, c.key(at, k.key), v, &p.Grants)
		}
	}
}
