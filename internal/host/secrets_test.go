package host

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stestCall returns a Call for probe "p" granted g, whose environment is
// env; *reads counts the variables it reads.
func stestCall(t *testing.T, g Grants, env map[string]string) (c *Call, reads *int) {
	t.Helper()
	p, err := g.Compile()
	require.NoError(t, err)
	reads = new(int)
	return &Call{Probe: "p", Policy: p, LookupEnv: func(name string) (string, bool) {
		*reads++
		v, ok := env[name]
		return v, ok
	}}, reads
}

var stestEnv = map[string]string{
	"K":     "v4lue",
	"PW":    "p@ss w/rd",
	"EMPTY": "",
	"LONG":  strings.Repeat("x", MaxSecret+1),
	"MAX":   strings.Repeat("y", MaxSecret),
	"NEST":  "${secret:K}",
	"FAR":   "far away",
	"OTHER": "not granted",
}

var stestGrants = func() Grants {
	g := Grants{Secrets: everywhere("K", "PW", "EMPTY", "LONG", "MAX", "NEST", "UNSET")}
	g.Secrets["FAR"] = []string{"10.9.9.9:9"} // granted, but bound elsewhere than testDest
	return g
}()

func TestSubstitute(t *testing.T) {
	tests := []struct {
		in, want string
		status   int32
		why      string
	}{
		{"PING\r\n", "PING\r\n", StatusOK, ""},
		{"AUTH ${secret:PW}\r\n", "AUTH p@ss w/rd\r\n", StatusOK, ""},
		{"${secret:K}", "v4lue", StatusOK, ""},
		{"${secret:K}${secret:PW}", "v4luep@ss w/rd", StatusOK, ""},
		{"${secret:K} and ${secret:K}", "v4lue and v4lue", StatusOK, ""},
		{"${secret:MAX}", stestEnv["MAX"], StatusOK, ""},
		// A value is put in as it is, never read again for placeholders.
		{"${secret:NEST}", "${secret:K}", StatusOK, ""},
		// Not placeholders: sent as written.
		{"${secret:}", "${secret:}", StatusOK, ""},
		{"${K}", "${K}", StatusOK, ""},
		{"${secret:K", "${secret:K", StatusOK, ""},
		{"${secret:K }", "${secret:K }", StatusOK, ""},
		{"${secret: K}", "${secret: K}", StatusOK, ""},
		{"${secret:1K}", "${secret:1K}", StatusOK, ""},
		{"${secret:K-1}", "${secret:K-1}", StatusOK, ""},
		{"${SECRET:K}", "${SECRET:K}", StatusOK, ""},
		{"$${secret:K}}", "$v4lue}", StatusOK, ""},
		{"${secret:${secret:K}}", "${secret:v4lue}", StatusOK, ""},
		// Failures name the secret, and say nothing of a value's length
		// that the status does not.
		{"AUTH ${secret:UNSET}", "", StatusNotFound, `secret "UNSET" is not set`},
		{"AUTH ${secret:EMPTY}", "", StatusNotFound, `secret "EMPTY" is empty or longer than 4096 bytes`},
		{"AUTH ${secret:LONG}", "", StatusNotFound, `secret "LONG" is empty or longer than 4096 bytes`},
		{"${secret:K}${secret:UNSET}", "", StatusNotFound, `secret "UNSET" is not set`},
		{"${secret:OTHER}", "", StatusDenied, `secret "OTHER" not granted to probe "p"`},
		{"${secret:PATH}", "", StatusDenied, `secret "PATH" not granted to probe "p"`},
		// A granted secret bound elsewhere is denied as firmly, and named
		// with where it was to go.
		{"AUTH ${secret:FAR}", "", StatusDenied, `secret "FAR" not granted to probe "p" for "127.0.0.1:1"`},
		// Denials come first, whatever the order.
		{"${secret:UNSET}${secret:OTHER}", "", StatusDenied, `secret "OTHER" not granted to probe "p"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, _ := stestCall(t, stestGrants, stestEnv)
			in := []byte(tt.in)
			out, status, why := subst(c, in)
			assert.Equal(t, tt.in, string(in), "the input is never changed")
			assert.Equal(t, tt.status, status)
			assert.Equal(t, tt.why, why)
			if status == StatusOK {
				assert.Equal(t, tt.want, string(out))
			} else {
				assert.Nil(t, out)
			}
			if status == StatusDenied {
				assert.Equal(t, []string{tt.why}, c.Denials())
			} else {
				assert.Empty(t, c.Denials())
			}
		})
	}
}

func TestSubstituteSharesNothing(t *testing.T) {
	c, _ := stestCall(t, stestGrants, stestEnv)
	plain := []byte("PING\r\n")
	out, status, _ := subst(c, plain)
	require.Equal(t, StatusOK, status)
	assert.Same(t, &plain[0], &out[0], "nothing to substitute: b itself")
	notOne := []byte("${secret:} ${secret:K")
	out, status, _ = subst(c, notOne)
	require.Equal(t, StatusOK, status)
	assert.Same(t, &notOne[0], &out[0], "no placeholder: b itself")

	in := []byte("AUTH ${secret:K}\r\nrest")
	out, status, _ = subst(c, in[:18])
	require.Equal(t, StatusOK, status)
	assert.Equal(t, "AUTH v4lue\r\n", string(out))
	out = append(out, "XXXXXXXXXXXXXXXXXXXXXXXX"...)
	assert.Equal(t, "AUTH ${secret:K}\r\nrest", string(in), "out is a new slice: appending to it leaves b alone")
	assert.Equal(t, "AUTH v4lue\r\nXXXXXXXXXXXXXXXXXXXXXXXX", string(out))
}

func TestSubstituteEscaped(t *testing.T) {
	c, _ := stestCall(t, stestGrants, stestEnv)
	out, used, status, why := c.substitute([]byte("q=a b&key=${secret:PW}&k=${secret:K}"), testDest, url.QueryEscape)
	assert.Equal(t, SecretSet(1<<c.Policy.SecretIndex("PW")|1<<c.Policy.SecretIndex("K")), used)
	require.Equal(t, StatusOK, status, why)
	assert.Equal(t, "q=a b&key=p%40ss+w%2Frd&k=v4lue", string(out))
	// And a text that holds the value escaped is withheld too, once sent.
	c.markSent(used)
	assert.Empty(t, c.Redact("GET /?key=p%40ss+w%2Frd"))
}

func TestSubstituteDenialRecordedOnce(t *testing.T) {
	c, reads := stestCall(t, stestGrants, stestEnv)
	for range 5 {
		_, status, _ := subst(c, []byte("${secret:OTHER} ${secret:OTHER} ${secret:PATH}"))
		require.Equal(t, StatusDenied, status)
	}
	assert.Equal(t, []Denial{{Kind: "secret", Request: "OTHER", Probe: "p"}, {Kind: "secret", Request: "PATH", Probe: "p"}}, c.Denied())
	assert.Zero(t, *reads, "a denied request reads no variable")
}

func TestSecretsReadOncePerRun(t *testing.T) {
	c, reads := stestCall(t, stestGrants, stestEnv)
	for range 3 {
		_, status, _ := subst(c, []byte("${secret:K}${secret:PW}"))
		require.Equal(t, StatusOK, status)
		redactAll(c, []byte("v4lue"))
		c.Redact("p@ss w/rd")
		subst(c, []byte("${secret:UNSET}"))
	}
	assert.Equal(t, len(stestGrants.Secrets), *reads, "each granted secret once: K, PW, UNSET, and the rest by the redactor")

	// The engine resets the Call between runs; the next run reads again.
	policy, lookup := c.Policy, c.LookupEnv
	*c = Call{Probe: "p", Policy: policy, LookupEnv: lookup}
	*reads = 0
	_, status, _ := subst(c, []byte("${secret:K}"))
	require.Equal(t, StatusOK, status)
	assert.Equal(t, 1, *reads)
}

func TestRedact(t *testing.T) {
	env := map[string]string{
		"A":     "alpha-secret",
		"B":     "bravo",
		"OVL1":  "abcd",
		"OVL2":  "cdef",
		"LONG":  "0123456789",
		"SHORT": "345",
		"HEAD":  "01234",
		"REP":   "zz",
		"EMPTY": "",
		"ENV":   "plain-env",
	}
	c, _ := stestCall(t, Grants{Env: []string{"ENV"}, Secrets: everywhere("A", "B", "OVL1", "OVL2", "LONG", "SHORT", "HEAD", "REP", "EMPTY", "UNSET")}, env)
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing here", "nothing here"},
		{"token alpha-secret end", "token ${secret:A} end"},
		{"alpha-secret", "${secret:A}"},
		{"alpha-secret at the start", "${secret:A} at the start"},
		{"at the end alpha-secret", "at the end ${secret:A}"},
		{"alpha-secret bravo alpha-secret", "${secret:A} ${secret:B} ${secret:A}"},
		{"alpha-secre", "alpha-secre"},
		{"lpha-secret", "lpha-secret"},
		// Next to a placeholder's text, or to each other.
		{"${secret:A}alpha-secret", "${secret:A}${secret:A}"},
		{"${secret:alpha-secret}", "${secret:${secret:A}}"},
		{"bravobravo", "${secret:B}"},
		{"alpha-secretbravo", "${secret:A}"},
		// Overlapping values: neither shows in part.
		{"xabcdefy", "x${secret:OVL1}y"},
		{"xcdefabcdy", "x${secret:OVL2}y"},
		// One inside another: the longer's placeholder, whether or not the
		// shorter is in it.
		{"x0123456789y", "x${secret:LONG}y"},
		{"x345y", "x${secret:SHORT}y"},
		{"x01234y", "x${secret:HEAD}y"},
		{"x012345y", "x${secret:HEAD}y"},
		{"x0123345y", "x0123${secret:SHORT}y"},
		// A value that overlaps itself: one placeholder per run.
		{"zzz", "${secret:REP}"},
		{"zzzz", "${secret:REP}"},
		{"zz z", "${secret:REP} z"},
		// Not a granted secret, or not set, or empty: left alone.
		{"plain-env", "plain-env"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in := []byte(tt.in)
			assert.Equal(t, tt.want, string(redactAll(c, in)))
			assert.Equal(t, tt.in, string(in), "the input is never changed")
		})
	}
	// The run's texts: left as written before a secret is sent; after,
	// one that holds a value (in a form a peer's bytes are read for) is
	// withheld whole, never redacted in place.
	for _, tt := range tests {
		assert.Equal(t, tt.in, c.Redact(tt.in), "nothing sent yet")
	}
	c.markSent(c.allSecrets())
	assert.Equal(t, "plain-env", c.Redact("plain-env"), "no value: as written")
	assert.Empty(t, c.Redact("x0123456789y"), "a value: withheld whole")
	assert.Empty(t, c.Redact("plain-env"), "and the run's texts with it from then on")
	in := []byte("nothing here")
	assert.Same(t, &in[0], &redactAll(c, in)[0], "nothing to replace: b itself")
}

// TestRedactWithoutUse: a run that never sent a secret redacts nothing
// (a value in its texts is a guess, and a placeholder would say which),
// and a run without secrets, or whose secrets are not set, costs no
// allocation.
func TestRedactWithoutUse(t *testing.T) {
	c, _ := stestCall(t, Grants{Secrets: everywhere("K")}, map[string]string{"K": "hunter2"})
	assert.Equal(t, "pw=hunter2", c.Redact("pw=hunter2"))
	c.markSent(c.allSecrets())
	assert.Empty(t, c.Redact("pw=hunter2"), "withheld whole once sent")

	none, _ := stestCall(t, Grants{Env: []string{"*"}}, map[string]string{"K": "hunter2"})
	assert.Equal(t, "pw=hunter2", none.Redact("pw=hunter2"))
	var nilPolicy Call
	assert.Equal(t, "pw=hunter2", nilPolicy.Redact("pw=hunter2"))

	b, s := []byte("a response without any secret in it"), "a reason"
	for name, c := range map[string]*Call{
		"no secrets": none,
		"nil policy": &nilPolicy,
		"unset":      must(stestCall(t, Grants{Secrets: everywhere("UNSET")}, nil)),
		"no match":   c,
	} {
		allocs := testing.AllocsPerRun(100, func() {
			redactAll(c, b)
			if name != "no match" {
				c.Redact(s) // converts to bytes when there is something to look for
			}
		})
		assert.Zero(t, allocs, name)
	}
}

func must(c *Call, _ *int) *Call { return c }

// TestRedactWorkIndependentOfContent shows that the redaction scan does the
// same work for input that shares a long prefix with a secret as for input
// that shares nothing, so that a probe echoing guesses learns nothing from
// the time a redaction takes; only a whole match costs more.
func TestRedactWorkIndependentOfContent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	secret := make([]byte, 64)
	for i := range secret {
		secret[i] = 'a' + byte(rng.IntN(26))
	}
	var r redactor
	r.add("K", string(secret))
	r.add("J", "a shorter one")
	r.seal()

	const n = 4096
	unrelated := bytes.Repeat([]byte{'#'}, n)
	random := make([]byte, n)
	for i := range random {
		random[i] = byte(rng.IntN(256))
	}
	// Every window of this one agrees with the secret on all but its last
	// byte, where a compare that stops at the first difference works most.
	near := bytes.Repeat(append(secret[:63:63], secret[63]^1), n/64)
	// And here each window starting at a multiple of 64 differs only at
	// its first byte.
	nearLast := bytes.Repeat(append([]byte{secret[0] ^ 1}, secret[1:]...), n/64)

	_, base := r.scan(unrelated)
	for name, in := range map[string][]byte{"random": random, "near": near, "near last": nearLast} {
		hits, work := r.scan(in)
		assert.Empty(t, hits, name)
		assert.Equal(t, base, work, name)
	}
	withSecret := bytes.Clone(unrelated)
	copy(withSecret[1000:], secret)
	hits, work := r.scan(withSecret)
	assert.Equal(t, []redactHit{{start: 1000, end: 1064, placeholder: "${secret:K}"}}, hits)
	assert.Equal(t, base+len(secret), work, "a real match costs one compare of its length")

	// What the work counts: one step per window and value, for each
	// length that fits ("a shorter one" is looked for query-escaped, of
	// the same length, and path-escaped, "a%20shorter%20one", too).
	assert.Equal(t, (n-64+1)+2*(n-13+1)+(n-17+1), base)
}

// TestSecretLengthDoesNotShow: what a probe sees of a secret it sends and
// gets back (through an echo, say) is the same whatever the value's
// length: the status, the text of a failure, and the redacted bytes.
func TestSecretLengthDoesNotShow(t *testing.T) {
	tmpl := []byte("AUTH ${secret:S}\r\n")
	var first []byte
	for _, n := range []int{1, 2, 7, 64, 1000, MaxSecret} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			value := strings.Repeat("\x01", n) // no byte of the template
			c, _ := stestCall(t, Grants{Secrets: everywhere("S")}, map[string]string{"S": value})
			out, status, why := subst(c, tmpl)
			require.Equal(t, StatusOK, status)
			assert.Empty(t, why)
			assert.Len(t, out, len(tmpl)-len("${secret:S}")+n, "the host sends the value")
			back := redactAll(c, out)
			assert.Equal(t, string(tmpl), string(back), "and the probe gets back what it wrote")
			if first == nil {
				first = back
			}
			assert.Equal(t, first, back)
		})
	}
	// Empty and too long read the same.
	for _, v := range []string{"", strings.Repeat("x", MaxSecret+1), strings.Repeat("x", 1<<20)} {
		c, _ := stestCall(t, Grants{Secrets: everywhere("S")}, map[string]string{"S": v})
		_, status, why := subst(c, tmpl)
		assert.Equal(t, StatusNotFound, status)
		assert.Equal(t, `secret "S" is empty or longer than 4096 bytes`, why)
	}
}

// TestEnvDeniesSecrets: gate.env never reads a secret, whatever the env
// grants say.
func TestEnvDeniesSecrets(t *testing.T) {
	c, reads := stestCall(t, Grants{Env: []string{"*"}, Secrets: everywhere("K")}, map[string]string{"K": "hunter2", "HOME": "/root"})
	buf := make([]byte, 64)
	assert.Equal(t, StatusDenied, c.env("K", buf))
	assert.Equal(t, make([]byte, 64), buf, "nothing of the value is written")
	assert.Zero(t, *reads, "the variable is not even read")
	assert.Equal(t, []string{`env "K" not granted to probe "p"`}, c.Denials())
	assert.Equal(t, int32(len("/root")), c.env("HOME", buf))
}

func TestSecretGrantNames(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"", `secret grant "": empty name`},
		{"AWS_*", `secret grant "AWS_*": secrets are named exactly; no patterns`},
		{"A-B", `secret grant "A-B": '-' is not allowed in a variable name`},
		{"1PASSWORD", `secret grant "1PASSWORD": a secret's name starts with a letter or _, as in ${secret:NAME}`},
	} {
		_, err := Grants{Secrets: everywhere(tt.name)}.Compile()
		require.Error(t, err, tt.name)
		assert.Equal(t, tt.want, err.Error())
	}
	p, err := Grants{Secrets: everywhere("_K", "a1", "B")}.Compile()
	require.NoError(t, err)
	assert.Equal(t, []string{"B", "_K", "a1"}, p.Secrets())
}

func TestRollingHash(t *testing.T) {
	// The window hash after rolling equals the hash computed afresh.
	b := []byte("the quick brown fox jumps over the lazy dog \x00\xff\xfe")
	for _, n := range []int{1, 2, 5, 17, len(b)} {
		pow := powMod(hashBase, n-1)
		h := hashBytes(b[:n])
		for i := 0; i+n < len(b); i++ {
			h = roll(h, mulMod(uint64(b[i]), pow), uint64(b[i+n]))
			require.Equal(t, hashBytes(b[i+1:i+1+n]), h, "n=%d i=%d", n, i)
		}
	}
	// The modular arithmetic at its edges.
	const p = hashPrime
	assert.Equal(t, uint64(0), reduce(p))
	assert.Equal(t, uint64(1), reduce(p+1))
	assert.Equal(t, uint64(p-1), reduce(p-1))
	assert.Equal(t, uint64(1), mulMod(p-1, p-1))
	assert.Equal(t, uint64(p-2), addMod(p-1, p-1))
	assert.Equal(t, uint64(p-1), subMod(0, 1))
	assert.Equal(t, uint64(7), reduce(1<<64-1)) // 2^64-1 = 8*2^61-1 = 8*(p+1)-1
	assert.Less(t, roll(p-1, 0, 255), uint64(p))
	assert.Equal(t, addMod(mulMod(subMod(p-1, p-1), hashBase), 255), roll(p-1, p-1, 255))
	assert.Equal(t, addMod(mulMod(subMod(0, p-1), hashBase), 255), roll(0, p-1, 255))
}

// BenchmarkRedact is the cost of redacting a 64 KiB response (the most
// gate.http keeps of a body) with no secret in it, for a probe granted one
// secret and for one granted none.
func BenchmarkRedact(b *testing.B) {
	body := bytes.Repeat([]byte("{\"id\":\"chatcmpl-123\",\"object\":\"chat.completion\"}\n"), (64<<10)/52)
	for _, tt := range []struct {
		name    string
		secrets []string
	}{{"none", nil}, {"one", []string{"K"}}, {"three", []string{"K", "J", "L"}}} {
		b.Run(tt.name, func(b *testing.B) {
			p, err := Grants{Secrets: everywhere(tt.secrets...)}.Compile()
			require.NoError(b, err)
			env := map[string]string{"K": "sk-proj-0123456789abcdefghijklmnopqrstuvwxyz", "J": "hunter2", "L": "p@ss w/rd"}
			c := &Call{Policy: p, LookupEnv: func(n string) (string, bool) { v, ok := env[n]; return v, ok }}
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				redactAll(c, body)
			}
		})
	}
}
