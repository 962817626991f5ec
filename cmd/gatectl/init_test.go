package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
)

// bareMachine is a machine with nothing on it: no environment, an empty
// PATH directory, and a table of services whose addresses refuse (the
// docker socket is a path where nothing is).
func bareMachine(t *testing.T) machine {
	services := slices.Clone(localServices)
	for i := range services {
		if strings.HasPrefix(services[i].addr, "unix:") {
			services[i].addr = "unix:" + filepath.Join(t.TempDir(), "none.sock")
		} else {
			services[i].addr = testnet.ClosedAddr(t)
		}
	}
	return machine{
		getenv:      func(string) string { return "" },
		path:        t.TempDir(),
		services:    services,
		dialTimeout: 10 * time.Second, // loopback answers at once; this is for a loaded machine
	}
}

// withEnv is m with the environment env.
func (m machine) withEnv(env map[string]string) machine {
	m.getenv = func(k string) string { return env[k] }
	return m
}

// withService is m with the service of that kind at addr.
func (m machine) withService(kind probes.Kind, addr string) machine {
	m.services = slices.Clone(m.services)
	for i := range m.services {
		if m.services[i].kind == kind {
			m.services[i].addr = addr
		}
	}
	return m
}

// programsIn makes a directory holding an executable file of each name.
func programsIn(t *testing.T, names ...string) string {
	dir := t.TempDir()
	for _, n := range names {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755))
	}
	return dir
}

// initAt runs gatectl init on m, writing to a new file in a temporary
// directory, and returns its exit code and output and the file's path.
func initAt(t *testing.T, m machine, args ...string) (code int, stdout, stderr, path string) {
	path = filepath.Join(t.TempDir(), "gate.toml")
	var out, errOut bytes.Buffer
	code = initOn(m, append([]string{"-m", path}, args...), &out, &errOut)
	return code, out.String(), errOut.String(), path
}

// toolProbes is each tool of the manifest at path, loaded as gatectl
// check loads it, with its probe's label.
func toolProbes(t *testing.T, path string) map[string]string {
	m, err := manifest.Load(path)
	require.NoError(t, err, "the manifest gatectl init wrote must load")
	got := map[string]string{}
	for _, tool := range m.Tools {
		require.NotContains(t, got, tool.Name, "tool names are unique")
		got[tool.Name] = tool.Probe.Label()
	}
	return got
}

