package manifest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeState is what a fastDecode leaves that matters: the document, the
// positions, and what the limits count (which decide declines).
type decodeState struct {
	doc               map[string]any
	tools, servers    []elemPos
	skills            entry
	hasSkills         bool
	values, pathBytes int
}

// decodeWith decodes src as fastDecode does, in one or in chunks (none
// when chunks is 1), reporting whether the chunks were used.
func decodeWith(src []byte, lim Limits, chunks int) (st decodeState, chunked, ok bool) {
	lim = lim.resolved()
	c := newChecker("gate.toml", src)
	c.lim = lim
	p := newToolPipe(c, chunks)
	defer p.stop()
	var d *fastDecoder
	ok = try("decodeWith", func() {
		d = newFastDecoder(src, string(src), lim, p)
		if chunks > 1 && d.runChunked(chunks) {
			chunked = true
		} else {
			p.reset()
			d = newFastDecoder(src, d.str, lim, p)
			d.run()
		}
		d.setRootArrays()
	})
	if !ok {
		return st, chunked, false
	}
	return decodeState{d.root.m, d.pos.tools, d.pos.servers, d.pos.skills, d.pos.hasSkills,
		d.values, d.pathBytes}, chunked, true
}

// sameDecodeChunked fails unless decoding src in chunks gives what one
// decoder gives, counts included, and neither met a bug; it returns
// whether the chunks were used.
func sameDecodeChunked(t testing.TB, src []byte, lim Limits, chunks int) bool {
	t.Helper()
	defer checkNoBugs(t)
	one, _, ok1 := decodeWith(src, lim, 1)
	many, chunked, okN := decodeWith(src, lim, chunks)
	if chunked {
		require.True(t, ok1, "chunks decoded what one decoder declines")
	}
	if ok1 && okN {
		require.Equal(t, [2]int{one.values, one.pathBytes}, [2]int{many.values, many.pathBytes},
			"counts (values, path bytes); chunked: %v", chunked)
		require.True(t, assert.ObjectsAreEqual(one, many), "chunked: %v", chunked)
	}
	require.Equal(t, ok1, okN)
	return chunked
}

// chunkDoc is a document for the chunk decoders, named for what it tries.
type chunkDoc struct{ name, src string }

// chunkDocs are documents of n tools of every shape a chunk may hold (n
// of 5 or more has each), with and without tables before and after them,
// and what may defeat a cut; most are valid.
func chunkDocs(n int) []chunkDoc {
	body := func(prefix string) string {
		return repeat(n, func(i int) string {
			switch i % 5 {
			case 0:
				return fmt.Sprintf("[[tools]]\nname = \"%s%d\"\nprobe = \"env:T%d\"\n", prefix, i, i)
			case 1:
				return fmt.Sprintf("[[tools]]\nname = \"%s%d\"\ndescription = \"\"\"\n[[tools]]\n\"\"\"\n[tools.parameters]\ntype = \"object\"\nproperties.q = { type = \"string\" }\n[[tools.parameters.allOf]]\n[[tools.parameters.allOf]]\ntype = \"object\"\n", prefix, i)
			case 2:
				return fmt.Sprintf("[[tools]]\nname = \"%s%d\"\n[tools.probe]\nmodule = \"p.wasm\"\n[tools.probe.grants]\nenv = [\"A\"]\n[tools.probe.grants.secrets]\nK = [\"127.0.0.1:6379\", \"https://h/v1/\"]\n", prefix, i)
			case 3:
				return fmt.Sprintf("[[tools]]\nname = \"%s%d\"\nparameters = { type = \"object\", required = [\n\"q\",\n], properties = { q = { type = \"string\" } } }\n", prefix, i)
			}
			return fmt.Sprintf("[[tools]] # %d\nname = '%s%d'\nprobe.standard = \"env:X\"\nprobe.budget = \"5ms\"\n", i, prefix, i)
		})
	}
	b := body("t")
	return []chunkDoc{
		{"tools", b},
		{"table before", "[runtime]\nttl = \"1s\"\nbudget = \"50ms\"\n" + b},
		{"latest tool reopened after servers", "[skills]\npaths = [\"s\"]\n" + b + "[[tools]]\nname = \"last\"\n[[servers]]\nname = \"s\"\n[tools.probe]\nstandard = \"env:Y\"\n[[tools]]\nname = \"later\"\n"},
		{"table after", b + "[runtime]\nttl = \"1s\"\n"},
		{"tools after a table", b + "[runtime]\n" + body("u")},
		{"tools after servers", b + "[[servers]]\nname = \"s\"\n" + body("u")},
		{"name reused", b + "[[tools]]\nname = \"t0\"\n"},
		{"key twice", b + "[[tools]]\nname = \"dup\"\nname = \"dup\"\n"},
		{"datetime", b + "[[tools]]\nx = 1979-05-27\n"},
		{"tools as a table", b + "[tools]\n"},
		{"budget after", b + "[runtime]\nbudget = \"1ms\"\n"},
		// Not TOML: a string closed early; nested arrays with keys in them.
		{"all in a string", "x = \"\"\"\n" + b + "\"\"\"\n"},
		{"no tools", "a = [\n" + strings.ReplaceAll(b, "[[tools]]", "[[1]]") + "]\n"},
		{"CRLF", "[[tools]]\r\nname = \"a\"\r\n" + strings.ReplaceAll(body("c"), "\n", "\r\n")},
		{"generated", string(genTools(3 * n / 2))},
	}
}

