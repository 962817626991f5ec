package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ctestExe makes the cache see the running program as id ("" = it
// cannot be identified) for the rest of the test.
func ctestExe(t *testing.T, id string) {
	old := exeIdentity
	exeIdentity = func() (string, bool) { return id, id != "" }
	t.Cleanup(func() { exeIdentity = old })
}

// ctestLoad is LoadCached, also saying whether it was answered from an
// entry and whether it wrote one.
func ctestLoad(t *testing.T, path string, lim Limits, cache string) (m *Manifest, hit, wrote bool, err error) {
	t.Helper()
	h, w := cacheHits.Load(), cacheWrites.Load()
	m, err = LoadCached(path, lim, cache)
	return m, cacheHits.Load() > h, cacheWrites.Load() > w, err
}

// ctestParse is what LoadWithLimits makes of the file at path now.
func ctestParse(t *testing.T, path string, lim Limits) *Manifest {
	t.Helper()
	m, err := LoadWithLimits(path, lim)
	require.NoError(t, err, "%+v", err)
	return m
}

// ctestEntries lists the entries in cache.
func ctestEntries(t *testing.T, cache string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(cache, cacheSubdir, "*"))
	require.NoError(t, err)
	var out []string
	for _, n := range names {
		if fi, err := os.Lstat(n); err == nil && fi.IsDir() {
			continue
		}
		if isEntryName(filepath.Base(n)) {
			out = append(out, n)
		}
	}
	return out
}

// ctestWrite writes a manifest file.
func ctestWrite(t *testing.T, path string, src []byte) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, src, 0o644))
	return path
}

// genFull writes a manifest of n tools and 2 servers in which every field
// of every type is set somewhere (TestGenFullSetsEveryField checks), and
// nil and empty slices and maps both occur, varied by seed.
func genFull(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	fmt.Fprintf(&b, `[runtime]
ttl = "%ds"
grace = "5s"
budget = "90ms"
memory = "64MiB"
cache_dir = "cache/dir"
python = "./venv/bin/python"
concurrency = %d
max_runs = %d
failure_threshold = 3
retry = "5s"

[skills]
paths = ["./skills", "/abs/skills", "../up"]
enforcement = "strict"
allowed_tools_required = %t
follow_outside_links = true
`, 1+r.IntN(100), 1+r.IntN(8), 1+r.IntN(64), r.IntN(2) == 0)
	for i := range n {
		desc := []string{"", "Search <the> web & more.", "Ünïcödé — 翻訳 🚀", strings.Repeat("long ", r.IntN(50))}[r.IntN(4)]
		fmt.Fprintf(&b, "\n[[tools]]\nname = \"tool_%d\"\ndescription = %q\n", i, desc)
		if ts := []string{"", "web", "mcp-github.v2"}[r.IntN(3)]; ts != "" {
			fmt.Fprintf(&b, "toolset = %q\n", ts)
		}
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "success_threshold = %d\nhold_down = \"%dm\"\n", 1+r.IntN(5), r.IntN(10))
		case 1:
			fmt.Fprintf(&b, "failure_threshold = %d\nretry = \"%ds\"\n", 1+r.IntN(5), 1+r.IntN(60))
		}
		if r.IntN(3) > 0 {
			fmt.Fprintf(&b, "parameters = { type = \"object\", required = [\"q\"], properties = { q = { type = \"string\", description = \"<b>%d</b>\" }, n = { type = \"integer\", minimum = %d } } }\n", i, r.IntN(10))
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `[tools.probe]
module = "probes/p%d.wasm"
sha256 = "%064x"
config = { url_var = "DB_%d", "b key" = "v<%d>", empty = "" }
budget = "%dms"
tls_ca = "certs/ca%d.pem"
proxy = true
[tools.probe.grants]
env = ["DB_%d", "PG*"]
dial = ["localhost:%d", "[::1]:5432"]
import = ["py:psycopg2", "lib:libpq.so.5"]
secrets = { DB_PASSWORD_%d = ["localhost:%d"], PGPASS = ["unix:/run/db.sock", "https://api.example.com/v1/"] }
insecure = ["localhost:%d", "unix:/run/db.sock"]
http = ["https://api.example.com/v%d/", "http://127.0.0.1:*/health", "unix:/var/run/docker.sock:/_ping"]
`, i, i+1, i, i, 1+r.IntN(80), i, i, 1000+i, i, 1000+i, 1000+i, i)
		case 1:
			fmt.Fprintf(&b, "probe = \"env:KB_%d_TOKEN\"\n", i)
		case 2:
			fmt.Fprintf(&b, "probe = { module = \"/opt/p%d.wasm\", config = {}, grants = { env = [], dial = [\"*:443\"], import = [], secrets = {}, insecure = [] }, proxy = false }\n", i)
		case 4:
			fmt.Fprintf(&b, "probe = { module = \"p%d.wasm\", grants = { dial = [] } }\n", i)
		case 3:
			fmt.Fprintf(&b, "probe = { standard = \"tcp:localhost:%d\", budget = \"10ms\", tls_ca = \"/etc/ssl/ca%d.pem\" }\n", 1+i, i)
		}
	}
	b.WriteString(`
[[servers]]
name = "mcp:filesystem"
description = "Files under the project root"
probe = "tcp:127.0.0.1:3333"
failure_threshold = 2
success_threshold = 2
retry = "2s"
hold_down = "1m"

[[servers]]
name = "@acme/search.v2"
[servers.probe]
module = "probes/search.wasm"
sha256 = "00000000000000000000000000000000000000000000000000000000000000ab"
config = { k = "v" }
budget = "20ms"
grants.env = ["ACME_TOKEN"]
grants.dial = ["acme.example:443"]
grants.import = ["bin:curl"]
`)
	// Upstreams: one run, one connected to, with nil and set, empty and
	// not, both ways round.
	fmt.Fprintf(&b, `
[[servers]]
name = "github"
command = ["./bin/github-mcp", "stdio", "--seed=%d"]
env = { B = "2", A = "", C = "x=y" }
pass_env = ["HOME", "PATH"]
prefix = ""
call_timeout = "%ds"
breaker = { failures = %d, cooldown = "%dms" }
pin = %s

[[servers.tools]]
name = "create_issue"
probe = "env:GH_WRITE"

[[servers.tools]]
match = "delete_*"
[servers.tools.probe]
module = "probes/admin.wasm"
config = { level = "admin" }
budget = "5ms"

[[servers]]
name = "search"
url = "https://search.example/mcp"
transport = "sse"
prefix = "s_%d."
tools = []
headers = { "X-Api-Key" = "${secret:SEARCH_KEY}", b = "seed %d" }
oauth = { token_url = "https://as.example/token", client_id = "gate", client_secret = "${secret:CS}", scopes = ["mcp:tools"] }
`, seed, 1+r.IntN(60), r.IntN(10), 1+r.IntN(1000), []string{"true", `"strict"`}[seed%2], seed, seed)
	if r.IntN(2) == 0 {
		b.WriteString(`
[[servers]]
name = "fs"
command = ["npx", "-y", "@modelcontextprotocol/server-filesystem"]
env = {}
pass_env = []
tools = [{ match = "write_*", probe = { standard = "env:FS_WRITE", budget = "1ms" } }]
`)
	}
	return []byte(b.String())
}