// TestInitFinds: each kind of thing found becomes a tool with the probe
// that asks it, under a comment saying why it is there; what is not there
// (an empty variable, a file that is not executable, a directory, a port
// that refuses, one that never answers) is not. The file loads.
func TestInitFinds(t *testing.T) {
	bare := bareMachine(t)
	noExec := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(noExec, "git"), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(noExec, "node"), 0o755))
	redis := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	sock := filepath.Join(t.TempDir(), "docker.sock")
	testnet.Listen(t, "unix", sock)

	tests := []struct {
		name    string
		m       machine
		want    map[string]string // tool: probe
		why     []string          // "# found: " comments
		summary string
	}{
		{
			name: "API keys",
			m: bare.withEnv(map[string]string{
				"OPENAI_API_KEY": "sk-SECRET-VALUE-1",
				"GEMINI_API_KEY": "", // set but empty: the env probe says missing
				"GOOGLE_API_KEY": "SECRET-VALUE-2",
				"GH_TOKEN":       "SECRET-VALUE-3",
				"UNRELATED_KEY":  "SECRET-VALUE-4",
			}),
			want:    map[string]string{"openai": "env:OPENAI_API_KEY", "gemini": "env:GOOGLE_API_KEY", "github": "env:GH_TOKEN"},
			why:     []string{"OPENAI_API_KEY is set", "GOOGLE_API_KEY is set", "GH_TOKEN is set"},
			summary: "3 tools (3 API keys)",
		},
		{
			name:    "the first of two keys set",
			m:       bare.withEnv(map[string]string{"GH_TOKEN": "SECRET-VALUE-3", "GITHUB_TOKEN": "SECRET-VALUE-5"}),
			want:    map[string]string{"github": "env:GITHUB_TOKEN"},
			why:     []string{"GITHUB_TOKEN is set"},
			summary: "1 tool (1 API key)",
		},
		{
			name: "programs on PATH",
			m: func() machine {
				m := bare
				m.path = strings.Join([]string{".", noExec, programsIn(t, "rg", "git"), "relative/dir"}, string(os.PathListSeparator))
				return m
			}(),
			want:    map[string]string{"run_rg": "import:bin:rg", "run_git": "import:bin:git"},
			why:     []string{"rg is on PATH", "git is on PATH"},
			summary: "2 tools (2 programs)",
		},
		{
			name:    "a listener on redis's address",
			m:       bare.withService(probes.Redis, redis),
			want:    map[string]string{"redis": "redis:" + redis},
			why:     []string{redis + " (redis's address) accepts connections\n# the probe asks PING: "},
			summary: "1 tool (1 service)",
		},
		{
			name:    "a docker socket",
			m:       bare.withService(probes.Docker, "unix:"+sock),
			want:    map[string]string{"docker": "docker:unix:" + sock},
			why:     []string{"unix:" + sock + " (docker's address) accepts connections\n# the probe asks the Docker API's /_ping: "},
			summary: "1 tool (1 service)",
		},
		{
			name: "a port that never answers",
			m: func() machine {
				m := bare.withService(probes.Postgres, testnet.BlackHole(t))
				m.dialTimeout = 100 * time.Millisecond
				return m
			}(),
			want:    map[string]string{"search_web": "env:SERP_API_KEY"},
			summary: "found nothing here, so one example tool to edit",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr, path := initAt(t, tt.m)
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, "gatectl init: wrote "+path+": "+tt.summary+"\nnext: gatectl check -m "+path+"\n", stdout)
			assert.Equal(t, tt.want, toolProbes(t, path))
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			for _, why := range tt.why {
				assert.Contains(t, string(b), "\n# found: "+why)
			}
			assert.Equal(t, len(tt.why), strings.Count(string(b), "# found: "))
			assert.NotContains(t, string(b)+stdout+stderr, "SECRET-VALUE", "a variable's value is never written")
		})
	}
}

// TestInitFindsEverything: a machine with everything of every table makes
// a manifest with a tool for each row, which loads: the tables' names are
// valid tool names, unique, and their probes valid shorthands.
func TestInitFindsEverything(t *testing.T) {
	m := bareMachine(t)
	env := map[string]string{}
	for _, k := range apiKeys {
		for _, v := range k.vars {
			require.True(t, probes.ValidEnvName(v), v)
			env[v] = "x"
		}
	}
	m = m.withEnv(env)
	for _, s := range localServices {
		if strings.HasPrefix(s.addr, "unix:") {
			sock := filepath.Join(t.TempDir(), "s.sock")
			testnet.Listen(t, "unix", sock)
			m = m.withService(s.kind, "unix:"+sock)
		} else {
			m = m.withService(s.kind, testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String())
		}
	}
	var bins []string
	for _, p := range programs {
		bins = append(bins, p.bin)
	}
	m.path = programsIn(t, bins...)

	code, _, stderr, path := initAt(t, m)
	require.Equal(t, exitOK, code, stderr)
	got := toolProbes(t, path)
	assert.Len(t, got, len(apiKeys)+len(localServices)+len(programs))
	for _, s := range localServices {
		assert.True(t, strings.HasPrefix(got[s.tool], string(s.kind)+":"), "%s: %s", s.tool, got[s.tool])
	}
	for _, p := range programs {
		assert.Equal(t, "import:bin:"+p.bin, got[p.tool])
	}
	for _, s := range localServices { // the real table's rows are shorthands
		_, err := probes.ParseShorthand(string(s.kind) + ":" + s.addr)
		assert.NoError(t, err, s.tool)
	}
}