// TestChunkedDecode checks that decoding in chunks gives exactly what one
// decoder gives (the document, the positions, the counts behind every
// limit), or gives up, and that Parse's result is the full path's either
// way, with every number of chunks and workers.
func TestChunkedDecode(t *testing.T) {
	used := 0
	for _, doc := range append(chunkDocs(40), chunkSeeds()...) {
		for _, n := range []int{2, 3, 5, 16} {
			if sameDecodeChunked(t, []byte(doc.src), Limits{}, n) {
				used++
			}
			sameWithOpts(t, []byte(doc.src), Limits{}, fastOpts{workers: n, chunkMin: 1})
		}
	}
	require.Greater(t, used, 10, "the chunks were hardly used")
	for _, file := range corpus(t, "valid") {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		sameWithOpts(t, src, Limits{}, fastOpts{workers: 2, chunkMin: 1})
	}
	// A large manifest is decoded in chunks at the defaults.
	require.True(t, sameDecodeChunked(t, genTools(2000), Limits{}, 2))
}

// chunkSeeds are the documents FuzzChunkedDecode starts from: the cases of
// chunkDocs, and a few more, in a few short tools each. The fuzzer
// shrinks each input it finds new coverage with (for up to a minute, and
// counting no execution meanwhile) by trying to remove every span of its
// bytes, each removal a run of the target; from the 40-tool documents it
// did nothing else, at about one input a second.
func chunkSeeds() []chunkDoc {
	two := "[[tools]]\nname = \"a\"\n[[tools]]\nname = \"b\"\n"
	three := two + "[[tools]]\nname = \"c\"\n"
	return []chunkDoc{
		{"tools", "[[tools]]\nname = \"c\"\nparameters = { type = \"object\", required = [\n\"q\",\n], properties = { q = { type = \"string\", maxLength = 9 } } }\n[[tools]]\nname = \"a\"\nprobe = \"env:A\"\n[[tools]] # 1\nname = 'b'\nprobe.standard = \"env:X\"\nprobe.budget = \"5ms\"\n"},
		{"tables in tools", "[[tools]]\nname = \"c\"\n[tools.parameters]\ntype = \"object\"\n[[tools.parameters.allOf]]\n[[tools.parameters.allOf]]\ntype = \"object\"\n[[tools]]\nname = \"a\"\n[tools.probe]\nmodule = \"m\"\n[tools.probe.grants.secrets]\nK = [\"h:1\"]\n[[tools]]\nname = \"b\"\n"},
		{"tables before", "[skills]\npaths = [\"s\"]\n[runtime]\nttl = \"1s\"\nconcurrency = 4\n" + two},
		{"table after", three + "[runtime]\n"},
		{"budget after", "[[tools]]\nname = \"c\"\nprobe = { standard = \"env:C\", budget = \"5ms\" }\n" + two + "[runtime]\nbudget = \"1ms\"\n"},
		{"latest tool reopened after servers", two + "[[servers]]\nname = \"s\"\n[tools.probe]\nstandard = \"env:Y\"\n[[tools]]\nname = \"c\"\n"},
		{"tools after a table", three + "[runtime]\n" + strings.ReplaceAll(two, "\"\n", "2\"\n")},
		{"name reused", three + "[[tools]]\nname = \"a\"\n"},
		{"key twice", three + "[[tools]]\nname = \"d\"\nname = \"d\"\n"},
		{"datetime", three + "[[tools]]\nx = 1979-05-27\n"},
		{"tools as a table", three + "[tools]\n"},
		{"not TOML", three + "[[tools]\n"},
		{"one tool", "[[tools]]\nname = \"a\"\n"},
		{"in a string", "x = \"\"\"\n" + two + "\"\"\"\n"},
		{"CRLF", strings.ReplaceAll(three, "\n", "\r\n")},
		// The first chunk ends inside a multi-line string.
		{"cut in a string", "[[tools]]\nname = \"a\"\n[[tools]]\nname = \"b\"\ndescription = \"\"\"\n[[tools]]\n\"\"\"\n[[tools]]\nname = \"c\"\n"},
		// Tool 10 is where the path of an element gets a digit longer
		// than a chunk that numbers it from 0 counts it (see merge).
		{"ten and more", repeat(12, func(i int) string { return fmt.Sprintf("[[tools]]\nname = \"%c\"\n", 'a'+i) })},
	}
}