// fieldsSet records, for every field of every struct type reachable from
// v, whether some value of it seen was not zero.
func fieldsSet(v reflect.Value, seen map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fieldsSet(v.Elem(), seen)
		}
	case reflect.Slice:
		if k := v.Type().Elem().Kind(); k == reflect.Struct || k == reflect.Pointer {
			for i := range v.Len() {
				fieldsSet(v.Index(i), seen)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			key := v.Type().Name() + "." + v.Type().Field(i).Name
			seen[key] = seen[key] || !v.Field(i).IsZero()
			fieldsSet(v.Field(i), seen)
		}
	}
}

// TestGenFullSetsEveryField: the generated manifests exercise every field
// of the Manifest, so that deep equality after a round trip covers them
// all; a field added to the Manifest fails here until genFull sets it
// (and, through the round trip, until the codec carries it).
func TestGenFullSetsEveryField(t *testing.T) {
	m, err := Parse("gate.toml", genFull(10, 1))
	require.NoError(t, err, "%+v", err)
	seen := map[string]bool{}
	fieldsSet(reflect.ValueOf(m), seen)
	for _, typ := range []any{Manifest{}, Runtime{}, Skills{}, Tool{}, Server{}, Upstream{}, EnvVar{}, Header{}, OAuth{}, UpstreamTool{}, Probe{}, ProbeNet{}, Position{}} {
		rt := reflect.TypeOf(typ)
		for i := range rt.NumField() {
			key := rt.Name() + "." + rt.Field(i).Name
			assert.True(t, seen[key], "%s is never set by genFull", key)
		}
	}
	// Nil and empty both occur where they differ.
	var emptyConfig, emptyEnv, nilConfig bool
	for _, tool := range m.Tools {
		if p := tool.Probe; p != nil {
			emptyConfig = emptyConfig || p.Config != nil && len(p.Config) == 0
			nilConfig = nilConfig || p.Config == nil
			emptyEnv = emptyEnv || p.Env != nil && len(p.Env) == 0
		}
	}
	assert.True(t, emptyConfig && nilConfig, "config = {} and none")
	assert.True(t, emptyEnv, "env = []")
	var emptyPrefix, nilPrefix, nilTimeout, emptyRules, breaker, nilBreaker bool
	for _, s := range m.Servers {
		if u := s.Upstream; u != nil {
			emptyPrefix = emptyPrefix || u.Prefix != nil && *u.Prefix == ""
			nilPrefix = nilPrefix || u.Prefix == nil
			nilTimeout = nilTimeout || u.CallTimeout == nil
			emptyRules = emptyRules || u.Tools != nil && len(u.Tools) == 0
			breaker = breaker || u.Breaker != nil && u.Breaker.Failures != nil && u.Breaker.Window == nil
			nilBreaker = nilBreaker || u.Breaker == nil
		}
	}
	assert.True(t, emptyPrefix && nilTimeout && emptyRules, `prefix = "", no call_timeout, tools = []`)
	assert.True(t, breaker && nilBreaker, "a breaker with a key left out, and none")
	for seed := range uint64(4) {
		m, err := Parse("gate.toml", genFull(1, seed))
		require.NoError(t, err)
		for _, s := range m.Servers {
			nilPrefix = nilPrefix || s.Upstream != nil && s.Upstream.Prefix == nil
		}
	}
	assert.True(t, nilPrefix, "no prefix, with some seed")
}

// ctestManifests are the valid manifests every cache test runs on: the
// corpus, as their relative paths, and generated ones in dir.
func ctestManifests(t *testing.T, dir string) []string {
	files := corpus(t, "valid")
	for i, n := range []int{0, 1, 7, 60} {
		files = append(files, ctestWrite(t, filepath.Join(dir, fmt.Sprintf("full%d", i), "gate.toml"), genFull(n, uint64(i))))
	}
	return append(files, ctestWrite(t, filepath.Join(dir, "tools", "gate.toml"), genTools(300)))
}

