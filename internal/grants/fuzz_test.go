package grants

import (
	"net"
	"net/netip"
	"strings"
	"testing"
)

// FuzzGrants hands the grant compiler and matchers arbitrary grants and
// requests. Whatever they are, nothing panics, and the rules that keep a
// pattern from reaching further than it reads hold: a request with ".."
// never matches, a host name never matches a pattern with fewer labels
// (unless the pattern is the whole-host "*"), an absolute import path
// needs a path grant, a '*' never covers a '/', and the address gate.dial
// would connect to is the one that was matched.
func FuzzGrants(f *testing.F) {
	seeds := [][2]string{
		{"10.0.0.*:5432", "10.0.0.5.attacker.example:5432"},
		{"*.example.com:443", "a.b.example.com:443"},
		{"unix:/run/app/*.sock", "unix:/run/app/../secret/docker.sock"},
		{"10.0.0.0/24:5432", "[::ffff:10.0.0.5]:5432"},
		{"[fd00::/8]:*", "[fd00::1]:80"},
		{"[::1]:6379", "[0:0::1]:6379"},
		{"localhost:*", "LocalHost.:80"},
		{"*:80", "0x7f000001:80"},
		{"lib:/opt/cuda/*", "lib:/opt/cuda/x/y.so"},
		{"bin:*", "bin:/usr/bin/docker"},
		{"*", "lib:/etc/passwd"},
		{"k8s:*", "k8s:deployment/api"},
		{"*:/opt/*", "lib:/opt/../etc/passwd"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, grant, req string) {
		checkDialInvariants(t, grant, req)
		checkImportInvariants(t, grant, req)
		if p, err := (Grants{Env: []string{grant}}).Compile(); err == nil {
			p.AllowEnv(req)
		}
	})
}

func checkDialInvariants(t *testing.T, grant, req string) {
	p, err := Grants{Dial: []string{grant}}.Compile()
	if err != nil {
		return
	}
	network, target, verdict := p.CheckDial(req)
	if allowed := p.AllowDial(req); allowed != (verdict == Granted) {
		t.Fatalf("dial %q under %q: AllowDial %v, CheckDial %d", req, grant, allowed, verdict)
	}
	if verdict != Granted {
		return
	}
	if strings.Contains(req, "..") {
		t.Fatalf("dial %q with .. matched %q", req, grant)
	}
	// What is dialled parses back to what was matched.
	again := target
	if network == "unix" {
		again = "unix:" + target
	}
	a, err1 := ParseDialAddr(req)
	b, err2 := ParseDialAddr(again)
	if err1 != nil || err2 != nil || a != b {
		t.Fatalf("dial %q matched %q but would connect to %s %q (%v, %v)", req, grant, network, target, err1, err2)
	}
	if a.unix {
		if gp, ok := strings.CutPrefix(grant, "unix:"); ok && !strings.Contains(gp[1:], "/") && strings.Contains(a.name[1:], "/") {
			t.Fatalf("dial %q: a '*' covered a '/' of %q", req, grant)
		}
		return
	}
	gh, _, err := net.SplitHostPort(grant)
	if err != nil {
		t.Fatalf("dial %q matched %q, which is no host:port", req, grant)
	}
	gh = strings.TrimSuffix(gh, ".")
	if gh == "*" || gh == "" || a.name == "" {
		return
	}
	if strings.Count(a.name, ".") > strings.Count(gh, ".") {
		t.Fatalf("dial %q (%d labels) matched %q (%d labels)", req, strings.Count(a.name, ".")+1, grant, strings.Count(gh, ".")+1)
	}
	if _, err := netip.ParseAddr(strings.Trim(gh, "[]")); err == nil || strings.Contains(gh, "/") {
		t.Fatalf("host name %q matched the address grant %q", req, grant)
	}
}

func checkImportInvariants(t *testing.T, grant, req string) {
	p, err := Grants{Import: []string{grant}}.Compile()
	if err != nil || !p.AllowImport(req) {
		return
	}
	if strings.Contains(req, "..") {
		t.Fatalf("import %q with .. matched %q", req, grant)
	}
	if _, _, err := SplitSpec(req); err != nil {
		t.Fatalf("import %q matched %q but gate.import refuses it: %v", req, grant, err)
	}
	_, name, _ := strings.Cut(req, ":")
	_, gname, _ := strings.Cut(grant, ":")
	if strings.HasPrefix(name, "/") && !strings.HasPrefix(gname, "/") {
		t.Fatalf("import path %q matched the non-path grant %q", req, grant)
	}
	if strings.Contains(name, "/") && !strings.Contains(grant, "/") {
		t.Fatalf("import %q: a '*' of %q covered a '/'", req, grant)
	}
}
