package host

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
)

// The hostile tests of secrets. Each plays a probe that is granted a
// secret and tries to get its value, its length or a relation between two
// values back (or to somebody the value is not meant for), through the
// trampoline and the real host functions, against real loopback peers
// written beside the tests (hostile_secrets_peers_test.go) and the real
// Redis. Each asserts the property that must hold once a secret is bound
// to its destinations (docs/ABI.md, "Secrets"):
//
//   - what comes back from a destination the secret is bound to is
//     redacted whole, wherever the host cuts it (the body window, the recv
//     return, the bytes-in bound) and whatever encoding the probe asks for;
//   - nothing comes back redacted from a run that has not sent the secret,
//     or from a destination it is not bound to, so that candidate strings
//     echoed back tell nothing;
//   - no count the probe reads depends on a value's length, and the bytes
//     on the wire are within the run's bound;
//   - a value never travels on to a destination it is not bound to, not in
//     a redirect, a header, a Referer or a denial.
//
// A destination the secret is bound to is trusted with it: a peer there
// that computes on the value (Redis GETRANGE, an error line that keeps
// 128 bytes, base64) can hand it back in a form no redaction recognises.
// Tests of that class (marked "Trusted by design") make the same attack
// against a peer the secret is not bound to instead, and assert that it
// is refused before anything is sent.

// boundSecret is the secrets grant of every hostile test: the probe may
// send the secret name to dests, and to nowhere else. A destination is
// written as the grant that reaches it: "host:port", "tls:host:port" and
// "unix:/path" for streams, an http grant ("http://host:port/prefix") for
// gate.http. Every secrets grant of these tests is made here, so that its
// form changes in one place.
func boundSecret(name string, dests ...string) Grants {
	return Grants{Secrets: map[string][]string{name: dests}}
}

// reach grants what a probe needs to reach each destination, written as
// boundSecret's are: a dial grant for a stream's address (without "tls:"),
// an http grant for a URL. Every dial and http grant of these tests is
// made here.
func reach(dests ...string) Grants {
	var g Grants
	for _, d := range dests {
		switch {
		case strings.HasPrefix(d, "http://"), strings.HasPrefix(d, "https://"):
			g.HTTP = append(g.HTTP, d)
		default:
			g.Dial = append(g.Dial, strings.TrimPrefix(d, "tls:"))
		}
	}
	return g
}

// grantsOf merges the grants of a test: reach and boundSecret's.
func grantsOf(parts ...Grants) Grants {
	var g hostfuncs.Grants
	for _, p := range parts {
		g = g.Merge(hostfuncs.Grants(p))
	}
	return Grants(g)
}

// hostileCall is a Call for probe "t" granted g, whose environment is env
// (the secrets' values), with a budget long enough that no bound but the
// ones under test ends a call. It ends with the test.
func hostileCall(t testing.TB, g Grants, env map[string]string) *Call {
	t.Helper()
	c := budgetCall(t, g, 20*time.Second)
	c.LookupEnv = func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
	t.Cleanup(c.End)
	return c
}

// valueAlphabet is what hostileValue draws from: letters that no peer,
// padding, header or placeholder of these tests writes three of in a row,
// so that three bytes of a value in a row in what a probe read came from
// the value.
const valueAlphabet = "JKQVWXZjkqvwxz"

// hostileValue returns a secret's value of n bytes from valueAlphabet,
// the same for the same seed.
func hostileValue(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 20))
	b := make([]byte, n)
	for i := range b {
		b[i] = valueAlphabet[rng.IntN(len(valueAlphabet))]
	}
	return string(b)
}

// specialValue is a value that every encoding changes: a space, '/', '@',
// a quote, a backslash and '<' among letters, so that its JSON, query and
// path forms all differ from it and from each other.
func specialValue(seed uint64) string {
	v := []byte(hostileValue(seed, 40))
	for i, c := range []byte(` /@"\<`) {
		v[5+6*i] = c
	}
	return string(v)
}

