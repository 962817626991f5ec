package manifest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameAsFullPath parses src both ways and fails unless Parse's result is
// the full path's: the same Manifest, or the same errors with the same
// text, positions and carets; and unless neither met a bug, which the
// results would not show. It returns whether the fast path was taken.
func sameAsFullPath(t testing.TB, src []byte, lim Limits) bool {
	t.Helper()
	defer checkNoBugs(t)
	fm, ferrs, _, fast := parseMode("gate.toml", src, lim, true)
	sm, serrs, _, _ := parseMode("gate.toml", src, lim, false)
	if fast {
		require.Empty(t, ferrs, "the fast path returned errors")
	}
	require.Equal(t, renderErrs(serrs), renderErrs(ferrs), "errors differ (fast path taken: %v)", fast)
	require.Equal(t, sm, fm, "manifests differ (fast path taken: %v)", fast)
	return fast
}

// renderErrs is every detail of errs that a user sees.
func renderErrs(errs Errors) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s|%s|%s|%s", e.Pos, e.Key, e.Error(), e.Detail()))
	}
	return out
}

// TestFastPathTaken checks which documents take the fast path: clean
// manifests of every shape do (a fast path that always declines would
// pass the differential tests and help no one), and the documents it
// must leave to the full path do not. Either way the result is the full
// path's.
func TestFastPathTaken(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		fast bool
	}{
		{"empty", "", true},
		{"comments", "# nothing\n\n# here\n", true},
		{"generated", string(genTools(3)), true},
		{"inline tools", `tools = [{ name = "a", probe = "env:A" }, { name = "b", parameters = { type = "object" } }]`, true},
		{"dotted keys", "[[tools]]\nname = \"a\"\nprobe.standard = \"env:A\"\nprobe.budget = \"5ms\"\nparameters.type = \"object\"\nparameters.properties.q.type = \"string\"\n", true},
		{"probe header", "[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"p.wasm\"\n[tools.probe.grants]\nenv = [\"A\"]\n[[tools]]\nname = \"b\"\n", true},
		{"probe via grants header first", "[[tools]]\nname = \"a\"\n[tools.probe.grants]\nenv = [\"A\"]\n[tools.probe]\nmodule = \"p.wasm\"\n", true},
		{"skills implicit then explicit", "[skills.x]\n[skills]\npaths = [\"s\"]\n", false}, // skills.x is an unknown key
		{"skills", "[skills]\npaths = [\"s\"]\nenforcement = \"strict\"\n", true},
		{"skills inline", "skills = { paths = [\"s\"] }\n", true},
		{"skills dotted", "skills.paths = [\"s\"]\n", true},
		{"runtime and servers", "[runtime]\nttl = \"30s\"\nmemory = 0x100_0000\nconcurrency = +4\n[[servers]]\nname = \"s\"\nprobe = \"env:S\"\n", true},
		{"numbers in parameters", "[[tools]]\nname = \"a\"\n[tools.parameters]\ntype = \"object\"\nx-h = 0xdead_BEEF\nx-o = 0o755\nx-b = 0b1010\nx-f = [1e3, -2.5E-7, 1_000.000_1, 0.0, -0.0, 6.02e+23]\nx-i = [1_000, -9223372036854775808, 9223372036854775807]\n", true},
		{"strings", "[[tools]]\nname = 'a'\ndescription = \"\"\"\nline \\\"one\\\"\\u00e9\\n\ttwo\"\"\"\n[tools.parameters]\ntype = '''object'''\n", true},
		{"datetime", "[[tools]]\nname = \"a\"\nparameters = { type = \"object\", default = 1979-05-27 }\n", false},
		{"nan", "[[tools]]\nname = \"a\"\nparameters = { type = \"object\", default = nan }\n", false},
		{"duplicate key", "[[tools]]\nname = \"a\"\nname = \"b\"\n", false},
		{"table twice", "[runtime]\n[runtime]\n", false},
		{"syntax error", "[[tools]\n", false},
		{"unknown key", "[[tools]]\nname = \"a\"\ncolour = 1\n", false},
		{"header through dotted table", "[[tools]]\nname = \"a\"\nprobe.module = \"m.wasm\"\n[tools.probe.grants]\nenv = [\"A\"]\n", true},
		{"too many tools", strings.Repeat("[[tools]]\n", 3), false},
		{"v2 keys", "[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"p.wasm\"\ntls_ca = \"ca.pem\"\nproxy = true\n[tools.probe.grants]\nsecrets = { K = [\"h:1\"] }\ninsecure = [\"h:1\"]\n", true},
		{"v2 keys with standard", "tools = [{ name = \"a\", probe = { standard = \"tcp:h:1\", tls_ca = \"/ca.pem\", proxy = false } }]\n", true},
		{"bad v2 key", "[[tools]]\nname = \"a\"\nprobe = { module = \"p.wasm\", proxy = 1 }\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := Limits{}
			if tc.name == "too many tools" {
				lim.MaxTools = 2
			}
			assert.Equal(t, tc.fast, sameAsFullPath(t, []byte(tc.src), lim))
		})
	}
}