// TestInitRealRedis: a real Redis is found on its address and the tool
// init writes for it is available to gatectl check.
func TestInitRealRedis(t *testing.T) {
	addr := testsvc.Redis(t, "")
	code, _, stderr, path := initAt(t, bareMachine(t).withService(probes.Redis, addr))
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, map[string]string{"redis": "redis:" + addr}, toolProbes(t, path))

	code, stdout, stderr := gatectl(t, "check", "-m", path)
	assert.Equal(t, exitOK, code, stdout+stderr)
	assert.Regexp(t, `(?m)^redis +available +`, stdout)
	assert.Contains(t, stdout, "1 of 1 tools available.")
}

// TestInitNothingFound: with nothing found the manifest has one example
// tool, which gatectl check loads and reports unavailable.
func TestInitNothingFound(t *testing.T) {
	t.Setenv("SERP_API_KEY", "")
	code, stdout, stderr, path := initAt(t, bareMachine(t))
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "found nothing here, so one example tool to edit")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assertGolden(t, "init_nothing.toml", strings.ReplaceAll(string(b), path, "gate.toml"))

	code, stdout, stderr = gatectl(t, "check", "-m", path)
	assert.Equal(t, exitUnavailable, code, stderr)
	assert.Contains(t, stdout, "Missing environment variables: SERP_API_KEY")
}

// TestInitGolden pins the file for one machine with some of everything;
// the temporary port is written PORT.
func TestInitGolden(t *testing.T) {
	redis := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	m := bareMachine(t).withEnv(map[string]string{"ANTHROPIC_API_KEY": "x", "TAVILY_API_KEY": "x"}).withService(probes.Redis, redis)
	m.path = programsIn(t, "git", "python3")
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, initOn(m, []string{"--stdout"}, &stdout, &stderr), stderr.String())
	got := strings.ReplaceAll(stdout.String(), redis, "127.0.0.1:PORT")
	assertGolden(t, "init_found.toml", got)
	assert.Empty(t, stderr.String())
}

// TestInitCommand runs the real command, on this machine's services and
// with an environment and PATH set for it: it writes ./gate.toml, which
// gatectl check reads, and the tools it wrote for the key and the program
// are available.
func TestInitCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("GATE_MANIFEST", "")
	t.Setenv("TAVILY_API_KEY", "tvly-SECRET-VALUE")
	t.Setenv("PATH", programsIn(t, "rg"))

	code, stdout, stderr := gatectl(t, "init")
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `^gatectl init: wrote gate.toml: \d+ tools? \(.*\)\nnext: gatectl check -m gate.toml\n$`, stdout)
	fi, err := os.Lstat(filepath.Join(dir, "gate.toml"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode())
	b, err := os.ReadFile("gate.toml")
	require.NoError(t, err)
	assert.NotContains(t, string(b), "SECRET-VALUE")
	assert.Contains(t, string(b), "\n# found: TAVILY_API_KEY is set\nprobe = \"env:TAVILY_API_KEY\"\n")
	assert.Contains(t, string(b), "\n# found: rg is on PATH\nprobe = \"import:bin:rg\"\n")

	code, stdout, stderr = gatectl(t, "check", "tavily_search", "run_rg")
	assert.Equal(t, exitOK, code, stdout+stderr)
	assert.Contains(t, stdout, "2 of 2 tools available.")

	code, _, stderr = gatectl(t, "init")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "gatectl init: gate.toml exists; --force replaces it\n", stderr)
}

