package manifest

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/require"
)

// goTOMLResult is what toml.Unmarshal makes of src, as the manifest
// would show it: the map, or the error's message and where it points (a
// byte offset, and the key the caret underlines when it starts there).
func goTOMLResult(t testing.TB, src []byte) (map[string]any, *tomlError) {
	t.Helper()
	var doc map[string]any
	err := toml.Unmarshal(src, &doc)
	if err == nil {
		if doc == nil {
			doc = map[string]any{}
		}
		return doc, nil
	}
	var de *toml.DecodeError
	require.ErrorAs(t, err, &de, "go-toml's error without a position")
	line, col := de.Position()
	c := newChecker("", src)
	at := 0 // go-toml's line and byte column as an offset
	if line >= 1 && line <= len(c.starts) && col >= 1 {
		at = min(c.starts[line-1]+col-1, len(src))
	}
	key := ""
	if k := de.Key(); len(k) > 0 {
		key = k[len(k)-1]
	}
	return nil, &tomlError{off: at, key: key, msg: strings.TrimPrefix(de.Error(), "toml: ")}
}

// sameAsGoTOML fails unless readTOML decodes src as toml.Unmarshal
// does: the same map (NaN equal to NaN), or the same error as the manifest
// shows it. A document readTOML refuses otherwise (bad syntax, over a
// limit) is not go-toml's to compare: the manifest reports that first.
func sameAsGoTOML(t testing.TB, src []byte) {
	t.Helper()
	if rawScan(src, DefaultMaxValues) >= 0 {
		return
	}
	var ix *index
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("readTOML panicked on %q: %v", src, r)
			}
		}()
		ix, err = readTOML(src, Limits{})
	}()
	if err != nil || ix.deep.len > 0 || ix.over != nil {
		return
	}
	want, wantErr := goTOMLResult(t, src)
	got, gotErr := ix.doc, ix.refused
	if wantErr != nil || gotErr != nil {
		c := newChecker("gate.toml", src)
		render := func(e *tomlError) string {
			if e == nil {
				return "no error"
			}
			return c.tomlErr(e).Error() + "\n" + c.tomlErr(e).Detail()
		}
		require.Equal(t, render(wantErr), render(gotErr), "errors differ on %q", src)
		return
	}
	require.True(t, sameValue(want, got), "maps differ on %q:\ngo-toml: %#v\nours:    %#v", src, want, got)
}

// sameValue is reflect.DeepEqual with NaN equal to NaN.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case float64:
		b, ok := b.(float64)
		return ok && (a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b))
	}
	return reflect.DeepEqual(a, b)
}

// decodeExactSeeds are documents at the edges of what TOML lets a table
// be: reopened, extended by headers and by dotted keys, redefined, and
// values only go-toml's decoder reads; and manifests of every shape,
// good and bad.
func decodeExactSeeds() []string {
	return append([]string{
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
		// Upstreams.
		"[[servers]]\nname = \"s\"\ncommand = [\"./x\", \"a\"]\nenv = { B = \"2\", A = \"1\" }\npass_env = [\"HOME\"]\nprefix = \"\"\ncall_timeout = \"5s\"\n[[servers.tools]]\nmatch = \"w*\"\nprobe = \"env:W\"\n[[servers.tools]]\nname = \"t\"\n[servers.tools.probe]\nmodule = \"m.wasm\"\n",
		"servers = [{ name = \"s\", url = \"http://h/mcp\", tools = [{ name = \"t\", probe = { standard = \"env:A\", budget = \"1ms\" } }] }]\n",
		"[[servers]]\nname = \"s\"\nurl = \"http://u@h:x/#f\"\ncommand = [\"\"]\nenv = { \"1\" = 1 }\n[servers.tools]\n",
		"[[servers]]\nname = \"s\"\nprefix = \"p\"\ntools = [{ name = \"a\", match = \"[\" }, { match = \"a\", probe = 1 }, { name = \"a\", probe = \"env:A\" }]\n",
	},
		"a.b.c = 1\n[a.b.d]\nx = 1\n",
		"a.b.c = 1\n[a.b]\n",
		"a.b = 1\n[[a]]\n",
		"[a.b]\n[[a]]\n",
		"[[a]]\n[a.b]\n[[a]]\n[a.b]\n",
		"[[a]]\nb.c = 1\n[a.b.d]\n[[a]]\nb.c = 2\n",
		"[a]\nb = { c = 1 }\n[a.b.d]\n",
		"a = { b.c = 1, b.d = 2 }\n",
		"a = { b = { c = 1 }, b.d = 2 }\n",
		"a = { b = 1e999, b = 2 }\n",
		"a = [{ b = 1, b = 2 }]\n",
		"x = 1979-02-30\ny = 1\ny = 2\n",
		"x = 99999999999999999999\n",
		"x = [0x8000000000000000, 25:00:00]\n",
		"\"a\".b = 1\n[\"a\".c]\n[a.c]\n",
		"a.'b c'.d = 1\n['a'.\"b c\"]\n",
		"x = +inf\ny = -nan\nz = 1979-05-27T07:32:00.999999999999-07:00\n",
	)
}

