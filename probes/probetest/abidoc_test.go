package probetest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

// TestABIDocExamples builds the complete probes in docs/ABI.md with the
// commands the page gives, with the real toolchains, and checks each one
// with probetest, so the contract's examples cannot rot.
func TestABIDocExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	doc := string(must(os.ReadFile(filepath.Join(root, "docs", "ABI.md"))))
	psycopg2 := pythonHas(t, "psycopg2")

	examples := []struct {
		lang, file string
		// withDB is what the probe answers with DATABASE_URL set.
		withDB runtime.Outcome
	}{
		{"c", "db.c", outcomeIf(psycopg2)},
		{"wat", "db.wat", runtime.Available},
		{"go", "main.go", outcomeIf(psycopg2)},
		{"ts", "db.ts", outcomeIf(psycopg2)},
	}
	for _, ex := range examples {
		t.Run(ex.lang, func(t *testing.T) {
			wasm := buildDocExample(t, root, doc, ex.lang, ex.file)
			probetest.Test(t, wasm, probetest.Options{
				Grants: hostfuncs.Grants{Env: []string{"DATABASE_URL"}, Import: []string{"py:psycopg2"}},
				Cases: []probetest.Case{
					{Name: "no database", Want: runtime.Unavailable},
					{Name: "database", Env: map[string]string{"DATABASE_URL": "postgres://localhost/app"}, Want: ex.withDB},
				},
			})
		})
	}
}

// buildDocExample builds the complete probe of docs/ABI.md in lang, saved
// as file, with the build command that follows it on the page, and
// returns the module.
func buildDocExample(t testing.TB, root, doc, lang, file string) []byte {
	t.Helper()
	dir := t.TempDir()
	src := fence(t, doc, lang)
	require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644))
	build := buildCommand(t, doc, src)
	switch lang {
	case "c":
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "probes"), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(root, "probes", "include"), filepath.Join(dir, "probes", "include")))
	case "ts":
		// The compiler and gate.ts, where the page's import and build
		// command find them.
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "probes"), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(root, "probes", "asc"), filepath.Join(dir, "probes", "asc")))
	case "go":
		writeChildModule(t, dir, "dbprobe", root)
	}
	cmd := exec.Command("sh", "-c", build)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", build, out)
	return must(os.ReadFile(filepath.Join(dir, "db.wasm")))
}

// BenchmarkABIDocExamples runs the complete probes of docs/ABI.md, each
// built as the page says, on a reused and on a fresh instance (no idle
// memory: every run instantiates): what a probe author's choice of
// language costs per run, the C probe the anchor.
//
//	go test -run '^$' -bench ABIDocExamples ./probes/probetest
func BenchmarkABIDocExamples(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(b, err)
	doc := string(must(os.ReadFile(filepath.Join(root, "docs", "ABI.md"))))
	ctx := context.Background()
	noEnv := func(string) (string, bool) { return "", false }
	instances := []struct {
		name string
		cfg  runtime.EngineConfig
	}{
		{"reused", runtime.NewEngineConfig().WithLookupEnv(noEnv)},
		{"fresh", runtime.NewEngineConfig().WithLookupEnv(noEnv).WithWarmup(false).WithIdleMemoryLimit(0)},
	}
	for _, ex := range []struct{ lang, file string }{{"c", "db.c"}, {"ts", "db.ts"}, {"wat", "db.wat"}, {"go", "main.go"}} {
		wasm := buildDocExample(b, root, doc, ex.lang, ex.file)
		for _, in := range instances {
			b.Run("lang="+ex.lang+"/instance="+in.name, func(b *testing.B) {
				e, err := runtime.NewEngine(ctx, in.cfg)
				require.NoError(b, err)
				defer e.Close(ctx)
				m, err := e.Compile(ctx, ex.file, wasm)
				require.NoError(b, err)
				p, err := e.NewProbe(ctx, "db", m, runtime.ProbeConfig{
					Grants: hostfuncs.Grants{Env: []string{"DATABASE_URL"}, Import: []string{"py:psycopg2"}},
				})
				require.NoError(b, err)
				require.Equal(b, runtime.Unavailable, p.Run(ctx).Outcome, "the first run")
				for b.Loop() {
					if res := p.Run(ctx); res.Outcome != runtime.Unavailable || res.Fresh != (in.name == "fresh") {
						b.Fatalf("%s: %v (fresh %v) %s", ex.lang, res.Outcome, res.Fresh, res.Reason)
					}
				}
			})
		}
	}
}

