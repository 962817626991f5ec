package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

// managerOf makes a Manager over skills given as name -> frontmatter lines.
func managerOf(t testing.TB, level Level, skills ...*Skill) *Manager {
	t.Helper()
	return NewManager(newCatalog(skills...), ManagerOptions{Level: level, Host: skillhost.Map{GOOS: "linux"}})
}

func skillOf(t testing.TB, name string, lines ...string) *Skill {
	t.Helper()
	return mustParse(t, name, skillText(name, "The "+name+" skill", lines...))
}

func offeredNames(m *Manager) []string {
	var out []string
	for _, s := range m.Offered() {
		out = append(out, s.Name)
	}
	return out
}

func TestManagerAvailableSkills(t *testing.T) { // test_get_available_skills, test_to_prompt
	m := managerOf(t, LevelWarn, skillOf(t, "test-skill"))
	assert.Equal(t, []string{"test-skill"}, offeredNames(m))
	p := m.Prompt()
	assert.Contains(t, p, "<available_skills>")
	assert.Contains(t, p, "test-skill")
	assert.Contains(t, p, "The test-skill skill")
}

// TestFallbackTable is the behaviour table for web-via-terminal
// (requires_tools: [terminal], fallback_for_tools: [web_search]) in
// PraisonAI's Skill Capability Gates documentation, row by row, at every
// level: a fallback's own requirements are enforced whatever the level.
// PraisonAI's four test_fallback_skill_* tests (test_manager.py) check
// cases of the same table.
func TestFallbackTable(t *testing.T) {
	web := func(t *testing.T) *Skill {
		return skillOf(t, "web-via-terminal", "requires_tools: [terminal]", "fallback_for_tools: [web_search]")
	}
	for _, row := range []struct {
		webSearch, terminal, offered bool
	}{
		{true, true, false},   // hidden: a capable agent does not need the fallback
		{false, true, true},   // the fallback fires
		{false, false, false}, // its own requires_tools: [terminal] is unmet
		{true, false, false},  // the capability is already present
	} {
		for _, level := range []Level{LevelDisabled, LevelTelemetry, LevelWarn, LevelStrict} {
			t.Run(fmt.Sprintf("web_search=%v,terminal=%v/%s", row.webSearch, row.terminal, level), func(t *testing.T) {
				var tools []string
				if row.webSearch {
					tools = append(tools, "web_search")
				}
				if row.terminal {
					tools = append(tools, "terminal")
				}
				m := managerOf(t, level, web(t))
				m.SetAvailable(tools, nil)
				assert.Equal(t, row.offered, len(m.Offered()) == 1)
				assert.Equal(t, row.offered, m.Prompt() != "")
			})
		}
	}
}

func TestFallbackForServers(t *testing.T) {
	notes := skillOf(t, "local-notes", "requires_tools: [filesystem_read]", `fallback_for_servers: ["mcp:notion"]`)
	m := managerOf(t, LevelWarn, notes)
	m.SetAvailable([]string{"filesystem_read"}, nil)
	assert.Equal(t, []string{"local-notes"}, offeredNames(m))
	m.SetAvailable([]string{"filesystem_read"}, []string{"mcp:notion"})
	assert.Empty(t, offeredNames(m), "hidden while the server it stands in for is available")
	m.SetAvailable(nil, nil)
	assert.Empty(t, offeredNames(m), "hidden while its own tool is missing")
}

func TestFallbackAnyTargetHides(t *testing.T) {
	s := skillOf(t, "fb", "fallback_for_tools: [web_search, web]", "fallback_for_servers: [mcp:web]",
		"metadata:", "  hermes: {fallback_for_toolsets: [browser]}")
	for _, tc := range []struct {
		tools, servers []string
		offered        bool
	}{
		{nil, nil, true},
		{[]string{"web"}, nil, false},
		{[]string{"web_search"}, nil, false},
		{nil, []string{"mcp:web"}, false},
		{[]string{"browser"}, nil, false}, // a tool with no toolset key is in its own name's
		{nil, []string{"browser"}, true},  // a server is in no toolset
		{[]string{"other"}, []string{"x"}, true},
	} {
		m := managerOf(t, LevelDisabled, s)
		m.SetAvailable(tc.tools, tc.servers)
		assert.Equal(t, tc.offered, len(m.Offered()) == 1, "%v %v", tc.tools, tc.servers)
	}
}

