package manifest

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/safefile"
)

// genTools writes n [[tools]] entries shaped like real ones: a name, a
// description, an env probe and a parameters schema with two properties.
func genTools(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `[[tools]]
name = "tool_%d"
description = "Search the knowledge base number %d for documents that match a query."
probe = "env:KB_%d_TOKEN"
[tools.parameters]
type = "object"
required = ["query"]
properties.query = { type = "string", description = "What to look for." }
properties.limit = { type = "integer", minimum = 1, maximum = 100, default = 10 }
`, i, i, i)
	}
	return []byte(b.String())
}

// repeat joins n copies of f(i).
func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(f(i))
	}
	return b.String()
}

func TestLimitsDefaults(t *testing.T) {
	d := DefaultLimits()
	assert.Equal(t, d, Limits{}.resolved(), "zero fields are the defaults")
	assert.EqualValues(t, 16<<20, d.MaxBytes)
	l := Limits{MaxTools: 3, MaxBytes: -1}.resolved()
	assert.Equal(t, 3, l.MaxTools)
	assert.Greater(t, l.MaxBytes, int64(1<<60), "negative is no limit")
	assert.Equal(t, d.MaxValues, l.MaxValues)
}

// TestLimitsRefuseBeforeDecoding checks each limit: the first thing over
// it is reported, at its line and column and with its key, as the only
// problem. Every document also has a key defined twice before the point
// where it goes over, which go-toml's decoder would report first: the
// limit error shows that a limit comes before what decoding refuses (the
// one pass goes on past a refusal, and stops at a limit).
func TestLimitsRefuseBeforeDecoding(t *testing.T) {
	const dup = "[runtime]\nttl = \"1s\"\nttl = \"2s\"\n"
	for _, tc := range []struct {
		name      string
		lim       Limits
		src       string
		key       string
		line, col int
		msg       string
	}{
		{
			name: "keys per table, at the default",
			src:  dup + "[skills]\n" + repeat(DefaultMaxKeysPerTable+1, func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }),
			key:  "skills.k10000", line: 4 + DefaultMaxKeysPerTable + 1, col: 1,
			msg: "table skills has more than 10000 keys: go-toml checks each new key against those before it, so loading slows with the square of their number (manifest.Limits.MaxKeysPerTable)",
		},
		{
			name: "keys of an inline table count",
			lim:  Limits{MaxKeysPerTable: 3},
			src:  dup + "[[tools]]\nname = \"t\"\nparameters = { type = \"object\", properties = { a = 1, b = 2, c = 3, d = 4 } }\n",
			key:  "tools[0].parameters.properties.d", line: 6, col: 69,
			msg: "table tools[0].parameters.properties has more than 3 keys: go-toml checks each new key against those before it, so loading slows with the square of their number (manifest.Limits.MaxKeysPerTable)",
		},
		{
			name: "top level",
			lim:  Limits{MaxKeysPerTable: 2},
			src:  "a = 1\nb = 2\nc = 3\nc = 4\n",
			key:  "c", line: 3, col: 1,
			msg: "the top level has more than 2 keys: go-toml checks each new key against those before it, so loading slows with the square of their number (manifest.Limits.MaxKeysPerTable)",
		},
		{
			name: "array length",
			lim:  Limits{MaxArrayLen: 3},
			src:  dup + "[skills]\npaths = [\"a\", \"b\", \"c\", \"d\"]\n",
			key:  "skills.paths[3]", line: 5, col: 25,
			msg: "array skills.paths has more than 3 elements (manifest.Limits.MaxArrayLen)",
		},
		{
			name: "200,000 elements at the default",
			src:  dup + "[skills]\npaths = [" + strings.Repeat("1,", 200_000) + "]\n",
			key:  "skills.paths[100000]", line: 5, col: 10 + 2*DefaultMaxArrayLen,
			msg: "array skills.paths has more than 100000 elements (manifest.Limits.MaxArrayLen)",
		},
		{
			name: "5 million elements at the default: refused before the parser builds them",
			src:  dup + "[skills]\npaths = [" + strings.Repeat("1,", 5_000_000) + "]\n",
			key:  "", line: 5, col: 11 + 2*DefaultMaxValues,
			msg: "more than 1000000 keys and array elements in all (manifest.Limits.MaxValues)",
		},
		{
			name: "tools, at the default",
			src:  dup + strings.Repeat("[[tools]]\n", DefaultMaxTools+1),
			key:  "tools[500000]", line: 4 + DefaultMaxTools, col: 1,
			msg: "more than 500000 tools (manifest.Limits.MaxTools)",
		},
		{
			name: "tools",
			lim:  Limits{MaxTools: 1000},
			src:  dup + string(genTools(1001)),
			key:  "tools[1000]", line: 4 + 9*1000, col: 1,
			msg: "more than 1000 tools (manifest.Limits.MaxTools)",
		},
		{
			name: "inline tools",
			lim:  Limits{MaxTools: 2},
			src:  "x = 1\nx = 2\ntools = [{ name = \"a\" }, { name = \"b\" }, { name = \"c\" }]\n",
			key:  "tools[2]", line: 3, col: 42,
			msg: "more than 2 tools (manifest.Limits.MaxTools)",
		},
		{
			name: "servers",
			lim:  Limits{MaxServers: 1},
			src:  dup + "[[servers]]\nname = \"a\"\n[[servers]]\nname = \"b\"\n",
			key:  "servers[1]", line: 6, col: 1,
			msg: "more than 1 servers (manifest.Limits.MaxServers)",
		},
		{
			name: "values in all",
			lim:  Limits{MaxValues: 10},
			src:  dup + string(genTools(1)),
			key:  "tools[0].parameters.required[0]", line: 10, col: 13,
			msg: "more than 10 keys and array elements in all (manifest.Limits.MaxValues)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseWithLimits("gate.toml", []byte(tc.src), tc.lim)
			var errs Errors
			require.ErrorAs(t, err, &errs)
			require.Len(t, errs, 1, "%v", errs)
			e := errs[0]
			assert.Equal(t, tc.msg, e.Msg)
			assert.Equal(t, tc.key, e.Key)
			assert.Equal(t, Position{File: "gate.toml", Line: tc.line, Col: tc.col}, e.Pos)
			assert.NotEmpty(t, e.Detail())
		})
	}
}

