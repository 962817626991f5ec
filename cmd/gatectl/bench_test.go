package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testsvc"
)

// BenchmarkProcess times gatectl as a user runs it, a whole process per
// command, against the floor of starting a Go program: a hello-world built
// here (the anchor). One round runs every command once, in turn, so that
// the machine's load falls on all of them alike; each figure is the median
// of the rounds, and each ratio is against the anchor's median of the same
// run. The commands: gatectl --version (nothing but the start),
// gatectl probe run env:HOME (the standard env probe, warm compilation
// cache; and with --fresh), and gatectl probe run redis: against a real
// redis-server beside redis-cli ping, the CLI a user would ask instead.
// /bin/true and /bin/sh -c 'test -n "$HOME"' are there for scale.
//
//	go test -run '^$' -bench Process -benchtime 200x ./cmd/gatectl
//
// GATECTL_BASELINE=/path/to/an/older/gatectl adds --version, env:HOME and
// redis: run by that binary to the same rounds, for before-and-after
// figures from one run.
func BenchmarkProcess(b *testing.B) {
	gatectl := buildGatectl(b)
	hello := buildHelloWorld(b)
	redis := "redis:" + testsvc.Redis(b, "")
	redisHost, redisPort := splitHostPort(b, strings.TrimPrefix(redis, "redis:"))
	env := append(os.Environ(), "GATE_CACHE_DIR="+b.TempDir())
	type named struct {
		name string
		cmd  *timedCommand
	}
	run := func(argv ...string) *timedCommand { return &timedCommand{argv: argv, env: env, wallOnly: true} }
	all := []named{
		{"hello", run(hello)},
		{"true", run("/bin/true")},
		{"sh-test-n", run("/bin/sh", "-c", `test -n "$HOME"`)},
		{"version", run(gatectl, "--version")},
		{"probe-env", run(gatectl, "probe", "run", "env:HOME")},
		{"probe-env-fresh", run(gatectl, "probe", "run", "--fresh", "env:HOME")},
		{"probe-redis", run(gatectl, "probe", "run", redis)},
		{"redis-cli", run("redis-cli", "-h", redisHost, "-p", redisPort, "ping")},
	}
	if old := os.Getenv("GATECTL_BASELINE"); old != "" {
		for _, c := range []named{
			{"baseline-version", run(old, "--version")},
			{"baseline-probe-env", run(old, "probe", "run", "env:HOME")},
			{"baseline-probe-redis", run(old, "probe", "run", redis)},
		} {
			c.cmd.mayFail = true
			all = append(all, c)
		}
	}
	for _, c := range all {
		c.cmd.run(b) // fill the caches: compiled probes, the page cache
		c.cmd.reset()
		c.cmd.failures = 0
	}
	for b.Loop() {
		for _, c := range all {
			c.cmd.run(b)
		}
	}
	medians := map[string]float64{}
	for _, c := range all {
		c.cmd.report(b, c.name)
		if c.cmd.mayFail {
			b.ReportMetric(float64(c.cmd.failures), c.name+"-failures")
		}
		medians[c.name] = c.cmd.median()
		if c.name != "hello" {
			b.ReportMetric(medians[c.name]/medians["hello"], c.name+"-x-hello")
		}
	}
	b.ReportMetric(medians["probe-redis"]/medians["redis-cli"], "probe-redis-x-redis-cli")
	if _, ok := medians["baseline-version"]; ok {
		b.ReportMetric(medians["baseline-probe-redis"]/medians["redis-cli"], "baseline-probe-redis-x-redis-cli")
	}
}