func TestFallbackMissingEnvOnly(t *testing.T) {
	s := skillOf(t, "fb", "requires_env: [NOPE]", "fallback_for_tools: [web_search]")
	for level, offered := range map[Level]bool{LevelDisabled: true, LevelTelemetry: true, LevelWarn: true, LevelStrict: false} {
		m := managerOf(t, level, s)
		assert.Equal(t, offered, len(m.Offered()) == 1, level.String())
		if offered {
			r, err := m.Result("fb", false)
			require.NoError(t, err)
			assert.Equal(t, StateDegraded, r.State)
		}
	}
}

func TestFallbackOwnToolsetUnmet(t *testing.T) {
	s := skillOf(t, "fb", "metadata:", "  hermes: {requires_toolsets: [terminal], fallback_for_toolsets: [web]}")
	m := managerOf(t, LevelWarn, s)
	assert.Empty(t, offeredNames(m), "missing toolsets count as critical")
	m.SetAvailable([]string{"terminal"}, nil)
	assert.Equal(t, []string{"fb"}, offeredNames(m))
}

// TestOfferedByLevel: outside strict, non-fallback skills are offered
// whatever their state; under strict, UNAVAILABLE ones are not; an
// unsupported OS hides a skill at every level.
func TestOfferedByLevel(t *testing.T) {
	skills := []*Skill{
		skillOf(t, "plain"),
		skillOf(t, "needs-tool", "requires_tools: [missing]"),
		skillOf(t, "needs-server", "requires_servers: [mcp:missing]"),
		skillOf(t, "needs-env", "requires_env: [MISSING]"),
		skillOf(t, "needs-bin", "metadata: {openclaw: {requires: {bins: [missing]}}}"),
		skillOf(t, "mac-only", "platforms: [macos]"),
		skillOf(t, "linux-ok", "platforms: [linux]"),
		skillOf(t, "hidden", "disable-model-invocation: true"),
	}
	all := []string{"plain", "needs-tool", "needs-server", "needs-env", "needs-bin", "linux-ok"}
	for level, want := range map[Level][]string{
		LevelDisabled:  all,
		LevelTelemetry: all,
		LevelWarn:      all,
		LevelStrict:    {"plain", "linux-ok"},
	} {
		assert.Equal(t, want, offeredNames(managerOf(t, level, skills...)), level.String())
	}
}

func TestDisableModelInvocation(t *testing.T) { // test_disable_model_invocation_hides_from_available
	m := managerOf(t, LevelWarn, skillOf(t, "visible"), skillOf(t, "hidden", "disable-model-invocation: true"))
	assert.Equal(t, []string{"visible"}, offeredNames(m))
	s, ok := m.Skill("hidden")
	require.True(t, ok, "still there to be invoked by name")
	assert.True(t, s.DisableModelInvocation)
	assert.NotContains(t, m.Prompt(), "hidden")
}

func TestManagerPromptEmpty(t *testing.T) {
	assert.Equal(t, "", managerOf(t, LevelWarn).Prompt(), "fix: no empty block")
	m := managerOf(t, LevelStrict, skillOf(t, "x", "requires_tools: [t]"))
	assert.Equal(t, "", m.Prompt())
	m.SetAvailable([]string{"t"}, nil)
	assert.Contains(t, m.Prompt(), "<name>x</name>")
}

func TestManagerPromptEscapes(t *testing.T) {
	s := mustParse(t, "esc", "---\nname: esc\ndescription: 'Test <script> & \"quotes\" handling'\n---\n")
	p := managerOf(t, LevelWarn, s).Prompt()
	assert.NotContains(t, p, "<script>")
	assert.Contains(t, p, "&lt;script&gt;")
	assert.Contains(t, p, "&amp;")
	assert.Contains(t, p, "<description>Test &lt;script&gt; &amp; &quot;quotes&quot; handling</description>")
}