// Every nil-or-empty slice and map, and pointers to zero values, come
// back as they went, nil or empty.
func TestManifestCacheRoundTripShapes(t *testing.T) {
	zero, f := time.Duration(0), false
	var zeroMem uint64
	empty := ""
	key := [sha256.Size]byte{9}
	for _, m := range []*Manifest{
		{},
		{Tools: []Tool{}, Servers: []Server{}, Skills: Skills{Paths: []string{}}},
		{Tools: []Tool{{Parameters: json.RawMessage{}, Probe: &Probe{Config: map[string]string{}, Env: []string{}, Dial: []string{}, Import: []string{}, Budget: &zero}}}},
		{Tools: []Tool{{Parameters: json.RawMessage(`{}`), Probe: &Probe{Config: map[string]string{"": ""}, Env: []string{""}}}, {Probe: &Probe{}}}},
		{Runtime: Runtime{TTL: &zero, Grace: &zero, Budget: &zero, Memory: &zeroMem, CacheDir: &empty, Concurrency: -1, MaxRuns: -1}, Skills: Skills{AllowedToolsRequired: &f}},
		{Servers: []Server{{Probe: &Probe{Import: []string{}}, Pos: Position{File: "a", Line: -1, Col: 1 << 40}}, {Pos: Position{File: "b"}}, {}}},
		// ABI v2's grants and settings, nil, empty and set, the proxy
		// flag with and without a budget.
		{Tools: []Tool{
			{Probe: &Probe{Net: &ProbeNet{HTTP: []string{}, Secrets: map[string][]string{}, Insecure: []string{}, Proxy: true}}},
			{Probe: &Probe{Net: &ProbeNet{HTTP: []string{"https://api.example.com/v1/", "unix:/var/run/docker.sock:/_ping"}, Secrets: map[string][]string{"K": {"127.0.0.1:6379"}, "L": {"tls:h:1", "https://api.example.com/v1/"}}, Insecure: []string{"localhost:*"}, TLSCA: "/etc/ca.pem", Proxy: true}, Budget: &zero}},
			{Probe: &Probe{Standard: "tcp:h:1", Net: &ProbeNet{TLSCA: "/ca.pem"}, Budget: &zero}},
			// One empty list is enough for a Net, and none for none.
			{Probe: &Probe{Net: &ProbeNet{HTTP: []string{}}}},
			{Probe: &Probe{Net: &ProbeNet{Secrets: map[string][]string{}}}},
			{Probe: &Probe{Net: &ProbeNet{Insecure: []string{}}}},
			{Probe: &Probe{Net: &ProbeNet{Proxy: true}}},
			{Probe: &Probe{Env: []string{"A"}, Net: nil}},
		}},
	} {
		got, err := decodeEntry(encodeEntry(m, key), key, Limits{})
		require.NoError(t, err)
		require.True(t, reflect.DeepEqual(m, got), "%#v\n%#v", m, got)
	}
}

// A second load is answered from the entry the first wrote, with a
// Manifest deep-equal to a fresh parse (nil and empty slices and maps
// told apart), and the entry is byte for byte what encodeEntry makes of
// that parse.
func TestLoadCachedHit(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	for _, file := range ctestManifests(t, t.TempDir()) {
		t.Run(file, func(t *testing.T) {
			cache := t.TempDir()
			want := ctestParse(t, file, Limits{})
			m1, hit, wrote, err := ctestLoad(t, file, Limits{}, cache)
			require.NoError(t, err)
			assert.False(t, hit, "first load")
			assert.True(t, wrote, "first load writes")
			require.Equal(t, want, m1)

			m2, hit, wrote, err := ctestLoad(t, file, Limits{}, cache)
			require.NoError(t, err)
			assert.True(t, hit, "second load")
			assert.False(t, wrote)
			require.Equal(t, want, m2)
			require.True(t, reflect.DeepEqual(want, m2))

			entries := ctestEntries(t, cache)
			require.Len(t, entries, 1)
			got, err := os.ReadFile(entries[0])
			require.NoError(t, err)
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			meta, ok := cacheMeta(file, Limits{})
			require.True(t, ok)
			key := cacheFullKey(meta, src)
			assert.Equal(t, fmt.Sprintf("%x", cacheName(meta, src)), filepath.Base(entries[0]))
			assert.Equal(t, encodeEntry(want, key), got)
		})
	}
}

// A decoded Manifest is the caller's: changing it (appending to
// Parameters, say) changes nothing in the cache or in other tools.
func TestLoadCachedResultIsIndependent(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	file := ctestWrite(t, filepath.Join(t.TempDir(), "gate.toml"), genFull(20, 3))
	cache := t.TempDir()
	want := ctestParse(t, file, Limits{})
	_, _, _, err := ctestLoad(t, file, Limits{}, cache)
	require.NoError(t, err)
	m, hit, _, err := ctestLoad(t, file, Limits{}, cache)
	require.NoError(t, err)
	require.True(t, hit)
	for i := range m.Tools {
		if m.Tools[i].Parameters != nil {
			m.Tools[i].Parameters = append(m.Tools[i].Parameters, "XXXX"...)
		}
	}
	for i := range m.Tools {
		if m.Tools[i].Parameters != nil {
			assert.Equal(t, string(want.Tools[i].Parameters)+"XXXX", string(m.Tools[i].Parameters), "tool %d", i)
		}
	}
	again, hit, _, err := ctestLoad(t, file, Limits{}, cache)
	require.NoError(t, err)
	require.True(t, hit)
	assert.Equal(t, want, again)
}

// Anything the Manifest depends on is in the key: a change to the bytes,
// the path as given, the working directory a relative path is resolved
// from, the limits or the program misses (and the result is what a parse
// of the new input gives), while limits that resolve the same hit.
func TestLoadCachedMisses(t *testing.T) {
	cases := []struct {
		name    string
		change  func(t *testing.T, dir, file string) (path string, lim Limits)
		wantHit bool
	}{
		{name: "nothing", wantHit: true, change: func(_ *testing.T, _, file string) (string, Limits) {
			return file, Limits{}
		}},
		{name: "limits that resolve the same", wantHit: true, change: func(_ *testing.T, _, file string) (string, Limits) {
			return file, DefaultLimits()
		}},
		{name: "one byte", change: func(t *testing.T, _, file string) (string, Limits) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			ctestWrite(t, file, bytes.Replace(src, []byte("tool_1\""), []byte("tool_X\""), 1))
			return file, Limits{}
		}},
		{name: "a comment added", change: func(t *testing.T, _, file string) (string, Limits) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			ctestWrite(t, file, append(src, "# the end\n"...))
			return file, Limits{}
		}},
		{name: "the path spelt otherwise", change: func(_ *testing.T, dir, _ string) (string, Limits) {
			return filepath.Join(dir, ".") + "/./gate.toml", Limits{}
		}},
		{name: "the path as a relative one", change: func(t *testing.T, dir, _ string) (string, Limits) {
			t.Chdir(dir)
			return "gate.toml", Limits{}
		}},
		{name: "the same bytes at another path", change: func(t *testing.T, dir, file string) (string, Limits) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			return ctestWrite(t, filepath.Join(dir, "sub", "gate.toml"), src), Limits{}
		}},
		{name: "a limit", change: func(_ *testing.T, _, file string) (string, Limits) {
			return file, Limits{MaxTools: 100}
		}},
		{name: "no limit", change: func(_ *testing.T, _, file string) (string, Limits) {
			return file, Limits{MaxBytes: -1}
		}},
		{name: "another build of the program", change: func(t *testing.T, _, file string) (string, Limits) {
			ctestExe(t, "gate-test-build-2")
			return file, Limits{}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctestExe(t, "gate-test-build-1")
			dir, cache := t.TempDir(), t.TempDir()
			file := ctestWrite(t, filepath.Join(dir, "gate.toml"), genFull(12, 5))
			_, hit, wrote, err := ctestLoad(t, file, Limits{}, cache)
			require.NoError(t, err)
			require.False(t, hit)
			require.True(t, wrote)

			path, lim := tc.change(t, dir, file)
			want := ctestParse(t, path, lim)
			m, hit, _, err := ctestLoad(t, path, lim, cache)
			require.NoError(t, err)
			assert.Equal(t, tc.wantHit, hit)
			assert.Equal(t, want, m)
			// Now it is cached too.
			m, hit, _, err = ctestLoad(t, path, lim, cache)
			require.NoError(t, err)
			assert.True(t, hit)
			assert.Equal(t, want, m)
		})
	}
}

