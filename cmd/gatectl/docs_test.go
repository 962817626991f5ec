package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/golden"
)

// docPages are the pages whose shell examples TestDocExamples keeps true,
// as globs from the repository's root.
var docPages = []string{"README.md", "CONTRIBUTING.md", "docs/*.md", "probes/README.md", "examples/*/README.md"}

// docUnchecked are the pages of docPages whose examples are not checked,
// and why.
var docUnchecked = map[string]string{
	"docs/BENCHMARKS.md": "its commands measure, on an idle machine, for minutes",
}

// docHang bounds one command of a page: far more than any takes, so that
// only a hang reaches it.
const docHang = 2 * time.Minute

// TestDocExamples: every shell example of the pages is marked (package
// doctest) and true. A "run" block is run, command by command, with the
// gatectl built from this tree, in a copy of the files its marker names,
// with an environment of the harness's own (nothing of the caller's: no
// key of the caller's reaches a probe, so nothing leaves loopback) and
// its output compared with the page's; a "from" block names a test that
// exists and reads the page. With -update, the run blocks' output is
// written to the pages.
//
// The blocks run in parallel, each in its own directory with ports of its
// own (their commands mostly wait on the processes they start), but with
// -update, which writes each page once its blocks have run.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	tests, err := doctest.FindTests(root)
	require.NoError(t, err)
	h := &docHarness{root: root, cache: t.TempDir(), build: buildGatectlBinary}
	var goOnce sync.Once
	var g goEnv
	h.goEnv = func(t *testing.T) goEnv { goOnce.Do(func() { g = readGoEnv(t) }); return g }
	n := 0
	for _, glob := range docPages {
		paths, err := filepath.Glob(filepath.Join(root, glob))
		require.NoError(t, err)
		for _, path := range paths {
			rel, err := filepath.Rel(root, path)
			require.NoError(t, err)
			rel = filepath.ToSlash(rel)
			if _, ok := docUnchecked[rel]; ok {
				continue
			}
			page, err := doctest.Load(path)
			if !assert.NoError(t, err) {
				continue
			}
			for _, b := range page.Blocks {
				n++
				at := fmt.Sprintf("%s:%d", rel, b.Line)
				switch {
				case b.Marker == nil:
					t.Errorf("%s: an example without a marker: put <!-- doc: run ... --> or <!-- doc: from TestName --> before it (CONTRIBUTING.md, \"Docs are tested\")", at)
				case b.Marker.From != "":
					assert.NoError(t, tests.CheckFrom(b.Marker.From, rel), "%s: doc: from %s", at, b.Marker.From)
				default:
					t.Run(at, func(t *testing.T) {
						if !golden.Update() {
							t.Parallel()
						}
						h.run(t, page, b)
					})
				}
			}
			if golden.Update() {
				require.NoError(t, page.Save())
			}
		}
	}
	assert.Greater(t, n, 20, "the pages' examples were not found")
}

// docHarness runs the "run" blocks.
type docHarness struct {
	root  string
	cache string // GATE_CACHE_DIR, shared by every run
	build func(t *testing.T) string
	goEnv func(t *testing.T) goEnv
}

// goEnv is where the go command that runs the tests is, and its caches.
type goEnv struct{ bin, cache, modCache string }

func readGoEnv(t *testing.T) goEnv {
	out, err := exec.Command("go", "env", "GOROOT", "GOCACHE", "GOMODCACHE").Output()
	require.NoError(t, err)
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, v, 3, "go env printed %q", out)
	return goEnv{bin: filepath.Join(v[0], "bin"), cache: v[1], modCache: v[2]}
}

// docPreps are the preparations a marker names with prep=NAME or
// prep=NAME:ARG: each makes what the repository does not hold, files in
// the run's directory or a service on loopback (standing in at a port the
// page shows: ports maps the page's port to the service's).
var docPreps = map[string]func(t *testing.T, p docPrep){
	"db.wasm":        prepDBWasm,
	"cache.wasm":     prepCacheWasm,
	"redis-password": prepRedisPassword,
}

// docPrep is what a preparation works on.
type docPrep struct {
	h     *docHarness
	dir   string        // the run's directory
	arg   string        // after NAME:, "" when none
	ports doctest.Ports // the page's ports and the run's
}

