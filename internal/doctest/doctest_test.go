package doctest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const page = "# a page\n\n" +
	"<!-- doc: run files=examples/quickstart env=KEY=v port=7311,6379 -->\n" +
	"```\n" +
	"$ gatectl check -m a.toml\n" +
	"TOOL  STATE\n" +
	"x     available\n" +
	"$ gatectl probe run \\\n" +
	"    env:HOME\n" +
	"env:HOME: available (31µs, reused instance)\n" +
	"```\n\n" +
	"```go\n$ not a command: Go blocks are another test's\n```\n\n" +
	"<!-- doc: from TestBuild -->\n\n" +
	"```sh\n# build\nclang -o db.wasm db.c\n```\n\n" +
	"```json\n{\"no\": \"command\"}\n```\n\n" +
	"```\nunmarked\n$ curl localhost:7311\n```\n"

func TestParse(t *testing.T) {
	p, err := Parse("p.md", []byte(page))
	require.NoError(t, err)
	require.Len(t, p.Blocks, 3)

	run := p.Blocks[0]
	assert.Equal(t, 4, run.Line)
	assert.Equal(t, &Marker{Run: true, Files: []string{"examples/quickstart"}, Env: []string{"KEY=v"}, Ports: []string{"7311", "6379"}}, run.Marker)
	assert.True(t, run.Prompted)
	require.Len(t, run.Steps, 2)
	assert.Equal(t, Step{Line: 5, Source: []string{"$ gatectl check -m a.toml"}, Command: "gatectl check -m a.toml",
		Output: []string{"TOOL  STATE", "x     available"}}, *run.Steps[0])
	assert.Equal(t, "gatectl probe run env:HOME", run.Steps[1].Command, "a continued line is one command")
	assert.Equal(t, 8, run.Steps[1].Line)

	script := p.Blocks[1]
	assert.Equal(t, &Marker{From: "TestBuild"}, script.Marker)
	assert.False(t, script.Prompted)
	require.Len(t, script.Steps, 2)
	assert.Equal(t, "clang -o db.wasm db.c", script.Steps[1].Command)
	assert.Nil(t, script.Steps[1].Output)

	assert.Nil(t, p.Blocks[2].Marker, "a block without a marker is read, for the caller to report")
	assert.Equal(t, []string{"unmarked"}, p.Blocks[2].Preamble)

	assert.Equal(t, page, string(p.Bytes()), "a page written back unchanged is the same page")
	b, s := p.Find("gatectl probe run env:HOME")
	require.NotNil(t, s)
	assert.Same(t, run, b)
	s.Output = []string{"env:HOME: available (12ms, reused instance)", "more"}
	assert.Equal(t, strings.Replace(page, "(31µs, reused instance)\n", "(12ms, reused instance)\nmore\n", 1), string(p.Bytes()))
}