// A relative path is resolved from the working directory: the same
// relative path and bytes in another directory is another manifest (its
// Path and modules are there).
func TestLoadCachedWorkingDirectory(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	cache := t.TempDir()
	a, b := t.TempDir(), t.TempDir()
	src := genFull(6, 9)
	ctestWrite(t, filepath.Join(a, "gate.toml"), src)
	ctestWrite(t, filepath.Join(b, "gate.toml"), src)
	t.Chdir(a)
	ma, hit, _, err := ctestLoad(t, "gate.toml", Limits{}, cache)
	require.NoError(t, err)
	require.False(t, hit)
	t.Chdir(b)
	mb, hit, _, err := ctestLoad(t, "gate.toml", Limits{}, cache)
	require.NoError(t, err)
	assert.False(t, hit, "another directory")
	assert.Equal(t, ctestParse(t, "gate.toml", Limits{}), mb)
	assert.NotEqual(t, ma.Path, mb.Path)
}

// An invalid manifest is never cached: every load reports the same
// Errors as LoadWithLimits, source lines included, and nothing is
// written.
func TestLoadCachedNeverCachesErrors(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	files := append(corpus(t, "invalid"), filepath.Join(t.TempDir(), "missing.toml"), t.TempDir())
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			cache := t.TempDir()
			_, want := LoadWithLimits(file, Limits{MaxTools: 2})
			require.Error(t, want)
			for range 3 {
				m, hit, wrote, err := ctestLoad(t, file, Limits{MaxTools: 2}, cache)
				require.Error(t, err)
				assert.Nil(t, m)
				assert.False(t, hit)
				assert.False(t, wrote)
				assert.Equal(t, fmt.Sprintf("%+v", want), fmt.Sprintf("%+v", err))
				assert.Equal(t, want, err)
			}
			assert.Empty(t, ctestEntries(t, cache))
		})
	}
}

// With no cache directory, or a program that cannot be identified,
// LoadCached is LoadWithLimits and writes nothing.
func TestLoadCachedOff(t *testing.T) {
	file := ctestWrite(t, filepath.Join(t.TempDir(), "gate.toml"), genFull(5, 2))
	want := ctestParse(t, file, Limits{})
	t.Run("no directory", func(t *testing.T) {
		ctestExe(t, "gate-test-build-1")
		t.Chdir(t.TempDir())
		for range 2 {
			m, hit, wrote, err := ctestLoad(t, file, Limits{}, "")
			require.NoError(t, err)
			assert.False(t, hit)
			assert.False(t, wrote)
			assert.Equal(t, want, m)
		}
		names, err := os.ReadDir(".")
		require.NoError(t, err)
		assert.Empty(t, names)
	})
	t.Run("unknown program", func(t *testing.T) {
		ctestExe(t, "")
		cache := filepath.Join(t.TempDir(), "cache")
		for range 2 {
			m, hit, wrote, err := ctestLoad(t, file, Limits{}, cache)
			require.NoError(t, err)
			assert.False(t, hit)
			assert.False(t, wrote)
			assert.Equal(t, want, m)
		}
		assert.NoDirExists(t, cache)
	})
}

// The program's identity is its file's: stable while it runs, and the
// file it names is the one running.
func TestExecutableIdentity(t *testing.T) {
	id, ok := executableIdentity()
	require.True(t, ok)
	exe, err := os.Executable()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(id, exe+"\x00"), id)
	again, ok := executableIdentity()
	require.True(t, ok)
	assert.Equal(t, id, again)
	fi, err := os.Stat(exe)
	require.NoError(t, err)
	assert.Contains(t, id, fmt.Sprintf("\x00%d\x00%d", fi.Size(), fi.ModTime().UnixNano()))
}

