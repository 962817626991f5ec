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
	doc                      map[string]any
	tools, servers           []elemPos
	skills                   entry
	hasSkills                bool
	values, pathBytes, nlive int
	work                     int64
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
		d.values, d.pathBytes, d.nlive, d.work}, chunked, true
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
		require.Equal(t, [4]int64{int64(one.values), int64(one.pathBytes), int64(one.nlive), one.work},
			[4]int64{int64(many.values), int64(many.pathBytes), int64(many.nlive), many.work}, "counts (values, path bytes, live, work); chunked: %v", chunked)
		require.True(t, assert.ObjectsAreEqual(one, many), "chunked: %v", chunked)
	}
	require.Equal(t, ok1, okN)
	return chunked
}

// chunkDocs are documents of many tools of every shape a chunk may hold,
// with and without tables before and after them; most are valid.
func chunkDocs() []string {
	body := func(prefix string) string {
		return repeat(40, func(i int) string {
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
	return []string{
		b,
		"[runtime]\nttl = \"1s\"\nbudget = \"50ms\"\n" + b,
		"[skills]\npaths = [\"s\"]\n" + b + "[[tools]]\nname = \"last\"\n[[servers]]\nname = \"s\"\n[tools.probe]\nstandard = \"env:Y\"\n[[tools]]\nname = \"later\"\n",
		b + "[runtime]\nttl = \"1s\"\n",
		b + "[runtime]\n" + body("u"),
		b + "[[servers]]\nname = \"s\"\n" + body("u"),
		b + "[[tools]]\nname = \"t0\"\n",
		b + "[[tools]]\nname = \"dup\"\nname = \"dup\"\n",
		b + "[[tools]]\nx = 1979-05-27\n",
		b + "[tools]\n",
		b + "[runtime]\nbudget = \"1ms\"\n",
		"x = \"\"\"\n" + b + "\"\"\"\n",
		"a = [\n" + strings.ReplaceAll(b, "[[tools]]", "[[1]]") + "]\n",
		"[[tools]]\r\nname = \"a\"\r\n" + strings.ReplaceAll(body("c"), "\n", "\r\n"),
		string(genTools(60)),
	}
}

// TestChunkedDecode checks that decoding in chunks gives exactly what one
// decoder gives (the document, the positions, the counts behind every
// limit), or gives up, and that Parse's result is the full path's either
// way, with every number of chunks and workers.
func TestChunkedDecode(t *testing.T) {
	used := 0
	for i, doc := range chunkDocs() {
		for _, n := range []int{2, 3, 5, 16} {
			if sameDecodeChunked(t, []byte(doc), Limits{}, n) {
				used++
			}
			sameWithOpts(t, []byte(doc), Limits{}, fastOpts{workers: n, chunkMin: 1})
		}
		_ = i
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
		return chunkDocs()[0][:0] + fmt.Sprintf("[[tools]]\nname = \"t%d\"\ndescription = \"d%d\"\nprobe = %s\nparameters = { type = \"object\", properties = { q%d = { type = \"string\", pattern = \"^a\" } } }\n",
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
// decoder gives, and Parse the full path's result, on documents of many
// tools.
func FuzzChunkedDecode(f *testing.F) {
	for _, doc := range chunkDocs() {
		f.Add([]byte(doc), byte(0), uint8(2))
	}
	f.Fuzz(func(t *testing.T, src []byte, lim byte, n uint8) {
		defer checkNoBugs(t)
		chunks := int(n%8) + 2
		sameDecodeChunked(t, src, fuzzLimits(lim), chunks)
		sameWithOpts(t, src, fuzzLimits(lim), fastOpts{workers: chunks, chunkMin: 1})
	})
}