// TestLimitsAllowTheDefaults checks that a manifest at every default
// limit loads: the limits refuse only what is over them. The default
// tool cap is the bound MaxValues sets (a named tool is two values, and
// "tools" itself one), so the most tools a manifest may hold at the
// defaults are a manifest of their own.
func TestLimitsAllowTheDefaults(t *testing.T) {
	m, err := Parse("gate.toml", []byte(repeat(DefaultMaxTools-1, func(i int) string { return fmt.Sprintf("[[tools]]\nname = \"t%d\"\n", i) })))
	require.NoError(t, err, "%v", err)
	assert.Len(t, m.Tools, DefaultMaxTools-1)
	src := string(genTools(40_000)) +
		"[[servers]]\nname = \"s\"\ndescription = \"" + strings.Repeat("d", DefaultMaxDescription) + "\"\n" +
		"[skills]\npaths = [" + strings.Repeat("\"p\",", DefaultMaxArrayLen) + "]\n"
	m, err = Parse("gate.toml", []byte(src))
	require.NoError(t, err, "%v", err)
	assert.Len(t, m.Tools, 40_000)
	assert.Len(t, m.Skills.Paths, DefaultMaxArrayLen)
	assert.Len(t, m.Servers[0].Description, DefaultMaxDescription)
}

func TestLimitsDescription(t *testing.T) {
	long := strings.Repeat("é", DefaultMaxDescription/2) + "x" // one byte over, in bytes
	src := "[[tools]]\nname = \"t\"\ndescription = \"" + long + "\"\n[[servers]]\nname = \"s\"\ndescription = \"" + long + "\"\n"
	errs := parseErrs(t, src)
	require.Len(t, errs, 2)
	for i, key := range []string{"tools[0].description", "servers[0].description"} {
		assert.Equal(t, key, errs[i].Key)
		assert.Equal(t, 3+3*i, errs[i].Pos.Line)
		assert.Equal(t, 15, errs[i].Pos.Col)
		assert.Equal(t, "description of 65537 bytes: want at most 64KiB; a description goes to the model with every request (manifest.Limits.MaxDescription)", errs[i].Msg)
	}
	_, err := ParseWithLimits("gate.toml", []byte(src), Limits{MaxDescription: 1 << 20})
	assert.NoError(t, err, "the limit can be raised")
}

// TestLimitsPathBytes checks the cap on what the position index holds: a
// table nested under long keys, with many keys, makes paths much longer
// than the file.
func TestLimitsPathBytes(t *testing.T) {
	long := strings.Repeat("k", 1000)
	header := "[" + strings.Repeat(long+".", 9) + long + "]\n"
	src := "[skills]\n" + header + repeat(5000, func(i int) string { return fmt.Sprintf("x%d = 1\n", i) })
	errs := parseErrs(t, src)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "keys nested too deep under long names")
	assert.Greater(t, errs[0].Pos.Line, 2)
}