// A damaged or suspicious entry is ignored: the load parses (without
// blocking on a FIFO or reading a huge file) and, where the directory is
// sound, the entry is written anew and the next load uses it. A bad
// directory turns the cache off.
func TestLoadCachedBadEntry(t *testing.T) {
	rewrite := func(t *testing.T, entry string, f func(b []byte) []byte) {
		good, err := os.ReadFile(entry)
		require.NoError(t, err)
		bad := f(bytes.Clone(good))
		require.NotEqual(t, good, bad)
		require.NoError(t, os.WriteFile(entry, bad, 0o600))
	}
	cases := []struct {
		name   string
		root   bool // needs root, to give a file away
		spoil  func(t *testing.T, dir, entry string)
		healed bool // the entry is rewritten and used by the load after
	}{
		{name: "truncated by half", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func(b []byte) []byte { return b[:len(b)/2] })
		}},
		{name: "truncated by one byte", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func(b []byte) []byte { return b[:len(b)-1] })
		}},
		{name: "a byte appended", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func(b []byte) []byte { return append(b, 0) })
		}},
		{name: "empty", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func([]byte) []byte { return nil })
		}},
		{name: "garbage", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func([]byte) []byte { return []byte("\x00\xff not an entry") })
		}},
		{name: "one bit flipped in a description", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func(b []byte) []byte {
				i := bytes.Index(b, []byte("Files under"))
				b[i] ^= 1
				return b
			})
		}},
		{name: "the checksum damaged", healed: true, spoil: func(t *testing.T, _, entry string) {
			rewrite(t, entry, func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b })
		}},
		{name: "another manifest's entry, checksum and all", healed: true, spoil: func(t *testing.T, _, entry string) {
			m, err := Parse("other.toml", genFull(3, 4))
			require.NoError(t, err)
			var key [sha256.Size]byte
			key[0] = 1
			rewrite(t, entry, func([]byte) []byte { return encodeEntry(m, key) })
		}},
		{name: "oversized", healed: true, spoil: func(t *testing.T, _, entry string) {
			f, err := os.OpenFile(entry, os.O_WRONLY, 0)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(cacheEntryMax(Limits{})+1)) // sparse
			require.NoError(t, f.Close())
		}},
		{name: "huge", healed: true, spoil: func(t *testing.T, _, entry string) {
			f, err := os.OpenFile(entry, os.O_WRONLY, 0)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(1<<40)) // sparse; reading it would not end well
			require.NoError(t, f.Close())
		}},
		{name: "a FIFO", healed: true, spoil: func(t *testing.T, _, entry string) {
			require.NoError(t, os.Remove(entry))
			require.NoError(t, syscall.Mkfifo(entry, 0o600))
		}},
		{name: "a symlink to a good entry", healed: true, spoil: func(t *testing.T, _, entry string) {
			elsewhere := filepath.Join(t.TempDir(), "planted")
			require.NoError(t, os.Rename(entry, elsewhere))
			require.NoError(t, os.Symlink(elsewhere, entry))
		}},
		{name: "writable by others", healed: true, spoil: func(t *testing.T, _, entry string) {
			require.NoError(t, os.Chmod(entry, 0o666))
		}},
		{name: "owned by another user", root: true, healed: true, spoil: func(t *testing.T, _, entry string) {
			require.NoError(t, os.Chown(entry, 65534, 65534))
		}},
		{name: "a directory at the entry's path", spoil: func(t *testing.T, _, entry string) {
			require.NoError(t, os.Remove(entry))
			ctestWrite(t, filepath.Join(entry, "x"), nil) // so that rename cannot replace it
		}},
		{name: "the directory writable by others", spoil: func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Chmod(dir, 0o777))
		}},
		{name: "the directory owned by another user", root: true, spoil: func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Chown(dir, 65534, 65534))
		}},
		{name: "the directory a symlink", spoil: func(t *testing.T, dir, _ string) {
			moved := filepath.Join(t.TempDir(), "moved")
			require.NoError(t, os.Rename(dir, moved))
			require.NoError(t, os.Symlink(moved, dir))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file away")
			}
			ctestExe(t, "gate-test-build-1")
			cache := t.TempDir()
			file := ctestWrite(t, filepath.Join(t.TempDir(), "gate.toml"), genFull(8, 6))
			want := ctestParse(t, file, Limits{})
			_, _, wrote, err := ctestLoad(t, file, Limits{}, cache)
			require.NoError(t, err)
			require.True(t, wrote)
			entries := ctestEntries(t, cache)
			require.Len(t, entries, 1)

			tc.spoil(t, filepath.Join(cache, cacheSubdir), entries[0])
			done := make(chan struct{})
			go func() {
				defer close(done)
				m, hit, wrote, err := ctestLoad(t, file, Limits{}, cache)
				assert.NoError(t, err)
				assert.False(t, hit, "a spoilt entry must not be used")
				assert.Equal(t, tc.healed, wrote, "rewritten")
				assert.Equal(t, want, m)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("loading blocked on the spoilt entry")
			}
			m, hit, _, err := ctestLoad(t, file, Limits{}, cache)
			require.NoError(t, err)
			assert.Equal(t, tc.healed, hit, "the load after the rewrite")
			assert.Equal(t, want, m)
			if tc.healed {
				fi, err := os.Lstat(entries[0])
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o600), fi.Mode(), "a private regular file again")
			}
		})
	}
}