// TestServersReadLive: a change of servers shows at once, without Clear
// (PraisonAI's test_available_servers_read_from_mcp_registry and
// test_available_servers_read_live_not_cached).
func TestServersReadLive(t *testing.T) {
	m := managerOf(t, LevelStrict, skillOf(t, "fs", "requires_servers: [filesystem]"))
	r, err := m.Result("fs", false)
	require.NoError(t, err)
	assert.Equal(t, StateUnavailable, r.State)
	assert.Empty(t, m.availability().Servers)

	m.SetAvailable(nil, []string{"filesystem"})
	assert.True(t, m.availability().Servers.Has("filesystem"))
	r, err = m.Result("fs", false)
	require.NoError(t, err)
	assert.Equal(t, StateActive, r.State)
	assert.Equal(t, []string{"filesystem"}, r.SatisfiedServers)
	assert.Equal(t, []string{"fs"}, offeredNames(m))
}

func TestManagerResult(t *testing.T) {
	rec, logger := newRecorder()
	host := skillhost.Map{Env: map[string]string{}, GOOS: "linux"}
	m := NewManager(newCatalog(skillOf(t, "e", "requires_env: [TOKEN]")), ManagerOptions{Host: host, Logger: logger})

	_, err := m.Result("nope", false)
	assert.EqualError(t, err, `skill "nope" not found`)

	assert.Equal(t, []Result{newResult("e", StateUnknown)}, m.Cached(), "not validated yet")

	r, err := m.Result("e", false)
	require.NoError(t, err)
	assert.Equal(t, StateDegraded, r.State)
	assert.Equal(t, StateDegraded, m.Cached()[0].State)

	host.Env["TOKEN"] = "set"
	r, _ = m.Result("e", false)
	assert.Equal(t, StateDegraded, r.State, "cached: the environment is read when validating")
	assert.Equal(t, 1, len(rec.Lines()))

	r, _ = m.Result("e", true)
	assert.Equal(t, StateActive, r.State, "force_refresh validates again")
	assert.Equal(t, 2, len(rec.Lines()))

	host.Env["TOKEN"] = ""
	m.Clear()
	assert.Equal(t, StateUnknown, m.Cached()[0].State)
	r, _ = m.Result("e", false)
	assert.Equal(t, StateDegraded, r.State, "Clear drops cached results")
	assert.Len(t, m.Catalog().Skills, 1, "Clear keeps the skills")
}

// TestSetAvailableInvalidatesOnlyDependents counts validations through the
// log: each one logs a line.
func TestSetAvailableInvalidatesOnlyDependents(t *testing.T) {
	rec, logger := newRecorder()
	m := NewManager(newCatalog(
		skillOf(t, "a", "requires_tools: [tool-a]"),
		skillOf(t, "b", "requires_tools: [tool-b]"),
		skillOf(t, "s", "requires_servers: [srv]"),
		skillOf(t, "ts", "metadata: {hermes: {requires_toolsets: [web]}}"),
		skillOf(t, "fb", "requires_tools: [terminal]", "fallback_for_tools: [web_search]"),
		skillOf(t, "plain", "requires_env: [X]"),
	), ManagerOptions{Level: LevelStrict, Host: skillhost.Map{GOOS: "linux"}, Logger: logger, Toolsets: map[string]string{"web_fetch": "web"}})
	m.SetAvailable([]string{"tool-a", "tool-b", "terminal"}, []string{"srv"})
	m.Diagnostics()
	require.Equal(t, 6, len(rec.Lines()))
	before := m.Prompt()

	validated := func() []string {
		start := len(rec.Lines())
		m.Diagnostics()
		var names []string
		for _, l := range rec.Lines()[start:] {
			names = append(names, strings.SplitN(l, "'", 3)[1])
		}
		return names
	}

	m.SetAvailable([]string{"tool-b", "terminal"}, []string{"srv"}) // tool-a went away
	assert.Equal(t, []string{"a"}, validated())
	m.SetAvailable([]string{"tool-b", "terminal", "unrelated"}, []string{"srv"})
	assert.Empty(t, validated(), "nobody needs unrelated")
	m.SetAvailable([]string{"tool-b", "terminal", "unrelated"}, nil) // srv went away
	assert.Equal(t, []string{"s"}, validated())
	m.SetAvailable([]string{"tool-b", "terminal", "unrelated"}, []string{"web"})
	assert.Empty(t, validated(), "a server named like a toolset is no toolset")
	m.SetAvailable([]string{"tool-b", "terminal", "unrelated", "web_fetch"}, nil) // a tool of the web toolset
	assert.Equal(t, []string{"ts"}, validated())
	m.SetAvailable([]string{"tool-b", "terminal", "unrelated", "web_fetch", "web_search"}, nil)
	assert.Empty(t, validated(), "a fallback target changes the offer, not the result")
	assert.NotContains(t, m.Prompt(), "<name>fb</name>")
	m.SetAvailable([]string{"tool-b", "terminal", "unrelated", "web_fetch"}, nil)
	assert.Contains(t, m.Prompt(), "<name>fb</name>")

	m.SetAvailable([]string{"tool-a", "tool-b", "terminal"}, []string{"srv"})
	assert.Equal(t, before, m.Prompt(), "back where it started")
}