func TestLimitsMaxBytes(t *testing.T) {
	errs := func(err error) Errors {
		var es Errors
		require.ErrorAs(t, err, &es)
		require.Len(t, es, 1)
		return es
	}
	_, err := ParseWithLimits("gate.toml", []byte("[runtime]\n"), Limits{MaxBytes: 5})
	assert.Equal(t, "gate.toml: larger than 5B: no manifest needs that much (manifest.Limits.MaxBytes)", errs(err).Error())

	path := filepath.Join(t.TempDir(), "gate.toml")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(DefaultMaxBytes+1)) // sparse: costs no disk
	require.NoError(t, f.Close())
	_, err = Load(path)
	e := errs(err)[0]
	assert.Equal(t, Position{File: path}, e.Pos)
	assert.Equal(t, "cannot read manifest: larger than 16MiB: no manifest needs that much (manifest.Limits.MaxBytes)", e.Msg)
	assert.ErrorIs(t, err, safefile.ErrTooLarge)

	_, err = LoadWithLimits(path, Limits{MaxBytes: DefaultMaxBytes + 1})
	assert.NotErrorIs(t, err, safefile.ErrTooLarge, "the cap can be raised")
	assert.ErrorContains(t, err, "TOML syntax", "(the file is NUL bytes)")
}

// TestLoadRefusesWhatIsNotAFile checks that Load neither blocks on a
// FIFO nor reads a device forever.
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, tc := range []struct{ path, why string }{
		{fifo, "not a regular file (a FIFO)"},
		{"/dev/zero", "not a regular file (a character device)"},
		{dir, "not a regular file (a directory)"},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip(err)
			}
			m, err := Load(tc.path)
			assert.Nil(t, m)
			var errs Errors
			require.ErrorAs(t, err, &errs)
			require.Len(t, errs, 1)
			assert.Equal(t, tc.path+": cannot read manifest: "+tc.why, err.Error())
			assert.True(t, errors.Is(err, safefile.ErrNotRegular))
		})
	}
}

// TestDecoderLinearWhereGoTOMLWasNot parses the shapes whose duplicate-key
// checks cost go-toml's decoder the square of their keys (one large table,
// then many [[x]] headers, each of which rescanned it), which the manifest
// refused before it had a decoder of its own: four times the keys must
// cost about four times the CPU, not sixteen. (Process CPU time, the best
// of five with the collector off, so that neither other work on the
// machine nor a collection decides.)
func TestDecoderLinearWhereGoTOMLWasNot(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 80,000 keys")
	}
	doc := func(n int) []byte {
		return []byte("[t]\n" + repeat(n, func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }) +
			repeat(n, func(int) string { return "[[x]]\na = 1\n" }))
	}
	lim := Limits{MaxKeysPerTable: -1, MaxArrayLen: -1}
	// Without the collector, whose work on other threads depends on when
	// it happens to run, not on the parse.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	cost := func(n int) time.Duration {
		src := doc(n)
		best := time.Duration(math.MaxInt64)
		for range 5 {
			goruntime.GC()
			before := processCPU(t)
			_, err := ParseWithLimits("gate.toml", src, lim)
			used := processCPU(t) - before
			// Unknown keys: the document is decoded and checked whole.
			require.ErrorContains(t, err, "unknown key")
			best = min(best, used)
		}
		return best
	}
	small, big := cost(5_000), cost(20_000)
	t.Logf("CPU: 5,000 keys %v, 20,000 keys %v (%.1fx)", small, big, float64(big)/float64(small))
	assert.Less(t, float64(big)/float64(small), 8.0, "four times the keys cost more than twice four times the CPU")
}

// processCPU is the CPU time this process has used.
func processCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestRawScanSkipsStringsAndComments checks that the byte-level count
// before the parser counts only the commas between values.
func TestRawScanSkipsStringsAndComments(t *testing.T) {
	commas := strings.Repeat(",", 20)
	for _, src := range []string{
		`a = "` + commas + `"`,
		`a = '` + commas + `'`,
		"a = \"\"\"\n" + commas + "\n\\\"\"\"" + commas + "\"\"\"\"\"\n",
		"a = '''\n" + commas + "\n'''''\n",
		"# " + commas + "\na = 1\n",
		"a = [1, 2, # " + commas + "\n 3]\n",
		`"` + commas + `" = { "x\"` + commas + `" = 1 }`,
		`a = { b = [1, 2], c = "]" }`,
	} {
		assert.Equal(t, -1, rawScan([]byte(src), 10), "%q", src)
	}
	assert.Equal(t, 22, rawScan([]byte(`a = [1, 2, 3, "x,y", 4, 5]`), 4))
	assert.Equal(t, -1, rawScan([]byte(`a = [1, 2, 3, "x,y", 4, 5]`), 5))
	assert.Equal(t, -1, rawScan([]byte("[a]\nb = 1, 2, 3\n]]]]\n"), 1), "commas outside values: the parser reports them")
	assert.Equal(t, 17, rawScan([]byte(`a = "x\\", b = [1,2]`), 0), "an escaped backslash ends no string")
}