// TestABIDocProtocolExamples builds the protocol probes of docs/ABI.md ("A
// protocol probe in C", "A protocol probe in Go") with the page's own build
// commands, and runs the page's own probetest test of each against its
// fake peers with go test, so that what the page says a probe author can
// write, build and test is so.
func TestABIDocProtocolExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	doc := string(must(os.ReadFile(filepath.Join(root, "docs", "ABI.md"))))
	for _, ex := range []struct {
		name, heading, lang, src, test string
	}{
		{"c", "## A protocol probe in C", "c", "cache.c", "cache_test.go"},
		{"go", "## A protocol probe in Go", "go", "main.go", "api_test.go"},
	} {
		t.Run(ex.name, func(t *testing.T) {
			sec := section(t, doc, ex.heading)
			blocks := fences(sec)
			require.GreaterOrEqual(t, len(blocks), 3, "%s: want the probe, its build command and its test", ex.heading)
			src, build, test := blocks[0], blocks[1], blocks[len(blocks)-1]
			require.Equal(t, ex.lang, src.lang, "%s: the first block is the probe", ex.heading)
			require.Equal(t, "sh", build.lang, "%s: the second block builds it", ex.heading)
			require.Equal(t, "go", test.lang, "%s: the last block tests it", ex.heading)

			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, ex.src), []byte(src.text), 0o644))
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "check"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "check", ex.test), []byte(test.text), 0o644))
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "probes"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(root, "probes", "include"), filepath.Join(dir, "probes", "include")))
			writeChildModule(t, dir, "docprobe", root)
			// Nothing is fetched: the module's requirements are gate's.
			env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")

			cmd := exec.Command("sh", "-c", build.text)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s\n%s", build.text, out)

			cmd = exec.Command("go", "test", "-count=1", "./check")
			cmd.Dir, cmd.Env = dir, env
			out, err = cmd.CombinedOutput()
			require.NoError(t, err, "the page's test of its %s probe:\n%s", ex.name, out)
		})
	}
}

type block struct{ lang, text string }

// fences returns the fenced blocks of doc, in order.
func fences(doc string) []block {
	var out []block
	for _, m := range regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		out = append(out, block{m[1], m[2]})
	}
	return out
}

// section returns doc from heading to the next heading of its level.
func section(t *testing.T, doc, heading string) string {
	i := strings.Index(doc, "\n"+heading+"\n")
	require.GreaterOrEqual(t, i, 0, "docs/ABI.md has no %q", heading)
	rest := doc[i+1+len(heading):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// fence returns the first ```lang block of doc.
func fence(t testing.TB, doc, lang string) string {
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindStringSubmatch(doc)
	require.NotNil(t, m, "docs/ABI.md has no ```%s block", lang)
	return m[1]
}

// buildCommand returns the ```sh block that follows the source block src.
func buildCommand(t testing.TB, doc, src string) string {
	i := strings.Index(doc, src)
	require.GreaterOrEqual(t, i, 0)
	m := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(doc[i:])
	require.NotNil(t, m, "no ```sh build command after the example")
	return m[1]
}

func pythonHas(t *testing.T, module string) bool {
	out, err := exec.Command("python3", "-c", "import importlib.util,sys; print(importlib.util.find_spec(sys.argv[1]) is not None)", module).Output()
	require.NoError(t, err, "python3 is needed (apt-get install python3)")
	return strings.TrimSpace(string(out)) == "True"
}

func outcomeIf(ok bool) runtime.Outcome {
	if ok {
		return runtime.Available
	}
	return runtime.Unavailable
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestABIDocGrantSnippets parses every grants table docs/ABI.md shows, as
// a probe's grants in a manifest, so that no snippet shows a form the
// manifest refuses (the secrets list form of old, say).
func TestABIDocGrantSnippets(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	doc := string(must(os.ReadFile(filepath.Join(root, "docs", "ABI.md"))))
	n := 0
	for _, b := range fences(doc) {
		if b.lang != "toml" || !strings.HasPrefix(b.text, "grants = ") {
			continue
		}
		n++
		src := "[[tools]]\nname = \"doc\"\n[tools.probe]\nmodule = \"p.wasm\"\n" + b.text
		_, err := manifest.Parse("ABI.md", []byte(src))
		require.NoError(t, err, "docs/ABI.md's grants snippet does not parse:\n%s", b.text)
	}
	require.GreaterOrEqual(t, n, 4, "the page's grants snippets were not found")
}
