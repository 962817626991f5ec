package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tookTimes masks how long a compile took, which the machine decides.
var tookTimes = regexp.MustCompile(`in [0-9.]+(ms|s|m[0-9.]+s)`)

// TestCompileProgressLines: one line per slow compile, its end on the same
// line as its start, and lines that overlap kept apart; a compile that
// ended before its start was due writes nothing.
func TestCompileProgressLines(t *testing.T) {
	var b bytes.Buffer
	p := &compileProgress{w: &b}
	newLine := func(name string, size int) *compileLine {
		return &compileLine{name: name, size: size, start: time.Now()}
	}

	a := newLine("a.wasm", 2_100_000)
	p.begin(a)
	p.end(a, nil)

	quick := newLine("quick.wasm", 10)
	p.end(quick, nil)
	p.begin(quick) // its delay passed as it ended

	x, y := newLine("x.wasm", 500_000), newLine("y.wasm", 13_600_000)
	p.begin(x)
	p.begin(y)
	p.end(x, errors.New("compile: boom"))
	p.end(y, nil)

	assert.Equal(t, "gatectl: compiling probe a.wasm (2.1 MB)... done in 0s\n"+
		"gatectl: compiling probe x.wasm (0.5 MB)...\n"+
		"gatectl: compiling probe y.wasm (13.6 MB)...\n"+
		"gatectl: compiling probe x.wasm: failed in 0s\n"+
		"gatectl: compiling probe y.wasm: done in 0s\n", tookTimes.ReplaceAllString(b.String(), "in 0s"))
}

// TestCompileProgressEscapes: a module's name is written as safetext
// escapes it: a name cannot move the cursor or clear the line.
func TestCompileProgressEscapes(t *testing.T) {
	var b bytes.Buffer
	p := &compileProgress{w: &b}
	p.observe("evil\r\x1b[2K.wasm", 1)(nil)
	assert.NotContains(t, b.String(), "\x1b")
	assert.NotContains(t, b.String(), "\r")
	assert.Contains(t, b.String(), "gatectl: compiling probe evil")
}

var goProbe struct {
	once sync.Once
	path string
	err  error
}

// goProbeModule builds runtime's Go test probe (2.5 MB) with the real
// toolchain, once per test binary.
func goProbeModule(t *testing.T) string {
	t.Helper()
	goProbe.once.Do(func() {
		dir, err := os.MkdirTemp("", "goprobe")
		if err != nil {
			goProbe.err = err
			return
		}
		goProbe.path = filepath.Join(dir, "goprobe.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", goProbe.path, "../../runtime/testdata/goprobe")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			goProbe.err = errors.New("go build goprobe: " + err.Error() + "\n" + string(out))
		}
	})
	require.NoError(t, goProbe.err)
	return goProbe.path
}

// TestCheckSaysItIsCompiling: gatectl check compiling a real Go-built
// probe tells a person at a terminal (a real pseudo-terminal as stderr)
// which module it is compiling, and when it is done; told to a pipe, it
// says nothing, and a compile that ends before the delay says nothing
// either. Those two compile a small C-built probe: what they show holds
// for any compile (at delay 0 the line is written as the compile starts),
// and each cold compile of the Go-built one takes tens of seconds under
// the race detector.
func TestCheckSaysItIsCompiling(t *testing.T) {
	module := goProbeModule(t)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "gate.toml")
	writeFile(t, manifest, "[[tools]]\nname = \"go_tool\"\ndescription = \"x\"\nprobe = { module = "+
		`"`+filepath.ToSlash(module)+`"`+", config = { mode = \"ok\" } }\n")
	small, err := filepath.Abs("../../internal/probes/tcp.wasm")
	require.NoError(t, err)
	listener := newMCPListener(t)
	smallManifest := filepath.Join(dir, "small.toml")
	writeFile(t, smallManifest, fmt.Sprintf("[[tools]]\nname = \"c_tool\"\ndescription = \"x\"\n"+
		"probe = { module = %q, config = { addr = %q }, grants = { dial = [%q] } }\n",
		filepath.ToSlash(small), listener.addr, listener.addr))
	info, err := os.Stat(module)
	require.NoError(t, err)
	wantLine := regexp.MustCompile(`^gatectl: compiling probe ` + regexp.QuoteMeta(module) +
		` \(` + regexp.QuoteMeta(megabytes(int(info.Size()))) + `\)\.\.\. done in [0-9.]+m?s\n$`)

	checkWith := func(manifest string, delay time.Duration, stderrTerminal bool) string {
		t.Helper()
		t.Setenv("GATE_CACHE_DIR", t.TempDir()) // a cold compile each time
		saved := progressDelay
		progressDelay = delay
		defer func() { progressDelay = saved }()
		var stdout bytes.Buffer
		if !stderrTerminal {
			var stderr bytes.Buffer
			assert.Equal(t, exitOK, run([]string{"check", "-m", manifest}, &stdout, &stderr))
			return stderr.String()
		}
		master, term := openPTY(t, 80)
		assert.Equal(t, exitOK, run([]string{"check", "-m", manifest}, &stdout, term))
		assert.Contains(t, stdout.String(), "1 of 1 tools available.")
		return readAll(t, master, term)
	}

	assert.Regexp(t, wantLine, checkWith(manifest, 0, true), "a terminal is told")
	assert.Empty(t, checkWith(smallManifest, 0, false), "a pipe is not")
	assert.Empty(t, checkWith(smallManifest, time.Hour, true), "a compile quicker than the delay is not")
}
