package skills

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/skillhost"
)

// Benchmarks over a generated catalog of benchSkills skills with varied
// requirements: tools from a pool of 200, servers from 20, environment
// variables from 50 (half of them set), binaries, fallbacks, toolsets and
// OS lists, in all the dialects.
//
//	go test -run XXX -bench . -benchmem ./skills

const benchSkills = 3000

var (
	benchTools   = poolOf("tool", 200)
	benchServers = poolOf("mcp:server", 20)
	benchEnv     = poolOf("ENV_VAR", 50)
	benchBins    = poolOf("bin", 30)
)

func poolOf(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// benchHost has every other variable and binary.
var benchHost = func() skillhost.Map {
	h := skillhost.Map{Env: map[string]string{}, GOOS: "linux"}
	for i, e := range benchEnv {
		if i%2 == 0 {
			h.Env[e] = "set"
		}
	}
	for i, b := range benchBins {
		if i%2 == 0 {
			h.Bins = append(h.Bins, b)
		}
	}
	return h
}()

// benchAvailable is most tools and servers.
func benchAvailable() (tools, servers []string) {
	for i, t := range benchTools {
		if i%10 != 0 {
			tools = append(tools, t)
		}
	}
	for i, s := range benchServers {
		if i%4 != 0 {
			servers = append(servers, s)
		}
	}
	return tools, servers
}

// writeBenchSkills writes n generated skills under root.
func writeBenchSkills(tb testing.TB, root string, n int) {
	tb.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(pool []string, k int) string {
		var out []string
		for range k {
			out = append(out, pool[r.IntN(len(pool))])
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	for i := range n {
		name := fmt.Sprintf("skill-%04d", i)
		lines := []string{"requires_tools: " + pick(benchTools, r.IntN(4))}
		if r.IntN(3) == 0 {
			lines = append(lines, "requires_servers: "+pick(benchServers, 1))
		}
		if r.IntN(3) == 0 {
			lines = append(lines, "requires_env: "+pick(benchEnv, 1+r.IntN(2)))
		}
		switch r.IntN(10) {
		case 0:
			lines = append(lines, "fallback_for_tools: "+pick(benchTools, 1))
		case 1:
			lines = append(lines, "metadata:", "  openclaw:", "    requires:", "      bins: "+pick(benchBins, 2), "      anyBins: "+pick(benchBins, 2))
		case 2:
			lines = append(lines, "metadata:", "  hermes:", "    requires_toolsets: "+pick(benchTools, 1), "    fallback_for_toolsets: "+pick(benchServers, 1))
		case 3:
			lines = append(lines, "platforms: [macos]")
		case 4:
			lines = append(lines, "allowed-tools: Bash(git add:*) Read")
		}
		desc := fmt.Sprintf("Generated skill %d does <things> & more", i)
		if i%50 == 0 {
			desc = fmt.Sprintf("Generated skill %d: one in 50 has an unquoted colon", i)
		}
		text := skillText(name, desc, lines...) +
			"\n# " + name + "\n" + strings.Repeat("Instructions for the model.\n", 20)
		writeSkill(tb, root, filepath.Join(fmt.Sprintf("group-%02d", i%30), name), text)
	}
}

var benchRoot string

func benchCatalogRoot(b *testing.B) string {
	b.Helper()
	if benchRoot == "" {
		// One tree for every benchmark of the run; it is small (≈ 6 MB).
		dir, err := filepathTemp()
		if err != nil {
			b.Fatal(err)
		}
		writeBenchSkills(b, dir, benchSkills)
		benchRoot = dir
	}
	return benchRoot
}

func newBenchManager(b *testing.B, level Level) *Manager {
	b.Helper()
	cat := Discover([]string{benchCatalogRoot(b)}, DiscoverOptions{})
	if len(cat.Skills) != benchSkills {
		b.Fatalf("%d skills, %d reports", len(cat.Skills), len(cat.Reports))
	}
	m := NewManager(cat, ManagerOptions{Level: level, Host: benchHost})
	tools, servers := benchAvailable()
	m.SetAvailable(tools, servers)
	return m
}

// BenchmarkDiscoverValidate: discover and parse 3,000 skills, then validate
// every one and build the prompt: a cold start.
func BenchmarkDiscoverValidate(b *testing.B) {
	root := benchCatalogRoot(b)
	tools, servers := benchAvailable()
	b.ResetTimer()
	for b.Loop() {
		cat := Discover([]string{root}, DiscoverOptions{})
		m := NewManager(cat, ManagerOptions{Level: LevelStrict, Host: benchHost})
		m.SetAvailable(tools, servers)
		m.Diagnostics()
		m.Prompt()
	}
}

// BenchmarkDiscover: discovery and parsing alone.
func BenchmarkDiscover(b *testing.B) {
	root := benchCatalogRoot(b)
	b.ResetTimer()
	for b.Loop() {
		Discover([]string{root}, DiscoverOptions{})
	}
}

// BenchmarkRefreshUnchanged: re-stat 3,000 files, re-parse none.
func BenchmarkRefreshUnchanged(b *testing.B) {
	m := newBenchManager(b, LevelStrict)
	b.ResetTimer()
	for b.Loop() {
		if !m.Refresh().Empty() {
			b.Fatal("something changed")
		}
	}
}

// BenchmarkFullRevalidation: drop every result, validate all 3,000 skills
// and rebuild the prompt: what every availability change would cost
// without the reverse index.
func BenchmarkFullRevalidation(b *testing.B) {
	m := newBenchManager(b, LevelStrict)
	m.Prompt()
	b.ResetTimer()
	for b.Loop() {
		m.Clear()
		m.Prompt()
	}
}

// BenchmarkPromptAfterFlip: one tool disappears or comes back
// (SetAvailable with the full lists, one name changed), then the prompt.
// Only the skills naming that tool are validated again.
func BenchmarkPromptAfterFlip(b *testing.B) {
	for _, tc := range []struct {
		name string
		tool string
	}{
		{"used", benchTools[7]},         // named by 17 of the 3,000 skills
		{"unused", "nobody-needs-this"}, // the prompt stays cached
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := newBenchManager(b, LevelStrict)
			tools, servers := benchAvailable()
			with := append([]string{}, tools...)
			without := make([]string, 0, len(tools))
			for _, t := range tools {
				if t != tc.tool {
					without = append(without, t)
				}
			}
			if len(without) == len(with) {
				with = append(with, tc.tool)
			}
			m.Prompt()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					m.SetAvailable(without, servers)
				} else {
					m.SetAvailable(with, servers)
				}
				i++
				m.Prompt()
			}
		})
	}
}

// BenchmarkPromptCached: Prompt with nothing changed.
func BenchmarkPromptCached(b *testing.B) {
	m := newBenchManager(b, LevelStrict)
	m.Prompt()
	b.ResetTimer()
	for b.Loop() {
		m.Prompt()
	}
}

// filepathTemp makes a directory for the generated tree, shared by the
// benchmarks of one run and removed by TestMain.
func filepathTemp() (string, error) { return os.MkdirTemp("", "gate-skills-bench-") }

func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		_ = os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}
