package host

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// FuzzRedact compares redact with a plain reference (every occurrence of
// every value found by bytes.Index at every position, runs of touching
// occurrences replaced by the first one's placeholder) and checks that
// nothing panics, the input is untouched, and, for values that share no
// byte with the placeholders' text, no value is left in the output.
func FuzzRedact(f *testing.F) {
	f.Add("alpha-secret", "bravo", []byte("token alpha-secret bravo end"))
	f.Add("abcd", "cdef", []byte("xabcdefy cdefabcd"))
	f.Add("zz", "z", []byte("zzzzz z zz"))
	f.Add("p@ss w/rd", "x", []byte("q=p%40ss+w%2Frd"))
	f.Add("", "}", []byte("${secret:A}}"))
	f.Fuzz(func(t *testing.T, a, b string, in []byte) {
		if len(a) > MaxSecret || len(b) > MaxSecret {
			return
		}
		c, _ := stestCall(t, Grants{Secrets: everywhere("A", "B")}, map[string]string{"A": a, "B": b})
		orig := bytes.Clone(in)
		out := redactAll(c, in)
		if !bytes.Equal(in, orig) {
			t.Fatal("redact changed its input")
		}
		if want := redactReference(in, map[string]string{"A": a, "B": b}); !bytes.Equal(out, want) {
			t.Fatalf("redact(%q) with A=%q B=%q = %q, want %q", in, a, b, out, want)
		}
		if got := c.Redact(string(in)); got != string(in) {
			t.Fatalf("Redact %q before anything was sent: a run that sent nothing redacts nothing", got)
		}
		c.markSent(c.allSecrets())
		// The run's texts are never redacted in place: one that holds a
		// value is withheld whole, and one that holds none is as written.
		want := string(in)
		if !bytes.Equal(out, in) {
			want = ""
		}
		if got := c.Redact(string(in)); got != want {
			t.Fatalf("Redact %q, want %q (redact %q)", got, want, out)
		}
		for _, v := range []string{a, b} {
			if v != "" && !strings.ContainsAny(v, "${}:secrtAB") && bytes.Contains(out, []byte(v)) {
				t.Fatalf("redact(%q) = %q still holds %q", in, out, v)
			}
		}
	})
}

// redactReference is redact written plainly: the hits by bytes.Index, the
// coverage, the runs.
func redactReference(in []byte, secrets map[string]string) []byte {
	type hit struct {
		start, end int
		ph         string
	}
	var hits []hit
	for _, name := range []string{"A", "B"} {
		v := secrets[name]
		if v == "" {
			continue
		}
		for _, form := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
			for i := 0; i+len(form) <= len(in); i++ {
				if bytes.HasPrefix(in[i:], []byte(form)) {
					hits = append(hits, hit{i, i + len(form), "${secret:" + name + "}"})
				}
			}
		}
	}
	var out []byte
	for i := 0; i < len(in); {
		// The first hit at i, the longest; A before B where equal (as the
		// redactor's order of the granted names is).
		best := -1
		for j, h := range hits {
			if h.start == i && (best < 0 || h.end > hits[best].end) {
				best = j
			}
		}
		if best < 0 {
			out = append(out, in[i])
			i++
			continue
		}
		out = append(out, hits[best].ph...)
		end := hits[best].end
		for grew := true; grew; {
			grew = false
			for _, h := range hits {
				if h.start <= end && h.end > end {
					end, grew = h.end, true
				}
			}
		}
		i = end
	}
	if out == nil {
		out = []byte{}
	}
	return out
}

var placeholderRE = regexp.MustCompile(`\$\{secret:([A-Za-z_][A-Za-z0-9_]*)\}`)

// FuzzSubstitute compares substitute with a regexp that reads the
// placeholder grammar, and checks that the input is never changed and that
// a denial or a missing value sends nothing.
func FuzzSubstitute(f *testing.F) {
	f.Add([]byte("AUTH ${secret:K}\r\n"), "v4lue")
	f.Add([]byte("${secret:${secret:K}}${secret:}${K}"), "x")
	f.Add([]byte("${secret:UNSET} ${secret:OTHER}"), "")
	f.Add([]byte("${secret:K}"), "${secret:K}")
	f.Add([]byte("${secret:K-1}${secret:_k9}"), "v")
	f.Fuzz(func(t *testing.T, in []byte, value string) {
		c, _ := stestCall(t, Grants{Secrets: everywhere("K", "UNSET", "_k9")}, map[string]string{"K": value, "_k9": "nine", "OTHER": "o"})
		orig := bytes.Clone(in)
		out, status, why := subst(c, in)
		if !bytes.Equal(in, orig) {
			t.Fatal("substitute changed its input")
		}
		names := placeholderRE.FindAllSubmatch(in, -1)
		wantStatus := int32(StatusOK)
		for _, m := range names {
			switch n := string(m[1]); {
			case n != "K" && n != "UNSET" && n != "_k9":
				wantStatus = StatusDenied
			case wantStatus == StatusOK && (n == "UNSET" || n == "K" && (value == "" || len(value) > MaxSecret)):
				wantStatus = StatusNotFound
			}
		}
		if status != wantStatus {
			t.Fatalf("substitute(%q) status %d (%s), want %d", in, status, why, wantStatus)
		}
		if status != StatusOK {
			if out != nil || why == "" {
				t.Fatalf("substitute(%q) failed with out %q why %q", in, out, why)
			}
			return
		}
		want := placeholderRE.ReplaceAllFunc(in, func(m []byte) []byte {
			if string(m) == "${secret:K}" {
				return []byte(value)
			}
			return []byte("nine")
		})
		if !bytes.Equal(out, want) {
			t.Fatalf("substitute(%q) = %q, want %q", in, out, want)
		}
	})
}
