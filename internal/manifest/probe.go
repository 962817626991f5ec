package manifest

import (
	"strings"

	"github.com/gate-dev/gate/internal/probes"
)

var probeKeys = []string{"module", "standard", "sha256", "config", "grants", "budget", "tls_ca", "proxy"}

// probe checks a probe in either form: a shorthand string or a table.
func (c *checker) probe(path string, v any) *Probe {
	p := &Probe{Pos: c.pos(c.keySpan(path))}
	switch v := v.(type) {
	case string:
		if sh, err := probes.ParseShorthand(v); err != nil {
			c.valueErr(path, "%v", err)
		} else {
			p.Standard = sh.String()
		}
	case map[string]any:
		c.probeTable(p, path, v)
	default:
		c.valueErr(path, `want a standard probe like "env:API_KEY" or a table like { module = "probe.wasm" }, got %s`, describe(v))
	}
	return p
}

// probeTable checks the table form: a module with its pin, config, grants
// and budget, or a standard probe with a budget; either may name a CA file
// for its TLS peers and ask for the host's proxy.
func (c *checker) probeTable(p *Probe, path string, t map[string]any) {
	c.unknownKeys(path, t, probeKeys)
	mod, hasMod := t["module"]
	std, hasStd := t["standard"]
	switch {
	case hasMod && hasStd:
		c.keyErr(path+".standard", `standard and module are mutually exclusive: a probe runs one module (drop module to use the standard probe, or standard to use your own)`)
	case !hasMod && !hasStd:
		c.missing(path, "module", `missing module: want module = "PATH.wasm", or standard = "env:VAR" for a standard probe`)
	}
	if hasMod {
		if s, ok := c.str(path+".module", mod, "a path to a .wasm file (a string)"); ok {
			if strings.TrimSpace(s) == "" {
				c.valueErr(path+".module", "empty module path")
			} else {
				p.Module = c.resolve(s)
			}
		}
	}
	if hasStd {
		if s, ok := c.str(path+".standard", std, `a standard probe shorthand like "env:API_KEY"`); ok {
			if sh, err := probes.ParseShorthand(s); err != nil {
				c.valueErr(path+".standard", "%v", err)
			} else {
				p.Standard = sh.String()
			}
		}
	}
	if hasStd && !hasMod {
		// With both, the conflict is already reported; checking the rest
		// as a module's keeps the messages to one about it.
		for _, k := range []string{"sha256", "config", "grants"} {
			if _, ok := t[k]; ok {
				c.keyErr(joinKey(path, k), "%s is not allowed with standard: a standard probe's config and grants follow from its shorthand, and its module is built into gate", k)
			}
		}
	} else {
		c.sha256(p, path+".sha256", t)
		c.config(p, path+".config", t)
		c.grants(p, path+".grants", t)
	}
	c.tlsCA(p, path+".tls_ca", t)
	if v, ok := t["proxy"]; ok {
		if b, isBool := v.(bool); isBool {
			p.Proxy = b
		} else {
			c.valueErr(path+".proxy", "want true or false, got %s", describe(v))
		}
	}
	if d, ok := c.duration(path+".budget", t); ok {
		if err := checkBudget(d); err != nil {
			c.valueErr(path+".budget", "%v", err)
		} else if rb := c.runtimeBudget; rb != nil && d > *rb {
			c.valueErr(path+".budget", "budget %v: want at most runtime.budget (%v): a probe's budget can only lower the runtime's", d, *rb)
		} else {
			p.Budget = &d
		}
	}
}

// tlsCA reads the path of the PEM file whose certificates verify the
// probe's TLS peers. The file is not read here: like a module, it is the
// runtime's to open (and a cached Manifest would otherwise keep a CA file's
// old contents).
func (c *checker) tlsCA(p *Probe, path string, t map[string]any) {
	v, ok := t["tls_ca"]
	if !ok {
		return
	}
	s, ok := c.str(path, v, `a path to a PEM file of CA certificates (a string), like "ca.pem"`)
	if !ok {
		return
	}
	if strings.TrimSpace(s) == "" {
		c.valueErr(path, "empty tls_ca path: want the PEM file of the CA certificates that verify the probe's TLS peers, or no tls_ca for the system roots")
		return
	}
	p.TLSCA = c.resolve(s)
}

// sha256 reads the optional pin of a module's contents.
func (c *checker) sha256(p *Probe, path string, t map[string]any) {
	v, ok := t["sha256"]
	if !ok {
		return
	}
	s, ok := c.str(path, v, "64 hex digits (a string)")
	if !ok {
		return
	}
	if len(s) != 64 || strings.IndexFunc(s, func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
	}) >= 0 {
		c.valueErr(path, "bad sha256 %s: want exactly 64 hex digits, as sha256sum prints them", describe(s)[len("string "):])
		return
	}
	p.SHA256 = strings.ToLower(s)
}

// config reads the probe's config: strings only, since that is all
// gate.config can return.
func (c *checker) config(p *Probe, path string, t map[string]any) {
	v, ok := t["config"]
	if !ok {
		return
	}
	cfg, ok := c.table(path, v, "a table of strings, like { url_var = \"DATABASE_URL\" }")
	if !ok {
		return
	}
	p.Config = make(map[string]string, len(cfg))
	for k, v := range cfg {
		if s, ok := c.str(joinKey(path, k), v, "a string (probe config values are strings)"); ok {
			p.Config[k] = s
		}
	}
}

// grants reads the probe's grants, checking each entry as the runtime
// will, so that a bad one is reported here, at its line, rather than when
// the probe is loaded.
func (c *checker) grants(p *Probe, path string, t map[string]any) {
	v, ok := t["grants"]
	if !ok {
		return
	}
	g, ok := c.table(path, v, grantsShape)
	if !ok {
		return
	}
	c.unknownKeys(path, g, grantKeys)
	for _, k := range grantKinds {
		if v, ok := g[k.key]; ok {
			k.read(c, joinKey(path, k.key), v, &p.Grants)
		}
	}
}
