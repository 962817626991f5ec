package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks what must hold for any input at all: Parse does not
// panic; every problem has a line, a column and a message, and a caret
// that lands on its line; the position index knows every path the
// checker visits; and a manifest that parses marshals to JSON, since its
// parameters go to model APIs as they are.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		for _, file := range corpus(f, dir) {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	for _, s := range []string{
		"", "\xEF\xBB\xBF", "[", "[[tools]]", "tools = [[]]", "a.b.c = 1\na.d = 2",
		"[[tools]]\nparameters.type = \"object\"\nparameters.x = [[1979-05-27]]",
		"tools = [{ name = \"a\", parameters = { type = \"object\", x = nan } }]",
		"[[tools]]\nname = \"a\"\n[tools.probe.grants]\nenv = [\"\"]",
		"x = \"\"\"\n\n\"\"\"\ny = 1\r\n",
		// Upstreams.
		"[[servers]]\nname = \"s\"\ncommand = [\"./x\", \"a\"]\nenv = { B = \"2\", A = \"1\" }\npass_env = [\"HOME\"]\nprefix = \"\"\ncall_timeout = \"5s\"\n[[servers.tools]]\nmatch = \"w*\"\nprobe = \"env:W\"\n[[servers.tools]]\nname = \"t\"\n[servers.tools.probe]\nmodule = \"m.wasm\"\n",
		"servers = [{ name = \"s\", url = \"http://h/mcp\", tools = [{ name = \"t\", probe = { standard = \"env:A\", budget = \"1ms\" } }] }]\n",
		"[[servers]]\nname = \"s\"\nurl = \"http://u@h:x/#f\"\ncommand = [\"\"]\nenv = { \"1\" = 1 }\n[servers.tools]\n",
		"[[servers]]\nname = \"s\"\nprefix = \"p\"\ntools = [{ name = \"a\", match = \"[\" }, { match = \"a\", probe = 1 }, { name = \"a\", probe = \"env:A\" }]\n",
		"[[servers]]\nname = \"s\"\nurl = \"http://h/mcp\"\nbreaker = { failures = 5, window = \"1m\", cooldown = \"9s\" }\n",
		"[[servers]]\nname = \"s\"\ncommand = [\"x\"]\n[servers.breaker]\nfailures = -1\nwindow = 1\nx = 2\n",
		"[[servers]]\nname = \"s\"\nurl = \"http://h/mcp\"\nheaders = { \"X-K\" = \"${secret:K}\", x-k = \"\\r\", Host = \"h\" }\noauth = { token_url = \"http://127.0.0.1/t\", client_id = \"c\", client_secret = \"${secret:S}\", scopes = [\"a\"] }\n",
		"[[servers]]\nname = \"s\"\ncommand = [\"x\"]\nenv = { A = \"${secret:A\" }\nheaders = {}\noauth = { token_url = \"ftp://x\", scopes = [\"a b\"] }\n",
		// ABI v2's grants and settings.
		"[[tools]]\nname = \"a\"\nprobe = { module = \"m.wasm\", tls_ca = \"../ca.pem\", proxy = true, grants = { secrets = { K = [\"h:1\", \"https://h/\"] }, insecure = [\"h:1\"], http = [\"https://h/\"] } }\n",
		"[[tools]]\nname = \"a\"\nprobe = { module = \"m.wasm\", grants = { secrets = [\"K\"] } }\n",
		"[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"m.wasm\"\n[tools.probe.grants.secrets]\nK = [\"tls:h:1\", \"unix:/s\", \"unix:/s:/p\"]\n\"A-B\" = [\"h:1\"]\nE = []\nS = \"h:1\"\nD = [\"127.1:1\", \"\", 1]\n",
		"[[tools]]\nname = \"a\"\nprobe = { standard = \"tcp:h:1\", tls_ca = \"/ca.pem\", proxy = false }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, errs, misses := parse("gate.toml", src)
		if len(misses) > 0 {
			t.Fatalf("the index does not know %q", misses)
		}
		if len(errs) > 0 {
			var err error = errs
			var got Errors
			if !errors.As(err, &got) || len(got) != len(errs) {
				t.Fatalf("errors.As(%T) into Errors failed", err)
			}
			for _, e := range got {
				if e.Pos.File != "gate.toml" || e.Pos.Line <= 0 || e.Pos.Col <= 0 || e.Msg == "" {
					t.Fatalf("bad error %#v", e)
				}
				if e.Pos.Col-1 > len(e.line) {
					t.Fatalf("column %d past the end of line %q: %v", e.Pos.Col, e.line, e)
				}
				if strings.Contains(e.Msg, "internal error") {
					t.Fatalf("recovered panic: %v", e)
				}
				if e.Detail() == "" || e.Error() == "" {
					t.Fatalf("empty rendering of %#v", e)
				}
			}
			return
		}
		if m == nil {
			t.Fatal("no manifest and no error")
		}
		for _, tool := range m.Tools {
			if _, err := json.Marshal(tool.Parameters); err != nil {
				t.Fatalf("parameters of %q do not marshal: %v", tool.Name, err)
			}
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("manifest does not marshal: %v", err)
		}
		forEachProbe(m, func(p *Probe) {
			if err := probeInvariants(p); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// forEachProbe calls fn with every probe of m.
func forEachProbe(m *Manifest, fn func(*Probe)) {
	for _, t := range m.Tools {
		if t.Probe != nil {
			fn(t.Probe)
		}
	}
	for _, s := range m.Servers {
		if s.Probe != nil {
			fn(s.Probe)
		}
		if s.Upstream != nil {
			for _, r := range s.Upstream.Tools {
				fn(r.Probe)
			}
		}
	}
}

// probeInvariants is what holds for every probe of a Manifest: one of
// Standard and Module; a standard probe with no config or grants of its
// own; paths absolute and clean.
func probeInvariants(p *Probe) error {
	g := p.Grants
	switch {
	case (p.Standard == "") == (p.Module == ""):
		return fmt.Errorf("probe %+v: want exactly one of standard and module", p)
	case p.Standard != "" && (p.Config != nil || p.SHA256 != "" || !g.IsZero()):
		return fmt.Errorf("standard probe %+v: has config or grants of its own", p)
	case p.Module != "" && (!filepath.IsAbs(p.Module) || filepath.Clean(p.Module) != p.Module):
		return fmt.Errorf("module path %q: want absolute and clean", p.Module)
	case p.TLSCA != "" && (!filepath.IsAbs(p.TLSCA) || filepath.Clean(p.TLSCA) != p.TLSCA):
		return fmt.Errorf("tls_ca path %q: want absolute and clean", p.TLSCA)
	}
	lists := [][]string{g.Env, g.Dial, g.Import, g.HTTP, g.Insecure}
	for name, dests := range g.Secrets {
		if len(dests) == 0 {
			return fmt.Errorf("probe %+v: secret %q bound to nowhere", p, name)
		}
		lists = append(lists, []string{name}, dests)
	}
	for _, list := range lists {
		for _, e := range list {
			if strings.TrimSpace(e) == "" {
				return fmt.Errorf("probe %+v: an empty grant", p)
			}
		}
	}
	// Every probe's grants compile, as the runtime will compile them.
	if err := g.Validate(); err != nil {
		return fmt.Errorf("probe %+v: its grants do not compile: %v", p, err)
	}
	return nil
}