// TestChunkSeeds checks that FuzzChunkedDecode's seeds are small and
// reach each way a chunked decode ends: the chunks used, given up for one
// decoder, or a decline.
func TestChunkSeeds(t *testing.T) {
	const (
		chunked  = "chunked"
		gaveUp   = "gave up, one decoder"
		declines = "declined"
	)
	want := map[string]string{
		"tools":                              chunked,
		"tables in tools":                    chunked,
		"tables before":                      chunked,
		"table after":                        chunked,
		"budget after":                       chunked,
		"latest tool reopened after servers": chunked,
		"tools after a table":                chunked,
		"name reused":                        chunked,
		"key twice":                          declines,
		"datetime":                           declines,
		"tools as a table":                   declines,
		"not TOML":                           declines,
		"one tool":                           gaveUp,
		"in a string":                        gaveUp,
		"CRLF":                               chunked,
		"cut in a string":                    gaveUp,
		"ten and more":                       chunked,
	}
	seeds := chunkSeeds()
	require.Len(t, want, len(seeds))
	for _, doc := range seeds {
		assert.LessOrEqual(t, len(doc.src), 256, "%s: not a small seed", doc.name)
		_, chunkedNow, ok := decodeWith([]byte(doc.src), Limits{}, 2)
		got := declines
		switch {
		case chunkedNow:
			got = chunked
		case ok:
			got = gaveUp
		}
		assert.Equal(t, want[doc.name], got, doc.name)
	}
}

// sameWithOpts fails unless Parse with the fast path tuned by o gives the
// full path's result, and takes the fast path when the default one does,
// and no bug was met.
func sameWithOpts(t testing.TB, src []byte, lim Limits, o fastOpts) {
	t.Helper()
	defer checkNoBugs(t)
	fm, ferrs, _, fast := parseOpts("gate.toml", src, lim, true, o)
	_, _, _, fastDefault := parseMode("gate.toml", src, lim, true)
	sm, serrs, _, _ := parseMode("gate.toml", src, lim, false)
	require.Equal(t, renderErrs(serrs), renderErrs(ferrs), "errors differ (fast path taken: %v)", fast)
	require.Equal(t, sm, fm, "manifests differ (fast path taken: %v)", fast)
	require.Equal(t, fastDefault, fast, "fast path taken with %+v", o)
}

// TestWorkersAgree checks the tools of a large manifest of varied tools
// with 1, 2 and 4 workers and in chunks: the same Manifest every time,
// which is the full path's (run with -race, it also finds state the
// workers share).
func TestWorkersAgree(t *testing.T) {
	src := []byte("[runtime]\nbudget = \"50ms\"\n" + repeat(600, func(i int) string {
		return fmt.Sprintf("[[tools]]\nname = \"t%d\"\ndescription = \"d%d\"\nprobe = %s\nparameters = { type = \"object\", properties = { q%d = { type = \"string\", pattern = \"^a\" } } }\n",
			i, i, []string{`"env:A"`, `{ standard = "env:B", budget = "5ms" }`, `{ module = "m.wasm", grants = { env = ["C"] } }`, `"tcp:localhost:80"`}[i%4], i)
	}))
	var want *Manifest
	for _, o := range []fastOpts{{workers: 1, chunkMin: -1}, {workers: 2, chunkMin: -1}, {workers: 4, chunkMin: -1}, {workers: 2, chunkMin: 1}, {workers: 4, chunkMin: 1}} {
		m, errs, _, fast := parseOpts("gate.toml", src, Limits{}, true, o)
		require.Empty(t, errs)
		require.True(t, fast, "%+v", o)
		if want == nil {
			want, _, _, _ = parseMode("gate.toml", src, Limits{}, false)
		}
		require.Equal(t, want, m, "%+v", o)
	}
	// A probe budget over runtime.budget, which comes after the tools:
	// the full path's error, with every number of workers.
	bad := append(append([]byte{}, src[len("[runtime]\nbudget = \"50ms\"\n"):]...), "[runtime]\nbudget = \"1ms\"\n"...)
	for _, o := range []fastOpts{{workers: 1, chunkMin: -1}, {workers: 4, chunkMin: 1}} {
		sameWithOpts(t, bad, Limits{}, o)
	}
}

// FuzzChunkedDecode checks that decoding in chunks gives what one
// decoder gives, and Parse the full path's result, on documents of a few
// tools (chunkSeeds), which are cut into chunks however small (chunkMin
// 1); TestChunkedDecode runs the 40-tool documents.
func FuzzChunkedDecode(f *testing.F) {
	for _, doc := range chunkSeeds() {
		// In 2 chunks, and in 5: a tool a chunk, or as near as the cuts
		// allow.
		f.Add([]byte(doc.src), byte(0), uint8(0))
		f.Add([]byte(doc.src), byte(0), uint8(3))
	}
	f.Fuzz(func(t *testing.T, src []byte, lim byte, n uint8) {
		defer checkNoBugs(t)
		chunks := int(n%8) + 2
		sameDecodeChunked(t, src, fuzzLimits(lim), chunks)
		sameWithOpts(t, src, fuzzLimits(lim), fastOpts{workers: chunks, chunkMin: 1})
	})
}