// buildHelloWorld builds a Go program that prints a line, with the Go
// that builds gatectl, and returns a copy of the binary (see
// buildGatectl): the floor of starting any Go program here.
func buildHelloWorld(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	require.NoError(b, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644))
	require.NoError(b, os.WriteFile(filepath.Join(dir, "main.go"),
		[]byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n"), 0o644))
	return buildCopy(b, dir, ".")
}

// BenchmarkCheckVsPython runs `gatectl check` of N env-probed tools, half
// of them available, as a whole process, interleaved with the anchor: a
// minimal Python model of PraisonAI's tool registry doing the same job
// (scripts/anchors/pymodel.py: register N availability lambdas, list once,
// print the names), started with the interpreter itself rather than any
// shim in front of it. It reports each one's wall time and peak resident
// memory per run, and the ratios, at 1,000 and 10,000 tools (the scale
// gate is built for: docs/MANIFEST.md). Goals: well ahead of the model
// reading the same manifest (x-python-toml), peak resident memory under
// twice the anchor's, and the check's time a tool at 10,000 within 1.3
// times its time a tool at 1,000 (x-per-tool-1k).
//
// The model's tools are in code, so it parses nothing, where gate reads
// and checks its manifest at every run: so the check also has the model
// reading the same manifest with Python's own TOML decoder (pymodel.py
// --manifest, "python-toml"). "Warm" is a cache dir an earlier run filled
// (compiled probes); an empty one compiles the probe module too.
//
//	go test -run '^$' -bench CheckVsPython -benchtime 20x ./cmd/gatectl
//
// GATECTL_BASELINE=/path/to/an/older/gatectl adds that binary to the same
// interleaved runs, for before-and-after figures from one run.
func BenchmarkCheckVsPython(b *testing.B) {
	gatectl := buildGatectl(b)
	pythons := realPythons(b)
	var perTool1k float64 // the warm check's milliseconds a tool at 1,000 tools
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			manifest, env := envCheck(b, n, 2)
			gate := &timedCommand{argv: []string{gatectl, "check", "-m", manifest}, env: env, exitCode: 1}
			// The same with an empty cache dir each time: a fresh machine,
			// a CI job without a cache (nothing compiled).
			cold := &timedCommand{argv: gate.argv, env: env, exitCode: 1, freshCache: true}
			all := []*timedCommand{gate}
			for _, python := range pythons {
				all = append(all, &timedCommand{argv: []string{python, "../../scripts/anchors/pymodel.py", fmt.Sprint(n)}, env: env})
			}
			// The model reading the manifest: Debian's Python if there is
			// one (the faster, see realPythons), with tomllib since 3.11.
			pyTOML := &timedCommand{argv: []string{pythons[len(pythons)-1], "../../scripts/anchors/pymodel.py", "--manifest", manifest}, env: env}
			all = append(all, cold, pyTOML)
			var baseline *timedCommand
			if old := os.Getenv("GATECTL_BASELINE"); old != "" {
				baseline = &timedCommand{argv: []string{old, "check", "-m", manifest}, env: env, exitCode: 1}
				all = append(all, baseline)
			}
			for _, c := range all {
				c.run(b) // fill the caches: compiled probes, the page cache
				c.reset()
			}
			for b.Loop() {
				for _, c := range all {
					c.run(b)
				}
			}
			gate.report(b, "gate")
			fastest := all[1]
			for i, py := range all[1 : 1+len(pythons)] {
				py.report(b, fmt.Sprint("python", i+1))
				if py.median() < fastest.median() {
					fastest = py
				}
			}
			b.ReportMetric(gate.median()/fastest.median(), "x-python")
			cold.report(b, "gate-cold")
			b.ReportMetric(cold.median()/fastest.median(), "x-python-cold")
			pyTOML.report(b, "python-toml")
			b.ReportMetric(gate.median()/pyTOML.median(), "x-python-toml")
			b.ReportMetric(cold.median()/pyTOML.median(), "x-python-toml-cold")
			if len(gate.rss) > 0 && len(fastest.rss) > 0 {
				b.ReportMetric(float64(max(slices.Max(gate.rss), slices.Max(cold.rss)))/float64(slices.Max(fastest.rss)), "x-python-maxrss")
			}
			perTool := gate.median() / float64(n)
			if n == 1_000 {
				perTool1k = perTool
			} else if perTool1k > 0 {
				b.ReportMetric(perTool/perTool1k, "x-per-tool-1k")
			}
			if baseline != nil {
				baseline.report(b, "baseline")
				b.ReportMetric(baseline.median()/gate.median(), "x-faster-than-baseline")
			}
		})
	}
}

// BenchmarkQuickstartCheck runs `gatectl check` on the quickstart manifest
// interleaved with `gatectl probe run env:HOME`, each as a process with a
// warm cache (compiled probes, Python's facts). Goal: check within 3x of
// the probe run, whatever python3 on PATH is.
func BenchmarkQuickstartCheck(b *testing.B) {
	gatectl := buildGatectl(b)
	// Without SERP_API_KEY: with it, search_web would ask serpapi.com.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "SERP_API_KEY=") })
	env = append(env, "GATE_CACHE_DIR="+b.TempDir())
	check := &timedCommand{argv: []string{gatectl, "check", "-m", "../../examples/quickstart/gate.toml"}, env: env, exitCode: 1}
	probe := &timedCommand{argv: []string{gatectl, "probe", "run", "env:HOME"}, env: env}
	check.run(b)
	probe.run(b)
	check.reset()
	probe.reset()
	for b.Loop() {
		check.run(b)
		probe.run(b)
	}
	check.report(b, "check")
	probe.report(b, "probe-run")
	b.ReportMetric(check.median()/probe.median(), "x-probe-run")
}

// buildGatectl builds gatectl and returns a copy of the binary: a file
// run straight after the linker wrote it started about a millisecond
// slower than a copy of it, every time, on this machine.
func buildGatectl(b *testing.B) string {
	b.Helper()
	return buildCopy(b, ".", ".")
}

// buildCopy builds the package pkg of the module in dir and returns a copy
// of the binary.
func buildCopy(b testing.TB, dir, pkg string) string {
	b.Helper()
	out := b.TempDir()
	built := filepath.Join(out, "built")
	build := exec.Command("go", "build", "-o", built, pkg)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build %s in %s: %v\n%s", pkg, dir, err, out)
	}
	data, err := os.ReadFile(built)
	require.NoError(b, err)
	bin := filepath.Join(out, "bin")
	require.NoError(b, os.WriteFile(bin, data, 0o755))
	return bin
}