// The directory and entries are private, and no temporary file is left.
func TestLoadCachedPermissions(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	cache := filepath.Join(t.TempDir(), "new", "cache") // does not exist yet
	file := ctestWrite(t, filepath.Join(t.TempDir(), "gate.toml"), genFull(2, 7))
	_, err := LoadCached(file, Limits{}, cache)
	require.NoError(t, err)
	entries := ctestEntries(t, cache)
	require.Len(t, entries, 1)
	for path, want := range map[string]os.FileMode{
		filepath.Dir(entries[0]): 0o700 | os.ModeDir,
		entries[0]:               0o600,
	} {
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, want, fi.Mode(), path)
	}
	left, err := filepath.Glob(filepath.Join(cache, cacheSubdir, ".tmp-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "temporary files left behind")
}

// Writing an entry past cacheMaxEntries removes the oldest written, and
// temporary files left long ago, and nothing else.
func TestLoadCachedPrune(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	old := cacheMaxEntries
	cacheMaxEntries = 8
	t.Cleanup(func() { cacheMaxEntries = old })
	cache, dir := t.TempDir(), t.TempDir()
	sub := filepath.Join(cache, cacheSubdir)
	base := time.Now().Add(-time.Hour)
	var written []string // entries in the order written
	load := func(i int) {
		file := ctestWrite(t, filepath.Join(dir, fmt.Sprintf("m%d.toml", i)), genFull(1, uint64(i)))
		_, _, wrote, err := ctestLoad(t, file, Limits{}, cache)
		require.NoError(t, err)
		require.True(t, wrote)
		// The one entry that is newer than all the others.
		var newest string
		for _, e := range ctestEntries(t, cache) {
			fi, err := os.Stat(e)
			require.NoError(t, err)
			if fi.ModTime().After(base) {
				newest = e
			}
		}
		require.NotEmpty(t, newest)
		at := base.Add(-time.Duration(100-i) * time.Minute) // in order, all before base
		require.NoError(t, os.Chtimes(newest, at, at))
		written = append(written, newest)
	}
	for i := range 8 {
		load(i)
	}
	require.Len(t, ctestEntries(t, cache), 8)
	stale := ctestWrite(t, filepath.Join(sub, ".tmp-stale"), nil)
	require.NoError(t, os.Chtimes(stale, base.Add(-time.Hour), base.Add(-time.Hour)))
	fresh := ctestWrite(t, filepath.Join(sub, ".tmp-fresh"), nil)
	other := ctestWrite(t, filepath.Join(sub, "README"), nil)
	dirLikeEntry := filepath.Join(sub, strings.Repeat("0", 64))
	require.NoError(t, os.Mkdir(dirLikeEntry, 0o700))
	require.NoError(t, os.Chtimes(dirLikeEntry, base.Add(-48*time.Hour), base.Add(-48*time.Hour)))

	load(8) // 9 entries: down to 6, the newest
	assert.ElementsMatch(t, written[3:], ctestEntries(t, cache))
	assert.NoFileExists(t, stale)
	assert.FileExists(t, fresh)
	assert.FileExists(t, other)
	assert.DirExists(t, dirLikeEntry, "only regular files are pruned")
}

// ctestSplit returns the sections of an entry.
func ctestSplit(t *testing.T, b []byte) (strs, params, st []byte) {
	t.Helper()
	rest := b[len(cacheMagic)+sha256.Size : len(b)-cacheSumSize]
	var lens [3]uint64
	for i := range lens {
		v, n := binary.Uvarint(rest)
		require.Positive(t, n)
		lens[i], rest = v, rest[n:]
	}
	require.EqualValues(t, len(rest), lens[0]+lens[1]+lens[2])
	return rest[:lens[0]], rest[lens[0] : lens[0]+lens[1]], rest[lens[0]+lens[1]:]
}

// ctestSeal makes an entry of sections, with a valid header and
// checksum, whatever the sections hold.
func ctestSeal(key [sha256.Size]byte, payload []byte) []byte {
	b := append([]byte(cacheMagic), key[:]...)
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func ctestPayload(strs, params, st []byte) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(strs)))
	b = binary.AppendUvarint(b, uint64(len(params)))
	b = binary.AppendUvarint(b, uint64(len(st)))
	return append(append(append(b, strs...), params...), st...)
}

// The decoder refuses every entry that is not exactly what the encoder
// writes for the key and limits, even with a valid checksum.
func TestManifestCacheDecodeRefuses(t *testing.T) {
	key := [sha256.Size]byte{1, 2, 3}
	src := genFull(10, 8)
	m, err := Parse("gate.toml", src)
	require.NoError(t, err)
	good := encodeEntry(m, key)
	got, err := decodeEntry(good, key, Limits{})
	require.NoError(t, err)
	require.Equal(t, m, got)

	// Every truncation, and every single flipped byte.
	for n := range len(good) {
		_, err := decodeEntry(good[:n], key, Limits{})
		require.Error(t, err, "truncated to %d", n)
	}
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x10
		_, err := decodeEntry(b, key, Limits{})
		require.Error(t, err, "byte %d flipped", i)
	}

	strs, params, st := ctestSplit(t, good)
	small := &Manifest{
		Path:  "/p",
		Tools: []Tool{{Name: "t", Probe: &Probe{Config: map[string]string{"a": "x", "b": "y"}}}},
	}
	sStrs, sParams, sSt := ctestSplit(t, encodeEntry(small, key))
	require.Contains(t, string(sStrs), "axby")
	// A manifest with only a Path: its length; the runtime's pointers
	// (ttl, grace, budget, memory, cache_dir), python, concurrency,
	// max_runs and policy; the skills' paths (nil), enforcement,
	// allowed_tools_required, follow_outside_links and position (the same
	// file, line, col); then the tools and servers (nil).
	tiny := []byte{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	tm, err := decodeEntry(ctestSeal(key, ctestPayload([]byte("/p"), nil, append(bytes.Clone(tiny), 0, 0))), key, Limits{})
	require.NoError(t, err)
	require.Equal(t, &Manifest{Path: "/p"}, tm)
	// Two positions in one file: the second says "the same file". (The
	// skills' position names it; the server: name, description, probe,
	// policy, upstream, position.)
	posSt := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0}
	pm, err := decodeEntry(ctestSeal(key, ctestPayload([]byte("f"), nil, posSt)), key, Limits{})
	require.NoError(t, err)
	require.Equal(t, &Manifest{Skills: Skills{Pos: Position{File: "f"}}, Servers: []Server{{Pos: Position{File: "f"}}}}, pm)
	for _, tc := range []struct {
		name    string
		payload []byte
		lim     Limits
	}{
		{name: "a file named again", payload: ctestPayload([]byte("ff"), nil, append(bytes.Clone(posSt[:25]), 1, 1, 0, 0))},
		{name: "another key", payload: ctestPayload(strs, params, st)}, // sealed below with another key
		{name: "tighter limits", payload: ctestPayload(strs, params, st), lim: Limits{MaxTools: 9}},
		{name: "a shorter description limit", payload: ctestPayload(strs, params, st), lim: Limits{MaxDescription: 10}},
		{name: "a shorter array limit", payload: ctestPayload(strs, params, st), lim: Limits{MaxArrayLen: 1}},
		{name: "a longer varint", payload: ctestPayload(strs, params, append([]byte{st[0] | 0x80, 0}, st[1:]...))},
		{name: "a byte after the structure", payload: ctestPayload(strs, params, append(bytes.Clone(st), 0))},
		{name: "a byte after the strings", payload: ctestPayload(append(bytes.Clone(strs), 'x'), params, st)},
		{name: "a byte after the parameters", payload: ctestPayload(strs, append(bytes.Clone(params), 'x'), st)},
		{name: "a string cut short", payload: ctestPayload(strs[:len(strs)-1], params, st)},
		{name: "config keys out of order", payload: ctestPayload(bytes.Replace(sStrs, []byte("axby"), []byte("bxay"), 1), sParams, sSt)},
		{name: "config keys twice", payload: ctestPayload(bytes.Replace(sStrs, []byte("axby"), []byte("axay"), 1), sParams, sSt)},
		{name: "a pointer's byte neither 0 nor 1", payload: ctestPayload(sStrs, sParams, ctestFlip(t, sSt, 1+0, 0x40))},
		{name: "a length past everything", payload: append(binary.AppendUvarint(nil, 1<<62), 0, 0)},
		{name: "a boolean neither 0 nor 1", payload: ctestPayload([]byte("/p"), nil, append(ctestSet(tiny, 13, 2), 0, 0))},
		{name: "a pointer's byte 2", payload: ctestPayload([]byte("/p"), nil, append(ctestSet(tiny, 12, 2), 0, 0))},
		{name: "a zero policy", payload: ctestPayload([]byte("/p"), nil, append(append(ctestSet(tiny[:10], 9, 1), 0, 0, 0, 0), append(bytes.Clone(tiny[10:]), 0, 0)...))},
		{name: "a huge count", payload: ctestPayload([]byte("/p"), nil, append(bytes.Clone(tiny), 0xff, 0xff, 0xff, 0xff, 0x0f, 0))},
		{name: "a count past the bytes left", payload: ctestPayload([]byte("/p"), nil, append(bytes.Clone(tiny), 4, 0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := key
			if tc.name == "another key" {
				k[0]++
			}
			_, err := decodeEntry(ctestSeal(k, tc.payload), key, tc.lim)
			assert.Error(t, err)
		})
	}
	// The sealing is right: the unchanged payload decodes.
	_, err = decodeEntry(ctestSeal(key, ctestPayload(sStrs, sParams, sSt)), key, Limits{})
	require.NoError(t, err)
}