// TestInitRefusesToOverwrite: an existing file, directory or link is
// refused, naming it, and left as it was; --force replaces the file or
// the link (not what the link points to) with a 0644 file.
func TestInitRefusesToOverwrite(t *testing.T) {
	m := bareMachine(t)
	tests := []struct {
		name   string
		make   func(t *testing.T, dir, path string)
		forced bool // --force replaces it
	}{
		{"file", func(t *testing.T, _, path string) { writeFile(t, path, "old") }, true},
		{"link", func(t *testing.T, dir, path string) {
			writeFile(t, filepath.Join(dir, "target"), "old")
			require.NoError(t, os.Symlink(filepath.Join(dir, "target"), path))
		}, true},
		{"dangling link", func(t *testing.T, dir, path string) {
			require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), path))
		}, true},
		{"directory", func(t *testing.T, _, path string) { require.NoError(t, os.Mkdir(path, 0o755)) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "gate.toml")
			tt.make(t, dir, path)
			before, _ := os.Lstat(path)

			var stdout, stderr bytes.Buffer
			assert.Equal(t, exitUsage, initOn(m, []string{"-m", path}, &stdout, &stderr))
			assert.Equal(t, "gatectl init: "+path+" exists; --force replaces it\n", stderr.String())
			assert.Empty(t, stdout.String())
			after, err := os.Lstat(path)
			require.NoError(t, err)
			assert.True(t, os.SameFile(before, after), "left as it was")

			stdout.Reset()
			stderr.Reset()
			code := initOn(m, []string{"-m", path, "--force"}, &stdout, &stderr)
			if !tt.forced {
				assert.Equal(t, exitUsage, code)
				assert.Contains(t, stderr.String(), "gatectl init: cannot write "+path+": ")
				return
			}
			require.Equal(t, exitOK, code, stderr.String())
			fi, err := os.Lstat(path)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o644), fi.Mode(), "a regular file 0644, not a link")
			toolProbes(t, path)
			if b, err := os.ReadFile(filepath.Join(dir, "target")); err == nil {
				assert.Equal(t, "old", string(b), "the link's target is not written through")
			}
		})
	}
}

// TestInitUsage: stdout instead of a file, and the mistakes.
func TestInitUsage(t *testing.T) {
	m := bareMachine(t)
	t.Chdir(t.TempDir())
	for _, args := range [][]string{{"--stdout"}, {"-m", "-"}, {"--stdout", "-m", "-"}} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, exitOK, initOn(m, args, &stdout, &stderr), "%v: %s", args, stderr.String())
		assert.True(t, strings.HasPrefix(stdout.String(), "# A manifest written by gatectl init"), "%v", args)
		assert.Empty(t, stderr.String())
		_, err := manifest.Parse("stdout", stdout.Bytes())
		assert.NoError(t, err)
		_, err = os.Lstat("gate.toml")
		assert.True(t, os.IsNotExist(err), "%v writes no file", args)
	}

	spaced := filepath.Join(t.TempDir(), "my gate's.toml")
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, initOn(m, []string{"-m", spaced}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "\nnext: gatectl check -m "+shellQuote(spaced)+"\n", "a path to paste into a shell")
	toolProbes(t, spaced)

	missing := filepath.Join(t.TempDir(), "no", "gate.toml")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--stdout", "-m", "x.toml"}, "gatectl init: --stdout and -m x.toml: want one of them\n"},
		{[]string{"extra"}, "gatectl init: unexpected argument \"extra\"\n"},
		{[]string{"-m", missing}, "gatectl init: cannot write " + missing + ": open " + filepath.Dir(missing) + "/.tmp-"},
		{[]string{"--nope"}, "gatectl init: unknown flag --nope"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, exitUsage, initOn(m, tt.args, &stdout, &stderr), "%v", tt.args)
		assert.Contains(t, stderr.String(), tt.want, "%v", tt.args)
		assert.Empty(t, stdout.String(), "%v", tt.args)
	}
}

// TestInitTableIsLocal: the addresses init connects to are all on
// loopback or a local socket.
func TestInitTableIsLocal(t *testing.T) {
	loopback := regexp.MustCompile(`^(127\.0\.0\.1:\d+|unix:/.+)$`)
	for _, s := range localServices {
		assert.Regexp(t, loopback, s.addr, s.tool)
	}
}

// FuzzTOMLString: whatever a string holds, tomlString writes a TOML string
// that reads back as it (as valid UTF-8), and tomlComment a comment that
// ends at its line.
func FuzzTOMLString(f *testing.F) {
	for _, s := range []string{"", "redis:127.0.0.1:6379", `a"b\c`, "line\nnext = 1", "\x00\x1b[2K\x7f", "\xff\xfe", "é\u2028\u202e", "\t'''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := "# " + tomlComment(s) + "\nv = " + tomlString(s) + "\n"
		var got map[string]any
		require.NoError(t, toml.Unmarshal([]byte(doc), &got), "%q", doc)
		assert.Equal(t, map[string]any{"v": strings.ToValidUTF8(s, "\uFFFD")}, got, "%q", doc)
	})
}