// realPythons are the interpreters the anchor runs on: the one python3 on
// PATH runs (sys.executable, so that a pyenv shim's own start is not
// charged to the anchor), and Debian's /usr/bin/python3 if that is
// another. They differ (a pyenv build of 3.11 took twice as long as
// Debian's 3.11 for the same model here), and the ratio is taken against
// the faster.
func realPythons(b *testing.B) []string {
	b.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	require.NoError(b, err, "python3 is needed for the anchor (scripts/test installs it)")
	pythons := []string{strings.TrimSpace(string(out))}
	if real, err := filepath.EvalSymlinks("/usr/bin/python3"); err == nil {
		if mine, err := filepath.EvalSymlinks(pythons[0]); err != nil || mine != real {
			pythons = append(pythons, "/usr/bin/python3")
		}
	}
	return pythons
}

// envCheck writes envManifest(n) in a new directory and returns its path
// and an environment that sets every one tool's variable in every, with a
// cache dir of its own beside the manifest.
func envCheck(tb testing.TB, n, every int) (manifest string, env []string) {
	tb.Helper()
	dir := tb.TempDir()
	manifest = filepath.Join(dir, "gate.toml")
	require.NoError(tb, os.WriteFile(manifest, envManifest(n), 0o644))
	env = append(os.Environ(), "GATE_CACHE_DIR="+filepath.Join(dir, "cache"))
	for i := 0; i < n; i += every {
		env = append(env, fmt.Sprintf("GATE_BENCH_%d=x", i))
	}
	return manifest, env
}

// envManifest is N tools shaped like the quickstart's: a description, a
// parameters schema, and the standard env probe of GATE_BENCH_<i>.
func envManifest(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[runtime]\nttl = \"30s\"\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[[tools]]\nname = \"tool_%d\"\ndescription = \"Tool number %d.\"\n", i, i)
		b.WriteString("parameters = { type = \"object\", properties = { q = { type = \"string\" } }, required = [\"q\"] }\n")
		fmt.Fprintf(&b, "probe = \"env:GATE_BENCH_%d\"\n\n", i)
	}
	return b.Bytes()
}

// timedCommand runs a command again and again, keeping each run's wall
// time and peak resident set size.
type timedCommand struct {
	argv     []string
	env      []string
	exitCode int
	// freshCache runs each time with GATE_CACHE_DIR set to a new, empty
	// directory.
	freshCache bool
	// wallOnly runs the command itself, without GNU time in front of it:
	// for commands of a few milliseconds, whose figures the extra
	// process would blur.
	wallOnly bool
	// mayFail counts a run that exits otherwise than exitCode in failures,
	// leaving its time out, rather than ending the benchmark: for an older
	// binary, whose failures under load are part of what is compared.
	mayFail  bool
	failures int
	walls    []time.Duration
	rss      []int64 // bytes
}

// gnuTime is GNU time, which reports a command's peak resident set size.
// The rusage Go gets back cannot: os/exec starts children with vfork, so
// a child's peak counts its parent's memory from before its exec (36 MiB
// for a benchmark binary, whatever the child). Without it (Debian's
// "time" package) the benchmarks report wall times only.
const gnuTime = "/usr/bin/time"

func (c *timedCommand) run(b *testing.B) {
	b.Helper()
	argv := c.argv
	var rssFile string
	if _, err := os.Stat(gnuTime); err == nil && !c.wallOnly {
		rssFile = filepath.Join(b.TempDir(), "rss")
		argv = append([]string{gnuTime, "-f", "%M", "-o", rssFile}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = c.env
	if c.freshCache {
		cmd.Env = append(slices.Clip(c.env), "GATE_CACHE_DIR="+b.TempDir())
	}
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if code := cmd.ProcessState.ExitCode(); code != c.exitCode && c.mayFail {
		c.failures++
		return
	} else if code != c.exitCode {
		b.Fatalf("%v: exit %d (%v), want %d\n%s", c.argv, code, err, c.exitCode, stderr.Bytes())
	}
	c.walls = append(c.walls, wall)
	if rssFile != "" {
		out, err := os.ReadFile(rssFile)
		require.NoError(b, err)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		require.NoError(b, err, "GNU time wrote %q", out)
		c.rss = append(c.rss, kib*1024)
	}
}

func (c *timedCommand) reset() { c.walls, c.rss = nil, nil }

// median is the middle wall time in milliseconds: the machine is shared,
// and a mean would carry every other process's bursts.
func (c *timedCommand) median() float64 {
	w := slices.Clone(c.walls)
	slices.Sort(w)
	return float64(w[len(w)/2]) / float64(time.Millisecond)
}

func (c *timedCommand) report(b *testing.B, name string) {
	b.ReportMetric(c.median(), name+"-ms")
	if len(c.rss) > 0 {
		b.ReportMetric(float64(slices.Max(c.rss))/(1<<20), name+"-maxrss-MiB")
	}
}