// ctestSet returns b with byte i set to v.
func ctestSet(b []byte, i int, v byte) []byte {
	b = bytes.Clone(b)
	b[i] = v
	return b
}

// ctestFlip returns st with mask xored into byte i, failing if that byte
// is not 0 (Runtime's TTL pointer, the byte after the Path's length).
func ctestFlip(t *testing.T, st []byte, i int, mask byte) []byte {
	t.Helper()
	b := bytes.Clone(st)
	require.Zero(t, b[i], "the TTL pointer of the small manifest")
	b[i] ^= mask
	return b
}

// The key and the name change with every input they cover, the bytes
// included when their length stays the same; the name of bytes whose CRC
// collides is the same, and the key tells them apart.
func TestCacheKey(t *testing.T) {
	ctestExe(t, "gate-test-build-1")
	src := []byte("[[tools]]\nname = \"a\"\n")
	meta, ok := cacheMeta("gate.toml", Limits{})
	require.True(t, ok)
	key, name := cacheFullKey(meta, src), cacheName(meta, src)
	assert.NotEqual(t, key, name)
	for _, tc := range []struct {
		name string
		meta func(t *testing.T) []byte
		src  []byte
	}{
		{name: "a byte", src: []byte("[[tools]]\nname = \"b\"\n")},
		{name: "a byte appended", src: append(bytes.Clone(src), ' ')},
		{name: "the path", meta: func(t *testing.T) []byte { m, _ := cacheMeta("./gate.toml", Limits{}); return m }},
		{name: "the directory", meta: func(t *testing.T) []byte { t.Chdir(t.TempDir()); m, _ := cacheMeta("gate.toml", Limits{}); return m }},
		{name: "a limit", meta: func(t *testing.T) []byte { m, _ := cacheMeta("gate.toml", Limits{MaxArrayLen: 5}); return m }},
		{name: "the program", meta: func(t *testing.T) []byte {
			ctestExe(t, "gate-test-build-2")
			m, _ := cacheMeta("gate.toml", Limits{})
			return m
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, s := meta, src
			if tc.meta != nil {
				m = tc.meta(t)
				require.NotNil(t, m)
			}
			if tc.src != nil {
				s = tc.src
			}
			assert.NotEqual(t, key, cacheFullKey(m, s))
			assert.NotEqual(t, name, cacheName(m, s))
		})
	}
	// Four bytes chosen to give the CRC of src: same length, same name,
	// another key.
	padded := append(bytes.Clone(src), "#abc"...)
	forged := ctestForgeCRC(t, padded, []byte("[[tools]]\nname = \"z\"\n"))
	require.NotEqual(t, padded, forged)
	assert.Equal(t, cacheName(meta, padded), cacheName(meta, forged))
	assert.NotEqual(t, cacheFullKey(meta, padded), cacheFullKey(meta, forged))

	// End to end: the forged file finds the entry of the first, whose key
	// is not its own, and is parsed.
	cache := t.TempDir()
	file := ctestWrite(t, filepath.Join(t.TempDir(), "gate.toml"), padded)
	_, _, wrote, err := ctestLoad(t, file, Limits{}, cache)
	require.NoError(t, err)
	require.True(t, wrote)
	ctestWrite(t, file, forged)
	want, wantErr := LoadWithLimits(file, Limits{})
	m, hit, _, err := ctestLoad(t, file, Limits{}, cache)
	assert.False(t, hit)
	assert.Equal(t, wantErr, err)
	assert.Equal(t, want, m)
}

// ctestForgeCRC returns prefix followed by the four bytes that give it
// the CRC-32C of want, which is 4 bytes longer than prefix: the CRC of a
// message of fixed length is affine in its bits, so the 32 bits of the
// suffix are solved for by Gaussian elimination over GF(2).
func ctestForgeCRC(t *testing.T, want, prefix []byte) []byte {
	t.Helper()
	require.Len(t, want, len(prefix)+4)
	crc := func(suffix uint32) uint32 {
		return crc32.Checksum(binary.LittleEndian.AppendUint32(bytes.Clone(prefix), suffix), castagnoli)
	}
	target := crc32.Checksum(want, castagnoli) ^ crc(0)
	var rows [32]uint64 // the effect of suffix bit i, and 1<<(32+i)
	for i := range 32 {
		rows[i] = uint64(crc(1<<i)^crc(0)) | 1<<(32+i)
	}
	for bit := range 32 {
		p := -1
		for r := bit; r < 32; r++ {
			if rows[r]>>bit&1 == 1 {
				p = r
				break
			}
		}
		require.NotEqual(t, -1, p, "singular")
		rows[bit], rows[p] = rows[p], rows[bit]
		for r := range 32 {
			if r != bit && rows[r]>>bit&1 == 1 {
				rows[r] ^= rows[bit]
			}
		}
	}
	var x uint32
	for bit := range 32 {
		if target>>bit&1 == 1 {
			x ^= uint32(rows[bit] >> 32)
		}
	}
	out := binary.LittleEndian.AppendUint32(bytes.Clone(prefix), x)
	require.Equal(t, crc32.Checksum(want, castagnoli), crc32.Checksum(out, castagnoli))
	return out
}