// An example in a list item is indented; its output is read, and
// written, at the fence's indent.
func TestIndentedBlock(t *testing.T) {
	src := "- item:\n\n  <!-- doc: run -->\n  ```\n  $ gatectl version\n  v1\n\n  ```\n"
	p, err := Parse("p.md", []byte(src))
	require.NoError(t, err)
	require.Len(t, p.Blocks, 1)
	b := p.Blocks[0]
	require.NotNil(t, b.Marker)
	assert.Equal(t, "gatectl version", b.Steps[0].Command)
	assert.Equal(t, []string{"v1", ""}, b.Steps[0].Output)
	assert.Equal(t, src, string(p.Bytes()))
	b.Steps[0].Output = []string{"v2", ""}
	assert.Equal(t, strings.Replace(src, "  v1\n", "  v2\n", 1), string(p.Bytes()))
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unclosed", "text\n```\n$ gatectl\n", "p.md:2: a fenced block that is never closed"},
		{"unknown kind", "<!-- doc: skip -->\n```\n$ x\n```\n", `p.md:1: doc marker "skip": unknown kind "skip"`},
		{"empty", "<!-- doc: -->\n```\n$ x\n```\n", "p.md:1: doc marker: want"},
		{"from without a test", "<!-- doc: from -->\n```\n$ x\n```\n", `want "from TestName"`},
		{"from a non-test", "<!-- doc: from helper -->\n```\n$ x\n```\n", `want "from TestName"`},
		{"unknown option", "x\n<!-- doc: run nap=1 -->\n```\n$ x\n```\n", `p.md:2: doc marker "run nap=1": unknown option "nap"`},
		{"bad env", "<!-- doc: run env=1=2 -->\n```\n$ x\n```\n", `env "1=2": want NAME=VALUE`},
		{"bad port", "<!-- doc: run port=http -->\n```\n$ x\n```\n", `port "http": want a port number`},
		{"option without value", "<!-- doc: run dir -->\n```\n$ x\n```\n", `option "dir": want KEY=VALUE`},
		{"open quote", "<!-- doc: run env=\"A=b -->\n```\n$ x\n```\n", "an unterminated quote"},
		{"marker on no command", "<!-- doc: run -->\n```json\n{}\n```\n", "p.md:1: a doc marker before a block that shows no command (the block at line 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("p.md", []byte(tt.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestMarkerQuotes(t *testing.T) {
	p, err := Parse("p.md", []byte("<!-- doc: run env=\"GREETING=hello world\" dir=x daemon=\"gatectl serve -m gate.toml\" -->\n```\n$ x\n```\n"))
	require.NoError(t, err)
	assert.Equal(t, "gatectl serve -m gate.toml", p.Blocks[0].Marker.Daemon)
	assert.Equal(t, []string{"GREETING=hello world"}, p.Blocks[0].Marker.Env)
	assert.Equal(t, "x", p.Blocks[0].Marker.Dir)
}

func TestMatch(t *testing.T) {
	tests := []struct {
		name      string
		want, got []string
		match     bool
	}{
		{"same", []string{"a", "b"}, []string{"a", "b"}, true},
		{"other line", []string{"a", "b"}, []string{"a", "c"}, false},
		{"missing line", []string{"a", "b"}, []string{"a"}, false},
		{"extra line", []string{"a"}, []string{"a", "b"}, false},
		{"durations", []string{"x  31µs  y (100.49ms)"}, []string{"x  2.5ms  y (7s)"}, true},
		{"a duration is not any word", []string{"x 31µs"}, []string{"x fast"}, false},
		{"padding", []string{"TOOL  STATE", "a     up"}, []string{"TOOL      STATE", "a         up   "}, true},
		{"one space is not two", []string{"a b"}, []string{"a  b"}, false},
		{"root", []string{"<location>/work/main/examples/q/SKILL.md</location>"}, []string{"<location>/tmp/T1/001/examples/q/SKILL.md</location>"}, true},
		{"elided lines", []string{"[", "...", "]"}, []string{"[", "1", "2", "]"}, true},
		{"elided nothing", []string{"[", "...", "]"}, []string{"[", "]"}, true},
		{"elided tail", []string{"a", "  ..."}, []string{"a", "b", "c"}, true},
		{"elided, but the end differs", []string{"[", "...", "]"}, []string{"[", "1", "}"}, false},
		{"elided within a line", []string{"time=... level=WARN msg=x"}, []string{"time=2026-12-02T04:00:00Z level=WARN msg=x"}, true},
		{"elided within a line, rest differs", []string{"time=... level=WARN"}, []string{"time=now level=INFO"}, false},
		{"nothing", []string{}, []string{}, true},
		{"RFC 3339", []string{`"at":"2026-11-30T07:30:54.878399123Z"}`}, []string{`"at":"2026-12-02T04:00:00Z"}`}, true},
		{"JSON durations", []string{`  "latency_ms": 0.028,`, `"age_seconds": 3}`}, []string{`  "latency_ms": 1.5e-05,`, `"age_seconds": 12}`}, true},
		{"JSON counts", []string{`  "denied": 1,`}, []string{`  "denied": 2,`}, false},
		{"HTTP date", []string{"Date: Mon, 30 Nov 2026 07:30:54 GMT"}, []string{"Date: Wed, 02 Dec 2026 04:00:00 GMT"}, true},
		{"a date is not any text", []string{`"at":"2026-11-30T07:30:54Z"`}, []string{`"at":"soon"`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.match, Match(tt.want, tt.got))
		})
	}
}

func TestMerge(t *testing.T) {
	want := []string{"{", "  \"a\": 31µs", "  \"z\": 1", "...", "time=... x", "}"}
	got := []string{"{", "  \"a\": 2ms", "  \"z\": 2", "  \"b\": 1", "  \"c\": 2", "time=9 x", "}"}
	assert.Equal(t, []string{"{", "  \"a\": 31µs", "  \"z\": 2", "...", "time=... x", "}"}, Merge(want, got),
		"a line that changed is the run's, one that did not (but for a latency) stays, and so do the elisions")
	assert.Equal(t, []string{"{", "  \"a\": 31µs", "new", "...", "}"}, Merge(want, []string{"{", "  \"a\": 9ms", "new  ", "}"}),
		"output that no longer matches is the run's, without trailing spaces, but for the lines that did not change and the elisions")
	assert.Equal(t, []string{"a", "b2", "c", "..."}, Merge([]string{"a", "b", "old", "c", "..."}, []string{"a", "b2", "c", "d", "e"}),
		"a line gone is left out, a line changed is the run's, and the elision at the end stays")
	assert.Equal(t, []string{}, Merge([]string{"x"}, nil), "a run that prints nothing")
}

func TestCheckFrom(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "testdata"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "x_test.go"), []byte(`package a
import "testing"
func TestReads(t *testing.T) { _ = "../../docs/ABI.md" }
func TestReadsReadme(t *testing.T) { read(filepath.Join("..", "README.md")) }
func TestReadsNothing(t *testing.T) { _ = "docs/ABI" }
func helper() { _ = "docs/CLI.md" }
`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "testdata", "y_test.go"), []byte("package a\nfunc TestHidden(t *testing.T) { _ = \"CLI.md\" }\n"), 0o644))
	tests, err := FindTests(dir)
	require.NoError(t, err)
	assert.NoError(t, tests.CheckFrom("TestReads", "docs/ABI.md"))
	assert.NoError(t, tests.CheckFrom("TestReadsReadme", "README.md"))
	assert.NoError(t, tests.CheckFrom("TestReadsReadme", "examples/quickstart/README.md"))
	assert.ErrorContains(t, tests.CheckFrom("TestReads", "docs/CLI.md"), "TestReads does not read docs/CLI.md")
	assert.ErrorContains(t, tests.CheckFrom("TestReadsNothing", "docs/ABI.md"), "does not read")
	assert.ErrorContains(t, tests.CheckFrom("helper", "docs/CLI.md"), "no test function helper")
	assert.ErrorContains(t, tests.CheckFrom("TestHidden", "docs/CLI.md"), "no test function", "testdata is not searched")
}

func TestCompare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.md")
	src := "<!-- doc: from TestCompare -->\n```\n$ gatectl version\nv1 (31µs)\n$ gatectl version\nv1\n```\n"
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	Compare(t, path, 0, "gatectl version", "v1 (2ms)\n", false)
	Compare(t, path, 0, "gatectl version", "v2 (2ms)\n", true)
	Compare(t, path, 1, "gatectl version", "v3\n", true)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "<!-- doc: from TestCompare -->\n```\n$ gatectl version\nv2 (2ms)\n$ gatectl version\nv3\n```\n", string(b))

	for _, tt := range []struct {
		name string
		nth  int
		cmd  string
	}{{"another output", 0, "gatectl version"}, {"no such command", 0, "gatectl help"}, {"no such repeat", 2, "gatectl version"}} {
		r := &recorder{name: "TestCompare"}
		r.run(func() { Compare(r, path, tt.nth, tt.cmd, "v9\n", false) })
		assert.True(t, r.failed, tt.name)
	}
	r := &recorder{name: "TestOther"}
	r.run(func() { Compare(r, path, 0, "gatectl version", "v2\n", false) })
	assert.True(t, r.failed, "a block marked from another test is not this test's")
}

// recorder is a testing.TB that records a failure.
type recorder struct {
	testing.TB
	name   string
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Name() string          { return r.name }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true; runtime.Goexit() }
func (r *recorder) run(f func()) {
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	<-done
}

func TestPorts(t *testing.T) {
	p := Ports{}
	p.Free(t, "6379")
	p.Free(t, "16379")
	assert.Len(t, p["6379"], 4, "as wide as the page's")
	assert.Len(t, p["16379"], 5)
	run := p.ToRun("redis:127.0.0.1:6379 tcp:127.0.0.1:16379 127.0.0.1:63790 port 6379")
	assert.Equal(t, "redis:127.0.0.1:"+p["6379"]+" tcp:127.0.0.1:"+p["16379"]+" 127.0.0.1:63790 port 6379", run,
		"only whole :PORTs")
	assert.Equal(t, "redis:127.0.0.1:6379 tcp:127.0.0.1:16379 127.0.0.1:63790 port 6379", p.FromRun(run))

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src", "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "sub", "gate.toml"), []byte("probe = \"tcp:127.0.0.1:6379\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "notes.txt"), []byte(":6379"), 0o644))
	CopyTree(t, filepath.Join(dir, "src"), filepath.Join(dir, "dst"), p.ToRun)
	b, err := os.ReadFile(filepath.Join(dir, "dst", "sub", "gate.toml"))
	require.NoError(t, err)
	assert.Equal(t, "probe = \"tcp:127.0.0.1:"+p["6379"]+"\"\n", string(b))
	b, err = os.ReadFile(filepath.Join(dir, "dst", "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, ":6379", string(b), "only manifests are edited")
}