// valueForms are the forms in which a value may come back whole from a
// peer that computes on it, by name.
func valueForms(v string) map[string]string {
	j, _ := json.Marshal(v)
	path := url.PathEscape(v)
	return map[string]string{
		"raw":           v,
		"upper":         strings.ToUpper(v),
		"lower":         strings.ToLower(v),
		"reversed":      reverse(v),
		"base64":        base64.StdEncoding.EncodeToString([]byte(v)),
		"base64url":     base64.RawURLEncoding.EncodeToString([]byte(v)),
		"hex":           hex.EncodeToString([]byte(v)),
		"HEX":           strings.ToUpper(hex.EncodeToString([]byte(v))),
		"json":          string(j[1 : len(j)-1]),
		"query":         url.QueryEscape(v),
		"path":          path,
		"lower escapes": lowerEscapes(path),
	}
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

var percentEscape = regexp.MustCompile(`%[0-9A-F]{2}`)

// lowerEscapes writes s's percent-escapes in lower case, as some servers do.
func lowerEscapes(s string) string { return percentEscape.ReplaceAllStringFunc(s, strings.ToLower) }

// minFragment is the shortest run of a value's bytes that counts as
// showing part of it.
const minFragment = 3

// fragmentForms are the forms in which a part of a value may come back:
// the value cut, or a peer's transformation of it cut.
var fragmentForms = []string{"raw", "upper", "lower", "reversed"}

// leak is one way a value shows in what a probe read.
type leak struct {
	form string
	// from and n are the part of the form that shows (all of it for a
	// whole form), at is where in what was read.
	from, n, at int
	whole       bool
}

func (l leak) String() string {
	if l.whole {
		return fmt.Sprintf("%s form, whole, at %d", l.form, l.at)
	}
	return fmt.Sprintf("%s[%d:%d] (%d bytes) at %d", l.form, l.from, l.from+l.n, l.n, l.at)
}

// findLeaks returns how v shows in got: each of its forms (valueForms)
// found whole, and each run of minFragment or more bytes of a fragment
// form that got holds, except runs that the probe itself sent (sent): a
// probe that wrote "xyz" learns nothing when "xyz" comes back.
func findLeaks(v, got string, sent ...string) []leak {
	var out []leak
	forms := valueForms(v)
	names := make([]string, 0, len(forms))
	for name := range forms {
		names = append(names, name)
	}
	// The raw form first: a form equal to it is reported as it.
	slices.SortFunc(names, func(a, b string) int {
		return strings.Compare(strings.Replace(a, "raw", "", 1), strings.Replace(b, "raw", "", 1))
	})
	seen := map[string]bool{}
	for _, name := range names {
		f := forms[name]
		if seen[f] || len(f) < minFragment {
			continue
		}
		seen[f] = true
		if at := strings.Index(got, f); at >= 0 && !sentHolds(sent, f) {
			out = append(out, leak{form: name, n: len(f), at: at, whole: true})
		}
	}
	var parts []leak
	for _, name := range fragmentForms {
		parts = append(parts, fragments(name, forms[name], got, sent)...)
	}
	// A part of one form inside a longer part of another (three capitals
	// of a value are also three bytes of its upper case) is one leak.
	slices.SortStableFunc(parts, func(a, b leak) int { return b.n - a.n })
	var kept []leak
	for _, p := range parts {
		inside := false
		for _, k := range kept {
			inside = inside || (p.at >= k.at && p.at+p.n <= k.at+k.n)
		}
		if !inside {
			kept = append(kept, p)
		}
	}
	slices.SortStableFunc(kept, func(a, b leak) int { return a.at - b.at })
	return append(out, kept...)
}

func sentHolds(sent []string, s string) bool {
	for _, x := range sent {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// fragments finds the maximal runs of f (minFragment bytes or more) in got:
// every window of got is looked up among f's windows, and a hit is
// extended as far as got and f agree.
func fragments(name, f, got string, sent []string) []leak {
	if len(f) < minFragment {
		return nil
	}
	where := map[string][]int{}
	for i := 0; i+minFragment <= len(f); i++ {
		w := f[i : i+minFragment]
		if !sentHolds(sent, w) {
			where[w] = append(where[w], i)
		}
	}
	var out []leak
	for at := 0; at+minFragment <= len(got); at++ {
		best := leak{}
		for _, from := range where[got[at:at+minFragment]] {
			n := minFragment
			for at+n < len(got) && from+n < len(f) && got[at+n] == f[from+n] {
				n++
			}
			if n > best.n {
				best = leak{form: name, from: from, n: n, at: at}
			}
		}
		if best.n > 0 {
			out = append(out, best)
			at += best.n - 1
		}
	}
	return out
}

// assertNoLeak fails the test, saying what shows where, when any form or
// fragment of v shows in got beyond what the probe sent.
func assertNoLeak(t testing.TB, v, what, got string, sent ...string) bool {
	t.Helper()
	leaks := findLeaks(v, got, sent...)
	if len(leaks) == 0 {
		return true
	}
	shown := make([]string, 0, min(len(leaks), 8))
	for i, l := range leaks {
		if i == 8 {
			shown = append(shown, fmt.Sprintf("and %d more", len(leaks)-8))
			break
		}
		shown = append(shown, l.String())
	}
	t.Errorf("%s: the %d-byte value shows: %s", what, len(v), strings.Join(shown, "; "))
	return false
}

// longestLeak is the most bytes of v that one leak in got shows.
func longestLeak(v, got string, sent ...string) int {
	n := 0
	for _, l := range findLeaks(v, got, sent...) {
		n = max(n, l.n)
	}
	return n
}

// assertSameObservations fails when two runs that differ only in a
// secret's value observed anything differently: the probe could tell the
// values apart.
func assertSameObservations(t testing.TB, what string, a, b seen) bool {
	t.Helper()
	if !assert.Equal(t, len(a), len(b), "%s: the runs made different numbers of observations", what) {
		return false
	}
	ok := true
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("%s: observation %d differs with the value:\n  %s\n  %s", what, i, clipObservation(a[i]), clipObservation(b[i]))
			ok = false
		}
	}
	return ok
}

// assertSameText is assert.Equal for long texts: it shows where they
// first differ rather than all of both.
func assertSameText(t testing.TB, want, got, what string) bool {
	t.Helper()
	if want == got {
		return true
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	t.Errorf("%s: want %d bytes, got %d; from byte %d want %s, got %s", what, len(want), len(got), i,
		clipObservation(want[i:]), clipObservation(got[i:]))
	return false
}

// clipObservation shows where two observations differ: their start and
// their length.
func clipObservation(s string) string {
	if len(s) <= 160 {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:160], len(s))
}

// TestFindLeaks checks the leak finder itself: a test that asserts no leak
// is only as good as what it would have found.
func TestFindLeaks(t *testing.T) {
	v := hostileValue(1, 40)
	s := specialValue(2)
	tests := []struct {
		name      string
		v, got    string
		sent      []string
		wantForms []string
		wantLen   int
	}{
		{"nothing", v, "padding ${secret:P} HTTP/1.1 200 OK", nil, nil, 0},
		{"whole", v, "x" + v + "y", nil, []string{"raw", "raw"}, 40},
		{"prefix", v, "pad" + v[:10], nil, []string{"raw"}, 10},
		{"two pieces", v, v[:3] + "|" + v[30:], nil, []string{"raw", "raw"}, 10},
		{"upper", v, strings.ToUpper(v), nil, []string{"upper", "upper"}, 40},
		{"reversed part", v, reverse(v)[5:25], nil, []string{"reversed"}, 20},
		{"base64", v, "k=" + base64.StdEncoding.EncodeToString([]byte(v)), nil, []string{"base64"}, 0},
		{"hex", v, hex.EncodeToString([]byte(v)), nil, []string{"hex"}, 0},
		{"json", s, `{"k":` + mustJSON(s) + `}`, nil, []string{"json"}, 0},
		{"path escapes", s, "/x/" + url.PathEscape(s), nil, []string{"path"}, 0},
		{"lower escapes", s, "/x/" + lowerEscapes(url.PathEscape(s)), nil, []string{"lower escapes"}, 0},
		{"two bytes is not a leak", v, v[:2] + "." + v[10:12], nil, nil, 0},
		{"sent by the probe", v, v[:8], []string{"guess " + v[:8]}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leaks := findLeaks(tt.v, tt.got, tt.sent...)
			var forms []string
			for _, l := range leaks {
				if l.whole || !slices.Contains(forms, l.form) {
					forms = append(forms, l.form)
				}
			}
			for _, f := range tt.wantForms {
				assert.Contains(t, forms, f, "%v", leaks)
			}
			if tt.wantForms == nil {
				assert.Empty(t, leaks)
			}
			if tt.wantLen > 0 {
				assert.Equal(t, tt.wantLen, longestLeak(tt.v, tt.got, tt.sent...), "%v", leaks)
			}
		})
	}
	for _, c := range valueAlphabet {
		require.NotContains(t, "${secret:P}", string(c), "the alphabet shares nothing with a placeholder")
	}
}

// TestHostileSecretsProbesAreFresh rebuilds the probes of
// testdata/secrets from their .wat and fails when a committed .wasm
// differs, so that the sources stay the truth.
func TestHostileSecretsProbesAreFresh(t *testing.T) {
	_, err := exec.LookPath("wat2wasm")
	require.NoError(t, err, "wat2wasm is needed: apt-get install wabt")
	out := t.TempDir()
	cmd := exec.Command("sh", filepath.Join("testdata", "secrets", "gen.sh"), out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	built, err := filepath.Glob(filepath.Join(out, "*.wasm"))
	require.NoError(t, err)
	require.NotEmpty(t, built)
	for _, b := range built {
		name := filepath.Base(b)
		fresh, _ := os.ReadFile(b)
		committed, err := os.ReadFile(filepath.Join("testdata", "secrets", name))
		require.NoError(t, err, "%s is built from source but not committed", name)
		assert.Equal(t, fresh, committed, "testdata/secrets/%s is stale: sh testdata/secrets/gen.sh", name)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