// The entry of a manifest with ABI v2's probe keys and a server's
// transport, breaker, headers and oauth, byte for byte, and its JSON: the format is pinned, so that a
// change to it is a decision.
// Should this fail, the format changed: bump cacheFormat, cacheMagic and
// cacheSubdir, and write the new bytes here. (v4: each secret with its
// destinations, in JSON an object; v5: a tool's toolset; v6: the
// availability policy; v7: a server's breaker; v8: an upstream's
// transport, headers, oauth and pin; v9: the codec built from the types; v10: runtime.max_runs.)
func TestManifestCacheEntryFormat(t *testing.T) {
	const src = `[[tools]]
name = "short"
probe = "env:A"
toolset = "web"
failure_threshold = 2
hold_down = "1m"

[[tools]]
name = "v2"
[tools.probe]
module = "p.wasm"
tls_ca = "ca.pem"
proxy = true
budget = "5ms"
grants = { env = ["E"], http = ["https://h/v1/"], secrets = { S = ["h:1", "https://h/v1/"], R = ["tls:h:2"] }, insecure = ["h:2"] }

[[tools]]
name = "empty"
probe = { module = "q.wasm", grants = { http = [], secrets = {} } }

[[tools]]
name = "std"
probe = { standard = "tcp:h:1", tls_ca = "/ca.pem" }

[[servers]]
name = "up"
url = "http://h/mcp"
transport = "sse"
breaker = { failures = 3, cooldown = "10s" }
headers = { "X-K" = "${secret:K}" }
oauth = { token_url = "https://a/t", client_id = "c", client_secret = "${secret:S}", scopes = ["x"] }
`
	const entry = "" +
		"676174654d43000a070000000000000000000000000000000000000000000000" +
		"0000000000000000c30100b3012f6162732f676174652e746f6d6c73686f7274" +
		"776562656e763a412f6162732f676174652e746f6d6c76322f6162732f702e77" +
		"61736d4568747470733a2f2f682f76312f52746c733a683a3253683a31687474" +
		"70733a2f2f682f76312f683a322f6162732f63612e70656d656d7074792f6162" +
		"732f712e7761736d7374647463703a683a312f63612e70656d7570687474703a" +
		"2f2f682f6d6370737365582d4b247b7365637265743a4b7d68747470733a2f2f" +
		"612f7463247b7365637265743a537d780e000000000000000000000000000000" +
		"00050500030001050000000000000000010e0602010400000180e0ba84bf0300" +
		"02020200000001000b00000201000001020d030102070103030d02030b010180" +
		"ade204001410000010020500000001000b000000000001010100000000002602" +
		"0000220203000000010700000000000001000000070000002e0200002a020202" +
		"000000010000000c0302030b010b010b0201000001010600018090dfc04a0000" +
		"003202f35992db"
	const asJSON = `{"path":"/abs/gate.toml","runtime":{},"skills":{"paths":null,"pos":{"file":"","line":0,"col":0}},"tools":[{"name":"short","toolset":"web","probe":{"standard":"env:A","pos":{"file":"/abs/gate.toml","line":3,"col":1}},"policy":{"failure_threshold":2,"hold_down":60000000000},"pos":{"file":"/abs/gate.toml","line":1,"col":1}},{"name":"v2","probe":{"module":"/abs/p.wasm","env":["E"],"http":["https://h/v1/"],"secrets":{"R":["tls:h:2"],"S":["h:1","https://h/v1/"]},"insecure":["h:2"],"tls_ca":"/abs/ca.pem","proxy":true,"budget":5000000,"pos":{"file":"/abs/gate.toml","line":10,"col":8}},"pos":{"file":"/abs/gate.toml","line":8,"col":1}},{"name":"empty","probe":{"module":"/abs/q.wasm","pos":{"file":"/abs/gate.toml","line":19,"col":1}},"pos":{"file":"/abs/gate.toml","line":17,"col":1}},{"name":"std","probe":{"standard":"tcp:h:1","tls_ca":"/ca.pem","pos":{"file":"/abs/gate.toml","line":23,"col":1}},"pos":{"file":"/abs/gate.toml","line":21,"col":1}}],"servers":[{"name":"up","upstream":{"url":"http://h/mcp","transport":"sse","headers":[{"name":"X-K","value":"${secret:K}"}],"oauth":{"token_url":"https://a/t","client_id":"c","client_secret":"${secret:S}","scopes":["x"]},"breaker":{"failures":3,"cooldown":10000000000}},"pos":{"file":"/abs/gate.toml","line":25,"col":1}}]}`
	m, err := Parse("/abs/gate.toml", []byte(src))
	require.NoError(t, err)
	key := [sha256.Size]byte{7}
	assert.Equal(t, entry, hex.EncodeToString(encodeEntry(m, key)))
	b, err := json.Marshal(m)
	require.NoError(t, err)
	assert.Equal(t, asJSON, string(b))

	assert.Nil(t, m.Tools[0].Probe.Net)
	assert.Equal(t, &ProbeNet{HTTP: []string{}, Secrets: map[string][]string{}}, m.Tools[2].Probe.Net)
	raw, err := hex.DecodeString(entry)
	require.NoError(t, err)
	got, err := decodeEntry(raw, key, Limits{})
	require.NoError(t, err)
	require.True(t, reflect.DeepEqual(m, got), "%#v\n%#v", m, got)
}
