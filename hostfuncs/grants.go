package hostfuncs

import (
	"slices"
	"sort"

	"github.com/gate-dev/gate/internal/grants"
)

// Grants name what one probe may ask the host. Everything a grant does not
// name is denied: a probe with zero Grants can read its own config, set a
// reason and log, and nothing else.
//
// Each entry is an exact name or a pattern in which "*" matches a run of
// characters (including none); there are no other metacharacters. What a
// "*" may cover depends on the kind, so that a pattern never reaches
// further than it reads: in env names anything, in import names and unix
// socket paths anything but "/", in host names part of one label (and in
// an IPv4 pattern one whole octet). docs/ABI.md ("Grants") states the
// rules with examples.
type Grants struct {
	// Env names environment variables the probe may read: "SERP_API_KEY",
	// "AWS_*". Names are case-sensitive.
	Env []string

	// Dial names addresses the probe may connect to: "localhost:5432",
	// "*.internal.example:443", "127.0.0.1:*", "10.0.0.0/24:5432",
	// "[fd00::/8]:*", "unix:/var/run/docker.sock" (see grants_dial.go).
	Dial []string

	// Import names dependency specs the probe may look up: "py:psycopg2",
	// "bin:*", "lib:/opt/cuda/lib64/*" (see grants_import.go).
	Import []string

	// HTTP names URL prefixes the probe may request with gate.http (ABI
	// v2): "https://api.example.com/v1/", "http://127.0.0.1:*/",
	// "unix:/var/run/docker.sock:/_ping" (see grants_http.go).
	HTTP []string

	// Secrets names environment variables the probe may place into what it
	// sends, as ${secret:NAME}, but never read, each with the destinations
	// it may be sent to: {"REDIS_PASSWORD": {"127.0.0.1:6379"},
	// "API_KEY": {"https://api.example.com/v1/"}} (see grants_secrets.go).
	// A placeholder in a stream or request to anywhere else is refused
	// before anything is sent. gate.env answers denied for them even when
	// Env matches, and their values are redacted from what their
	// destinations send back (see secrets.go). Exact names only; every
	// secret needs at least one destination.
	Secrets map[string][]string

	// Insecure names addresses, as Dial does, to which the probe may connect
	// over TLS without verifying the peer (gate.connect and gate.http with
	// FlagInsecure). It grants nothing by itself: the address must be
	// granted by Dial or HTTP too.
	Insecure []string
}

// Validate checks every entry of g, as a probe made with g would be
// checked: an error names the kind, the entry and what is wrong with it.
func (g Grants) Validate() error {
	_, err := grants.Spec(g).Compile()
	return err
}

// IsZero reports whether g grants nothing.
func (g Grants) IsZero() bool {
	return len(g.Env) == 0 && len(g.Dial) == 0 && len(g.Import) == 0 &&
		len(g.HTTP) == 0 && len(g.Secrets) == 0 && len(g.Insecure) == 0
}

// Merge returns the union of g and o, sorted and without duplicates.
func (g Grants) Merge(o Grants) Grants {
	return Grants{
		Env:      union(g.Env, o.Env),
		Dial:     union(g.Dial, o.Dial),
		Import:   union(g.Import, o.Import),
		HTTP:     union(g.HTTP, o.HTTP),
		Secrets:  mergeSecrets(g.Secrets, o.Secrets),
		Insecure: union(g.Insecure, o.Insecure),
	}
}

// mergeSecrets is the union of two secrets grants, name by name.
func mergeSecrets(a, b map[string][]string) map[string][]string {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make(map[string][]string, len(a)+len(b))
	for _, m := range []map[string][]string{a, b} {
		for name, dests := range m {
			out[name] = union(out[name], dests)
		}
	}
	return out
}

func union(a, b []string) []string {
	if len(a)+len(b) == 0 {
		return nil
	}
	// Sorted, then repeats dropped: no map for the one or two names a
	// probe is usually granted.
	out := make([]string, 0, len(a)+len(b))
	out = append(append(out, a...), b...)
	sort.Strings(out)
	return slices.Clip(slices.Compact(out))
}