// TestFastPathCorpus checks every manifest of testdata both ways, and
// that every valid one takes the fast path.
func TestFastPathCorpus(t *testing.T) {
	for _, dir := range []string{"valid", "invalid"} {
		for _, file := range corpus(t, dir) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			fast := sameAsFullPath(t, src, Limits{})
			assert.Equal(t, dir == "valid", fast, file)
		}
	}
}

// fuzzLimits turns a fuzzed byte into limits: 0 is the defaults, anything
// else small caps, so that the fuzzer reaches every limit and the fast
// path's margins below them.
func fuzzLimits(b byte) Limits {
	if b == 0 {
		return Limits{}
	}
	n := int(b&0x1f) + 1
	return Limits{
		MaxValues: 4 * n, MaxKeysPerTable: n, MaxArrayLen: n, MaxTools: n / 2, MaxServers: n / 2,
		MaxDescription: 8 * n,
	}
}

// FuzzFastPathMatchesFullPath checks the fast path's one promise: for any
// input and limits, Parse's result is the full path's (the same Manifest,
// or the same errors with the same text, positions and carets), whether
// the fast path was taken or not.
func FuzzFastPathMatchesFullPath(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		for _, file := range corpus(f, dir) {
			src, err := os.ReadFile(file)
			require.NoError(f, err)
			f.Add(src, byte(0))
		}
	}
	for _, s := range fastPathSeeds() {
		f.Add([]byte(s), byte(0))
		f.Add([]byte(s), byte(3))
	}
	f.Fuzz(func(t *testing.T, src []byte, lim byte) {
		defer checkNoBugs(t)
		sameAsFullPath(t, src, fuzzLimits(lim))
	})
}