func TestManagerSkillsByState(t *testing.T) {
	var skills []*Skill
	for i := range 8 {
		skills = append(skills, skillOf(t, fmt.Sprintf("s%d", i), "requires_tools: [a, b]", "requires_servers: [c]", "requires_env: [D]"))
	}
	skills = append(skills, skillOf(t, "ok"), skillOf(t, "mac", "platforms: macos"))
	m := managerOf(t, LevelWarn, skills...)
	assert.Equal(t, []string{"ok"}, names(m.SkillsByState(StateActive)))
	assert.Equal(t, []string{"mac"}, names(m.SkillsByState(StateUnavailable)))
	assert.Len(t, m.SkillsByState(StateDegraded), 8)
	assert.Empty(t, managerOf(t, LevelWarn).SkillsByState(StateActive))
}

func names(skills []*Skill) []string {
	var out []string
	for _, s := range skills {
		out = append(out, s.Name)
	}
	return out
}

func TestManagerRefresh(t *testing.T) {
	root := t.TempDir()
	pathA := writeSkill(t, root, "a", skillText("a", "Skill A", "requires_tools: [t]"))
	writeSkill(t, root, "b", skillText("b", "Skill B", "requires_env: [B]"))
	writeSkill(t, root, "c", skillText("c", "Skill C", "requires_env: [C]"))
	rec, logger := newRecorder()
	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Host: skillhost.Map{GOOS: "linux"}, Logger: logger})
	m.Diagnostics()
	require.Len(t, rec.Lines(), 3)
	b0, _ := m.Skill("b")

	assert.True(t, m.Refresh().Empty(), "nothing changed")
	b1, _ := m.Skill("b")
	assert.Same(t, b0, b1, "unchanged files are not parsed again")
	m.Diagnostics()
	assert.Len(t, rec.Lines(), 3, "and keep their results")

	// Same bytes, new time: read and hashed, not re-parsed.
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(pathA, later, later))
	assert.True(t, m.Refresh().Empty())
	a1, _ := m.Skill("a")
	assert.Equal(t, []string{"t"}, a1.Requirements.Tools)

	// A change, an addition and a removal.
	require.NoError(t, os.WriteFile(pathA, []byte(skillText("a", "Skill A, changed", "requires_tools: [u]")), 0o644))
	writeSkill(t, root, "d", skillText("d", "Skill D", "requires_env: [D]"))
	require.NoError(t, os.RemoveAll(filepath.Join(root, "c")))
	rep := m.Refresh()
	assert.Equal(t, RefreshReport{Added: []string{"d"}, Changed: []string{"a"}, Removed: []string{"c"}}, rep)
	assert.Equal(t, []string{"a", "b", "d"}, names(m.Catalog().Skills))
	a2, _ := m.Skill("a")
	assert.Equal(t, "Skill A, changed", a2.Description)

	start := len(rec.Lines())
	m.Diagnostics()
	assert.Len(t, rec.Lines()[start:], 2, "only a and d are validated again")
	assert.Contains(t, m.Prompt(), "Skill A, changed")
	assert.NotContains(t, m.Prompt(), "Skill C")

	// A file that breaks is reported; fixing it brings the skill back.
	require.NoError(t, os.WriteFile(pathA, []byte("no frontmatter"), 0o644))
	assert.Equal(t, RefreshReport{Removed: []string{"a"}}, m.Refresh())
	require.Len(t, m.Reports(), 1)
	assert.Equal(t, ReportSkipped, m.Reports()[0].Kind)
	require.NoError(t, os.WriteFile(pathA, []byte(skillText("a", "Skill A again")), 0o644))
	assert.Equal(t, RefreshReport{Added: []string{"a"}}, m.Refresh())
	assert.Empty(t, m.Reports())

	// A catalog of parsed skills has nothing to re-read.
	mem := managerOf(t, LevelWarn, skillOf(t, "x"))
	assert.True(t, mem.Refresh().Empty())
	assert.Len(t, mem.Catalog().Skills, 1)
}