func FuzzDecodeExact(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		for _, file := range corpus(f, dir) {
			src, err := os.ReadFile(file)
			require.NoError(f, err)
			f.Add(src)
		}
	}
	for _, s := range decodeExactSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameAsGoTOML(t, src)
	})
}

// TestDecodeExactMatchesGoTOML compares readTOML's decoding with toml.Unmarshal on
// documents made at random from a few keys, every kind of header, dotted
// keys, inline tables and arrays, and the values go-toml reads for the
// decoder: a fuzzer finds the rare shapes, this finds the common ones in
// every order on every run.
func TestDecodeExactMatchesGoTOML(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 20_000
	if testing.Short() {
		n = 2_000
	}
	refused := 0
	for range n {
		src := []byte(randomTables(r))
		sameAsGoTOML(t, src)
		if _, err := goTOMLResult(t, src); err != nil {
			refused++
		}
	}
	// Both kinds of document, in numbers: a generator that made only one
	// would leave the other untested.
	require.Greater(t, refused, n/10, "too few documents go-toml refuses")
	require.Less(t, refused, n*9/10, "too few documents go-toml reads")
}

// randomTables is a document of up to six expressions over the keys a, b
// and "c d".
func randomTables(r *rand.Rand) string {
	keys := []string{"a", "b", `"c d"`}
	key := func() string {
		parts := make([]string, 1+r.Intn(3))
		for i := range parts {
			parts[i] = keys[r.Intn(len(keys))]
		}
		return strings.Join(parts, ".")
	}
	scalars := []string{"1", `"s"`, "1979-05-27", "07:32:00", "1e999", "nan", "0x8000000000000000", "true"}
	var value func(depth int) string
	value = func(depth int) string {
		switch r.Intn(5) {
		case 0:
			if depth < 2 {
				return fmt.Sprintf("{ %s = %s, %s = %s }", key(), value(depth+1), key(), value(depth+1))
			}
		case 1:
			if depth < 2 {
				return fmt.Sprintf("[%s, %s]", value(depth+1), value(depth+1))
			}
		}
		return scalars[r.Intn(len(scalars))]
	}
	var b strings.Builder
	for range 1 + r.Intn(6) {
		switch r.Intn(3) {
		case 0:
			fmt.Fprintf(&b, "[%s]\n", key())
		case 1:
			fmt.Fprintf(&b, "[[%s]]\n", key())
		default:
			fmt.Fprintf(&b, "%s = %s\n", key(), value(0))
		}
	}
	return b.String()
}

// TestParseReportsWhatGoTOMLRefuses checks that Parse reports what
// go-toml's decoder refuses with go-toml's message, at its key.
func TestParseReportsWhatGoTOMLRefuses(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[[tools]]\nname = \"a\"\nname = \"b\"\n", "gate.toml:3:1: TOML: key name is already defined"},
		{"a.b.c = 1\n[a.b]\n", "gate.toml:2:2: TOML: table b already exists as defined by a dotted key"},
		{"[[tools]]\nname = \"a\"\nx = 99999999999999999999\n", "gate.toml:3:5: TOML: decimal number is too large to fit in a 64-bit signed integer"},
	} {
		_, err := Parse("gate.toml", []byte(tc.src))
		var errs Errors
		require.True(t, errors.As(err, &errs), "%q: %v", tc.src, err)
		require.Len(t, errs, 1)
		require.Equal(t, tc.want, errs[0].Error())
	}
}