// fastPathSeeds are documents at the edges of what the fast decoder
// handles: datetimes, dotted keys, keys and tables defined twice, arrays
// of tables, inline tables, odd integers and floats.
func fastPathSeeds() []string {
	seeds := []string{
		"", "\xEF\xBB\xBF", "[", "[[tools]]", "tools = [[]]", "a.b.c = 1\na.d = 2",
		"[[tools]]\nparameters.type = \"object\"\nparameters.x = [[1979-05-27]]",
		"tools = [{ name = \"a\", parameters = { type = \"object\", x = nan } }]",
		"[[tools]]\nname = \"a\"\n[tools.probe.grants]\nenv = [\"\"]",
		"x = \"\"\"\n\n\"\"\"\ny = 1\r\n",
		string(genTools(4)),
		"[[tools]]\nname = \"a\"\nparameters = { type = \"object\", default = 1979-05-27T07:32:00Z, x = 07:32:00, y = 1979-05-27T07:32:00, z = 1979-05-27 }\n",
		"[[tools]]\nname = \"a\"\n[tools.parameters]\ntype = \"object\"\nh = [0xDEAD_beef, 0o7_7, 0b1_0, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000]\nd = [+0, -0, 1_2_3, 9223372036854775807, -9223372036854775808, 9223372036854775808]\n",
		"[[tools]]\nname = \"a\"\n[tools.parameters]\ntype = \"object\"\nf = [+inf, -inf, nan, -nan, 1e400, 5e-324, 1_0.0_1e1_0, -0.0, 1E+2, 3.14159265358979323846264338327950288]\n",
		"[[tools]]\nname = \"a\"\nname = \"b\"\n",
		"[runtime]\nttl = \"1s\"\n[runtime]\n",
		"[a.b]\n[a]\n[a.b]\n",
		"[a]\nb.c = 1\n[a.b]\n",
		"[a]\nb.c = 1\n[a.b.d]\n",
		"a = {b = 1}\na.c = 2\n",
		"a = [1]\n[[a]]\n",
		"[[a]]\n[a]\n",
		"[[a.b]]\n[a]\n[[a.b]]\n",
		"[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"p.wasm\"\n[[tools]]\nname = \"b\"\n[tools.probe]\nstandard = \"env:B\"\n",
		"tools = [ { name = \"a\" }, # c\n { name = \"b\", probe = { standard = \"env:X\", budget = \"1ms\" } } ]\n",
		"servers = [ 1, { name = \"s\" } ]\n",
		"[skills.x]\n[skills]\n",
		"skills = { paths = [\"a\", 'b'], enforcement = \"warn\" }\n",
		"[[tools]]\nname = \"a\"\nprobe.standard = \"env:A\"\nprobe.budget = \"1ms\"\n",
		"[[tools]]\nname = \"a\"\nparameters = { type = \"object\", properties = { q = { type = \"string\", pattern = \"^[a-z]+$\" } }, required = [\"q\", \"q\"] }\n",
		"[[tools]]\nname = \"a\"\ndescription = '''\nmulti\nline'''\nparameters.type = \"object\"\nparameters.\"quoted key\" = \"<&>\\u2028\"\n",
		"[\"tools\"]\n",
		"[[ tools ]]\nname = \"sp\"\n[ tools . probe ]\nmodule = \"m.wasm\"\n",
		// ABI v2's grants and settings, good and bad.
		"[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"p.wasm\"\ntls_ca = \"ca.pem\"\nproxy = true\n[tools.probe.grants]\nsecrets = [\"K\", \"K*\"]\ninsecure = [\"h:1\", \"unix:/s\"]\nhttp = [\"https://h/v1/\"]\n",
		"tools = [{ name = \"a\", probe = { standard = \"tcp:h:1\", tls_ca = \"\", proxy = \"yes\", grants = { secrets = [] } } }]\n",
		"[[servers]]\nname = \"s\"\nprobe.module = \"m.wasm\"\nprobe.tls_ca = [1]\nprobe.grants.secrets = [\"\"]\n",
		// Secrets bound to destinations: every form, good and bad.
		"[[tools]]\nname = \"a\"\nprobe = { module = \"m.wasm\", grants = { dial = [\"h:1\"], secrets = { K = [\"h:1\", \"tls:h:2\", \"unix:/s\", \"unix:/s:/p\", \"https://h/v1/\"], L = [\"127.0.0.1:*\"] } } }\n",
		"[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"m.wasm\"\n[tools.probe.grants.secrets]\nK = [\"h:1\"]\n[[tools]]\nname = \"b\"\nprobe.module = \"m.wasm\"\nprobe.grants.secrets.K = [\"https://h/\"]\nprobe.grants.secrets.L = []\n",
		"[[tools]]\nname = \"a\"\nprobe = { module = \"m.wasm\", grants = { secrets = { \"A-B\" = [\"h:1\"], \"\" = [\"h:1\"], E = [], S = \"h:1\", D = [\"127.1:1\", \"\", 1], T = {} } } }\n",
		"[[tools]]\nname = \"a\"\nprobe = { module = \"m.wasm\", grants = { secrets = {} } }\n",
		// Toolsets: good, empty, bad, not a string, inline.
		"[[tools]]\nname = \"a\"\ntoolset = \"web\"\nprobe = \"env:A\"\n[[tools]]\nname = \"b\"\ntoolset = \"mcp-gh.v2\"\n",
		"tools = [{ name = \"a\", toolset = \"\" }, { name = \"b\", toolset = \"a b\" }, { name = \"c\", toolset = 1 }, { name = \"d\", toolset = \"web\", description = \"d\" }]\n",
		// Upstreams, which the fast path leaves to the full one.
		"[[servers]]\nname = \"s\"\ncommand = [\"./x\", \"a\"]\nenv = { B = \"2\", A = \"1\" }\npass_env = [\"HOME\"]\nprefix = \"\"\ncall_timeout = \"5s\"\n[[servers.tools]]\nmatch = \"w*\"\nprobe = \"env:W\"\n[[servers.tools]]\nname = \"t\"\n[servers.tools.probe]\nmodule = \"m.wasm\"\n",
		"servers = [{ name = \"s\", url = \"http://h/mcp\", tools = [{ name = \"t\", probe = { standard = \"env:A\", budget = \"1ms\" } }] }]\n",
		"[[servers]]\nname = \"s\"\nurl = \"http://u@h:x/#f\"\ncommand = [\"\"]\nenv = { \"1\" = 1 }\n[servers.tools]\n",
		"[[servers]]\nname = \"s\"\nprefix = \"p\"\ntools = [{ name = \"a\", match = \"[\" }, { match = \"a\", probe = 1 }, { name = \"a\", probe = \"env:A\" }]\n",
	}
	return seeds
}