// TestManagerConcurrent exercises every method at once, for -race.
func TestManagerConcurrent(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		writeSkill(t, root, fmt.Sprintf("s%02d", i), skillText(fmt.Sprintf("s%02d", i), "d",
			fmt.Sprintf("requires_tools: [t%d]", i%5), fmt.Sprintf("fallback_for_tools: [f%d]", i%3)))
	}
	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Level: LevelStrict, Host: skillhost.Map{GOOS: "linux"}})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				switch (g + i) % 9 {
				case 0:
					m.SetAvailable([]string{fmt.Sprintf("t%d", i%5), fmt.Sprintf("f%d", i%3)}, nil)
				case 1:
					m.Prompt()
				case 2:
					m.Offered()
				case 3:
					m.Diagnostics()
				case 4:
					_, _ = m.Result(fmt.Sprintf("s%02d", i%20), i%2 == 0)
				case 5:
					m.SkillsByState(StateDegraded)
				case 6:
					m.Cached()
				case 7:
					if i%40 == 0 {
						m.Refresh()
					} else {
						m.Clear()
					}
				case 8:
					m.SkillsByState(StateActive)
					m.availability()
					m.Reports()
				}
			}
		}()
	}
	wg.Wait()

	// After the storm, the cached prompt equals one computed afresh.
	m.SetAvailable([]string{"t1", "t2"}, nil)
	got := m.Prompt()
	fresh := NewManager(m.Catalog(), ManagerOptions{Level: LevelStrict, Host: skillhost.Map{GOOS: "linux"}})
	fresh.SetAvailable([]string{"t1", "t2"}, nil)
	assert.Equal(t, fresh.Prompt(), got)
}

// TestToolsetPresentWhileAnyToolIs: a toolset is present while at least
// one of its tools is available, as Hermes derives its available toolsets
// from its available tools; a tool not in ManagerOptions.Toolsets is in
// the toolset of its own name, and one in it is in that toolset only.
func TestToolsetPresentWhileAnyToolIs(t *testing.T) {
	web := skillOf(t, "web", "metadata: {hermes: {requires_toolsets: [web]}}")
	browser := skillOf(t, "browser", "metadata: {hermes: {requires_toolsets: [browser]}}")
	toolsets := map[string]string{"web_search": "web", "web_extract": "web", "browser": "automation"}
	for _, tc := range []struct {
		tools   []string
		missing []string // the toolsets missing, web's then browser's
	}{
		{nil, []string{"web", "browser"}},
		{[]string{"web_search"}, []string{"browser"}},
		{[]string{"web_extract"}, []string{"browser"}},
		{[]string{"web_search", "web_extract"}, []string{"browser"}},
		{[]string{"web"}, []string{"browser"}},            // no toolset key: its own name's
		{[]string{"browser"}, []string{"web", "browser"}}, // in automation only
	} {
		m := NewManager(newCatalog(web, browser), ManagerOptions{Level: LevelWarn, Host: skillhost.Map{GOOS: "linux"}, Toolsets: toolsets})
		m.SetAvailable(tc.tools, nil)
		var missing []string
		for _, name := range []string{"web", "browser"} {
			r, err := m.Result(name, false)
			require.NoError(t, err)
			missing = append(missing, r.MissingToolsets...)
		}
		assert.Equal(t, tc.missing, missing, "tools %v", tc.tools)
	}
}