func (h *docHarness) run(t *testing.T, page *doctest.Page, b *doctest.Block) {
	m := b.Marker
	dir := t.TempDir()
	ports := doctest.Ports{}
	for _, p := range m.Ports {
		ports.Free(t, p)
	}
	for _, spec := range strings.Split(m.Prep, ",") {
		if spec == "" {
			continue
		}
		name, arg, _ := strings.Cut(spec, ":")
		prep, ok := docPreps[name]
		require.True(t, ok, "doc marker: no preparation %q (docs_test.go's docPreps)", name)
		prep(t, docPrep{h: h, dir: dir, arg: arg, ports: ports})
	}
	toRun := ports.ToRun
	fromRun := func(s string) string { return ports.FromRun(strings.ReplaceAll(s, dir, "/path/to/gate")) }
	for _, f := range m.Files {
		doctest.CopyTree(t, filepath.Join(h.root, f), filepath.Join(dir, f), toRun)
	}
	if m.Write != "" {
		_, s := page.Find("cat " + m.Write)
		require.NotNil(t, s, "write=%s: the page has no \"$ cat %s\"", m.Write, m.Write)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, m.Dir), 0o755))
		writeFile(t, filepath.Join(dir, m.Dir, m.Write), strings.Join(s.Output, "\n")+"\n")
	}
	require.True(t, b.Prompted, "a run block shows its commands as \"$ \" lines, each with its output")
	commands := []string{m.Daemon}
	for _, s := range b.Steps {
		commands = append(commands, s.Command)
	}
	requireOffline(t, dir, m.Env, commands)

	bin := h.build(t)
	goEnv := h.goEnv(t)
	env := []string{
		"PATH=" + filepath.Dir(bin) + ":" + goEnv.bin + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Join(dir, ".home"),
		"GATE_CACHE_DIR=" + h.cache,
		"LANG=C.UTF-8",
		"TMPDIR=" + os.TempDir(),
		// The go command of a page (a probe's build) builds from the
		// module cache it has, and fetches nothing.
		"GOCACHE=" + goEnv.cache,
		"GOMODCACHE=" + goEnv.modCache,
		"GOPROXY=off",
		"GOFLAGS=-mod=mod",
		"GOTOOLCHAIN=local",
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".home"), 0o755))
	for _, e := range m.Env {
		env = append(env, toRun(e))
	}
	// curl prints its progress when its output is not a terminal; the
	// pages show what a terminal shows.
	writeFile(t, filepath.Join(dir, ".home", ".curlrc"), "no-progress-meter\n")
	work := filepath.Join(dir, m.Dir)
	require.NoError(t, os.MkdirAll(work, 0o755))

	var daemons []*docDaemon
	defer func() {
		for _, d := range daemons {
			d.stop(t)
		}
	}()
	if m.Daemon != "" {
		daemons = append(daemons, startDaemon(t, toRun(m.Daemon), work, env, 1))
	}
	for _, s := range b.Steps {
		var out string
		if command, ok := daemon(s.Command); ok {
			d := startDaemon(t, toRun(command), work, env, max(1, len(s.Output)))
			daemons = append(daemons, d)
			// The page shows the lines it printed before the next
			// command (none, when it runs in the background); what it
			// prints later (on SIGTERM, say) is not part of the example.
			out = d.firstLines(len(s.Output))
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), docHang)
			c := exec.CommandContext(ctx, "sh", "-c", toRun(s.Command))
			c.Dir, c.Env = work, env
			got, err := c.CombinedOutput()
			hung := ctx.Err()
			cancel()
			require.NoError(t, hung, "%s did not end", s.Command)
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				require.NoError(t, err, s.Command)
			}
			out = string(got)
		}
		got := doctest.Lines(fromRun(out))
		if golden.Update() {
			s.Output = doctest.Merge(s.Output, got)
			continue
		}
		assert.True(t, doctest.Match(s.Output, got), "line %d: $ %s\nthe page shows:\n%s\nthe run printed:\n%s",
			s.Line, s.Command, strings.Join(s.Output, "\n"), strings.Join(got, "\n"))
	}
}

// daemon says whether command runs a gatectl command that runs until
// stopped (the table's daemon field; after any NAME=VALUE assignments,
// and perhaps in the background, "&"), and returns it without the "&".
func daemon(command string) (string, bool) {
	command = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(command), "&"))
	words := strings.Fields(command)
	for len(words) > 0 && strings.Contains(words[0], "=") {
		words = words[1:]
	}
	if len(words) < 2 || words[0] != "gatectl" {
		return "", false
	}
	c := cli.sub(words[1])
	if c != nil && len(words) > 2 {
		if sub := c.sub(words[2]); sub != nil {
			c = sub // gatectl mcp check ends; gatectl mcp does not
		}
	}
	return command, c != nil && c.daemon
}

// docDaemon is a command of a page that runs until stopped.
type docDaemon struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

func startDaemon(t *testing.T, command, dir string, env []string, lines int) *docDaemon {
	t.Helper()
	d := &docDaemon{cmd: exec.Command("sh", "-c", "exec "+command), out: &syncBuffer{}, done: make(chan struct{})}
	d.cmd.Dir, d.cmd.Env = dir, env
	d.cmd.Stdout, d.cmd.Stderr = d.out, d.out
	require.NoError(t, d.cmd.Start())
	go func() { _ = d.cmd.Wait(); close(d.done) }()
	deadline := time.Now().Add(docHang)
	for strings.Count(d.out.String(), "\n") < lines {
		select {
		case <-d.done:
			t.Fatalf("%s ended before it printed %d line(s):\n%s", command, lines, d.out.String())
		case <-time.After(10 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "%s printed no %d line(s) in %s:\n%s", command, lines, docHang, d.out.String())
	}
	return d
}

func (d *docDaemon) firstLines(n int) string {
	lines := strings.SplitAfter(d.out.String(), "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

// stop ends the daemon as a user does, with SIGTERM, and waits for it.
func (d *docDaemon) stop(t *testing.T) {
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(docHang):
		_ = d.cmd.Process.Kill()
		<-d.done
		t.Errorf("%s did not stop on SIGTERM", d.cmd.Args)
	}
}
