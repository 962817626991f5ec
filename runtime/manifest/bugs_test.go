package manifest

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain fails the run when a bug was recovered (see bugs.go) that no
// test took: a bug that the fast path recovers from leaves every result
// right, so no assertion of the test that met it would fail.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := bugReport(); err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: %v\n", err)
		code = 1
	}
	os.Exit(code)
}

// bugReport takes the bugs recorded since it last ran and returns an
// error naming each, where it was recovered, its value and its stack; nil
// if there were none.
func bugReport() error {
	kept, dropped := takeBugs()
	if len(kept) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d panic(s) recovered as bugs: the result fell back, but the code that panicked is wrong", len(kept)+dropped)
	for _, g := range kept {
		fmt.Fprintf(&b, "\n\npanic recovered in %s: %v\n%s", g.where, g.value, g.stack)
	}
	if dropped > 0 {
		fmt.Fprintf(&b, "\n\n(and %d more, not kept)", dropped)
	}
	return errors.New(b.String())
}

// checkNoBugs fails t if a bug was recorded since the last check. Every
// fuzz target of the package defers it first (TestFuzzTargetsCheckBugs),
// so that the input that met a bug fails, and is kept, at once; the
// differential helpers defer it too, so that a unit test's failure names
// its case.
func checkNoBugs(t testing.TB) {
	t.Helper()
	if err := bugReport(); err != nil {
		t.Error(err)
	}
}

// injectedBug panics as a bug does, with a runtime error.
func injectedBug(i int) int {
	var none []int
	return none[i]
}

// reportTB is a testing.TB that keeps what Error is given.
type reportTB struct {
	testing.TB
	errs []string
}

func (r *reportTB) Helper() {}

func (r *reportTB) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }

// TestBugsAreFailures puts a bug (a runtime error) at each point a
// recover covers, in turn, and checks that the document still gets the
// full path's result, that the bug is counted and kept, value and stack,
// and that checkNoBugs, which every fuzz target runs after each input,
// fails with exactly that report; and that a decline records nothing.
func TestBugsAreFailures(t *testing.T) {
	require.NoError(t, bugReport(), "a bug recorded before this test")
	for _, tc := range []struct {
		src          []byte // genTools(6) if nil
		point, where string
		opts         fastOpts
		tryFast      bool
		// fast: the fast path still gives the result (a chunk's bug
		// only sends the document to one decoder).
		fast bool
		// errMsg: the full path's result is this error, not a Manifest.
		errMsg string
	}{
		{point: "decode", where: "fastDecode", opts: fastOpts{workers: 1, chunkMin: -1}, tryFast: true},
		{point: "chunk", where: "chunk decoder", opts: fastOpts{workers: 2, chunkMin: 1}, tryFast: true, fast: true},
		{point: "check", where: "toolPipe.check", opts: fastOpts{workers: 2, chunkMin: -1}, tryFast: true},
		{point: "check", where: "toolPipe.check", opts: fastOpts{workers: 1, chunkMin: -1}, tryFast: true},
		{src: []byte(upstreamSrc), point: "lazyIndex", where: "lazyIndex", opts: fastOpts{workers: 1, chunkMin: -1}, tryFast: true},
		{point: "full", where: "decode", tryFast: false, errMsg: "cannot parse TOML: internal error: runtime error: index out of range [0] with length 0"},
		{point: "exact", where: "decode", tryFast: false, errMsg: "cannot parse TOML: internal error: runtime error: index out of range [0] with length 0"},
	} {
		t.Run(tc.point+"/"+tc.where, func(t *testing.T) {
			src := tc.src
			if src == nil {
				src = genTools(6)
			}
			want, wantErrs, _, _ := parseMode("gate.toml", src, Limits{}, false)
			require.Empty(t, wantErrs)
			before := bugCount()
			fault = func(where string) {
				if where == tc.point {
					injectedBug(0)
				}
			}
			m, errs, _, fast := parseOpts("gate.toml", src, Limits{}, tc.tryFast, tc.opts)
			fault = nil

			assert.Equal(t, tc.fast, fast, "fast path taken")
			if tc.errMsg != "" {
				require.Len(t, errs, 1)
				assert.Equal(t, tc.errMsg, errs[0].Msg)
				assert.Nil(t, m)
			} else {
				require.Empty(t, errs)
				assert.Equal(t, want, m, "not the full path's Manifest")
			}
			assert.Greater(t, bugCount(), before, "the bug was not counted")

			kept, dropped := takeBugs()
			require.NotEmpty(t, kept, "the bug was not kept")
			assert.Zero(t, dropped)
			for _, g := range kept {
				assert.Equal(t, tc.where, g.where)
				_, isRuntime := g.value.(runtime.Error)
				assert.True(t, isRuntime, "kept %#v, not the runtime error", g.value)
				assert.Contains(t, string(g.stack), "manifest.injectedBug", "the stack is not the one that panicked")
			}
			// What the harness reports is that bug: put it back, as it
			// was, and let checkNoBugs take it.
			bugs.mu.Lock()
			bugs.kept = append(bugs.kept, kept...)
			bugs.mu.Unlock()
			rec := &reportTB{TB: t}
			checkNoBugs(rec)
			require.Len(t, rec.errs, 1, "checkNoBugs did not fail")
			assert.Contains(t, rec.errs[0], "panic recovered in "+tc.where+": runtime error: index out of range [0] with length 0")
			assert.Contains(t, rec.errs[0], "manifest.injectedBug")
			rec.errs = nil
			checkNoBugs(rec)
			assert.Empty(t, rec.errs, "checkNoBugs failed twice on one bug")
		})
	}

	// Declines are decisions, not bugs: documents that decline in one
	// decoder, in a chunk and in the merge record nothing.
	before := bugCount()
	src := genTools(6)
	for _, doc := range []string{
		"[[tools]]\nname = \"a\"\nparameters = { type = \"object\", default = 1979-05-27 }\n",
		string(src) + "[[tools]]\nname = \"b\"\nname = \"b\"\n",
		string(src) + "[runtime]\n" + string(src),
		"[ syntax",
	} {
		for _, o := range []fastOpts{{workers: 1, chunkMin: -1}, {workers: 3, chunkMin: 1}} {
			_, _, _, fast := parseOpts("gate.toml", []byte(doc), Limits{}, true, o)
			assert.False(t, fast, "%q was not declined", doc)
		}
	}
	assert.Equal(t, before, bugCount(), "a decline was recorded as a bug")
	require.NoError(t, bugReport())
}