// TestFastPathAtLimits checks that the fast decoder counts values and
// path bytes exactly as the position index does, on every manifest of testdata and both generators: it caps the
// first two at the limits themselves, so a manifest at MaxValues takes
// the fast path and one value more is the full path's error.
func TestFastPathAtLimits(t *testing.T) {
	srcs := [][]byte{genTools(300), genPlain(300)}
	for _, dir := range []string{"valid", "invalid"} {
		for _, file := range corpus(t, dir) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			srcs = append(srcs, src)
		}
	}
	for _, src := range srcs {
		st, _, ok := decodeWith(src, Limits{}, 1)
		if !ok {
			continue
		}
		ix, err := buildIndex(src, Limits{}.resolved())
		require.NoError(t, err)
		assert.Equal(t, [2]int{ix.values, ix.pathBytes}, [2]int{st.values, st.pathBytes}, "values, path bytes:\n%s", src)
	}
	src := genTools(300)
	ix, err := buildIndex(src, Limits{}.resolved())
	require.NoError(t, err)
	assert.True(t, sameAsFullPath(t, src, Limits{MaxValues: ix.values}), "at MaxValues")
	assert.False(t, sameAsFullPath(t, src, Limits{MaxValues: ix.values - 1}), "over MaxValues")
	_, errs := ParseWithLimits("gate.toml", src, Limits{MaxValues: ix.values - 1})
	require.ErrorContains(t, errs, "(manifest.Limits.MaxValues)")
}

// TestFastPathIndexOnlyWhenAsked checks that the fast path builds the
// position index only when a check asks for a position it does not
// record: never for tools alone, once for a server's tool rules.
func TestFastPathIndexOnlyWhenAsked(t *testing.T) {
	for _, tc := range []struct {
		src   []byte
		index bool
	}{
		{genTools(300), false},
		{[]byte("[[servers]]\nname = \"s\"\nprobe = \"env:S\"\n"), false},
		{[]byte(upstreamSrc), true},
	} {
		c := newChecker("gate.toml", tc.src)
		c.lim = Limits{}.resolved()
		m := c.fastParseOpts(fastOpts{})
		require.NotNil(t, m, "%s", tc.src)
		assert.Equal(t, tc.index, c.ix != nil, "%s", tc.src)
	}
}