// TestMainFailsOnBug runs this package's tests again, in a process of
// their own, with one test leaving a bug untaken, and checks that the run
// fails with the bug's value and stack.
func TestMainFailsOnBug(t *testing.T) {
	if os.Getenv("GATE_LEAVE_BUG") == "1" {
		// The process TestMainFailsOnBug starts: a bug no one takes.
		fault = func(string) { injectedBug(0) }
		defer func() { fault = nil }()
		_, _ = Parse("gate.toml", genTools(2))
		return
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^TestMainFailsOnBug$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GATE_LEAVE_BUG=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the run passed:\n%s", out)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(out), "FAIL: ")
	assert.Contains(t, string(out), "panic recovered in fastDecode: runtime error: index out of range [0] with length 0")
	assert.Contains(t, string(out), "manifest.injectedBug")
}

// TestFuzzTargetsCheckBugs checks that every fuzz target of the package
// starts its function with "defer checkNoBugs(t)": a fuzzer that did not
// would pass on an input that meets a bug, since the result falls back.
func TestFuzzTargetsCheckBugs(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	targets := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fn.Name.Name, "Fuzz") || fn.Recv != nil {
				continue
			}
			targets++
			checked := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Fuzz" || len(call.Args) != 1 {
					return true
				}
				lit, ok := call.Args[0].(*ast.FuncLit)
				require.True(t, ok, "%s: f.Fuzz is given no function literal", fn.Name.Name)
				checked = startsWithCheck(lit)
				return false
			})
			assert.True(t, checked, "%s (%s): its f.Fuzz function does not start with defer checkNoBugs(t)", fn.Name.Name, name)
		}
	}
	assert.Greater(t, targets, 5, "no fuzz targets found")
}

// startsWithCheck reports whether fn's first statement is "defer
// checkNoBugs(t)", t being its first parameter.
func startsWithCheck(fn *ast.FuncLit) bool {
	if len(fn.Body.List) == 0 || len(fn.Type.Params.List) == 0 || len(fn.Type.Params.List[0].Names) == 0 {
		return false
	}
	d, ok := fn.Body.List[0].(*ast.DeferStmt)
	if !ok {
		return false
	}
	id, ok := d.Call.Fun.(*ast.Ident)
	if !ok || id.Name != "checkNoBugs" || len(d.Call.Args) != 1 {
		return false
	}
	arg, ok := d.Call.Args[0].(*ast.Ident)
	return ok && arg.Name == fn.Type.Params.List[0].Names[0].Name
}
