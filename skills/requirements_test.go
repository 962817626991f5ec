package skills

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cases of PraisonAI's test_capability_validator.py
// (TestSkillRequirements, and TestIntegration's parsing test), through real
// frontmatter; each test names the one it ports.

func TestRequirementsEmpty(t *testing.T) { // test_from_frontmatter_empty
	r := reqOf(t)
	assert.True(t, r.IsEmpty())
	assert.False(t, r.IsFallback())
	var nilReq *Requirements
	assert.True(t, nilReq.IsEmpty())
}

func TestRequirementsToolsList(t *testing.T) { // test_from_frontmatter_tools_list
	r := reqOf(t, "requires_tools: [web_search, file_write]")
	assert.Equal(t, []string{"web_search", "file_write"}, r.Tools)
	assert.Empty(t, r.Servers)
	assert.False(t, r.IsEmpty())
}

func TestRequirementsToolsString(t *testing.T) { // test_from_frontmatter_tools_string
	assert.Equal(t, []string{"web_search", "file_write"}, reqOf(t, `requires-tools: "web_search file_write"`).Tools)
}

func TestRequirementsAllowedToolsBackwardCompatible(t *testing.T) { // test_from_frontmatter_backward_compatibility
	assert.Equal(t, []string{"existing_tool"}, reqOf(t, `allowed-tools: ["existing_tool"]`).Tools)
}

func TestRequirementsServers(t *testing.T) { // test_from_frontmatter_servers
	assert.Equal(t, []string{"mcp:filesystem", "http:internal"}, reqOf(t, `requires_servers: ["mcp:filesystem", "http:internal"]`).Servers)
}

func TestRequirementsEnv(t *testing.T) { // test_from_frontmatter_env_vars
	assert.Equal(t, []string{"API_KEY", "SECRET_TOKEN"}, reqOf(t, `requires_env: ["API_KEY", "SECRET_TOKEN"]`).Env)
}

func TestRequirementsOpenClawHints(t *testing.T) { // test_from_frontmatter_openclaw_hints
	r := reqOf(t, "openclaw:", "  version: \"1.0\"", "  min: 2", "  beta: true", "  ratio: 0.5", "  when: 2024-01-15", "  list: [a, 1]", "  nested: {k: v}")
	assert.Equal(t, map[string]any{
		"version": "1.0", "min": int64(2), "beta": true, "ratio": 0.5,
		"when": "2024-01-15", "list": []any{"a", int64(1)}, "nested": map[string]any{"k": "v"},
	}, r.OpenClawHints)
	assert.False(t, r.IsEmpty(), "hints alone make the requirements non-empty, as the original")
	assert.Nil(t, reqOf(t, "openclaw: not-a-dict").OpenClawHints)
	assert.Nil(t, reqOf(t, "openclaw: [a]").OpenClawHints)
}

func TestRequirementsFallbackForTools(t *testing.T) { // test_from_frontmatter_fallback_for_tools
	r := reqOf(t, "fallback_for_tools: [web_search, web]")
	assert.Equal(t, []string{"web_search", "web"}, r.FallbackForTools)
	assert.Empty(t, r.FallbackForServers)
	assert.False(t, r.IsEmpty())
	assert.True(t, r.IsFallback())
}

func TestRequirementsFallbackForServersHyphen(t *testing.T) { // test_from_frontmatter_fallback_for_servers
	r := reqOf(t, `fallback-for-servers: "mcp:filesystem"`)
	assert.Equal(t, []string{"mcp:filesystem"}, r.FallbackForServers)
	assert.True(t, r.IsFallback())
}

func TestRequirementsFallbackWithRequires(t *testing.T) { // test_from_frontmatter_fallback_with_requires
	r := reqOf(t, "requires_tools: [terminal]", "fallback_for_tools: [web_search, web]")
	assert.Equal(t, []string{"terminal"}, r.Tools)
	assert.Equal(t, []string{"web_search", "web"}, r.FallbackForTools)
}

func TestRequirementsStringForms(t *testing.T) { // test_normalize_list, through YAML
	for value, want := range map[string][]string{
		`"a b c"`:   {"a", "b", "c"},
		`"a,b,c"`:   {"a", "b", "c"},
		`"a, b c"`:  {"a", "b", "c"},
		`a, b c`:    {"a", "b", "c"},
		`[a, b, c]`: {"a", "b", "c"},
		`""`:        nil,
		`[]`:        nil,
		`123`:       nil,
		`"123"`:     {"123"},
		``:          nil,
		`~`:         nil,
		`["a,b"]`:   {"a,b"},
		`[a, ~, b]`: {"a", "b"},
		`[a, a, b]`: {"a", "b"},
	} {
		assert.Equal(t, want, reqOf(t, "requires_tools: "+value).Tools, value)
	}
	s := mustParse(t, "test-skill", frontmatter("requires_tools: {a: b}"))
	assert.Empty(t, s.Requirements.Tools)
	require.Len(t, s.Warnings, 1)
	assert.Equal(t, "requires_tools is a mapping, not a list of names: ignored", s.Warnings[0].Message)
}

func TestRequirementsFirstKeyWins(t *testing.T) {
	// PraisonAI gives [a a c]; duplicates are dropped here.
	r := reqOf(t, "requires_tools: a", "requires-tools: b", "allowed-tools: a c")
	assert.Equal(t, []string{"a", "c"}, r.Tools)
	// A present but empty underscore key still wins.
	assert.Empty(t, reqOf(t, "requires_env:", "requires-env: B").Env)
	assert.Equal(t, []string{"B"}, reqOf(t, "requires-env: B").Env)
	assert.Equal(t, []string{"s"}, reqOf(t, "requires-servers: s").Servers)
	assert.Equal(t, []string{"t"}, reqOf(t, "fallback-for-tools: t").FallbackForTools)
	assert.Empty(t, reqOf(t, "allowed_tools: a").Tools, "allowed_tools with an underscore is not read")
}

func TestRequirementsAllowedTools(t *testing.T) {
	r := reqOf(t, "requires_tools: [Read, pdf]", "allowed-tools: Bash(git add:*) Bash(infsh *) Read")
	assert.Equal(t, []string{"Read", "pdf", "Bash"}, r.Tools)
	assert.Equal(t, []string{"Bash(git add:*)", "Bash(infsh *)", "Read"}, r.AllowedTools)

	off := false
	s := mustParse(t, "x", frontmatter("allowed-tools: Bash(git add:*) Read"), parseOptions{AllowedToolsRequired: &off})
	assert.Empty(t, s.Requirements.Tools)
	assert.Equal(t, []string{"Bash(git add:*)", "Read"}, s.Requirements.AllowedTools)
	assert.False(t, s.Requirements.IsEmpty())
}

func TestRequirementsSkillParsing(t *testing.T) { // test_skill_parsing_with_requirements
	s := mustParse(t, "pdf-processor", `---
name: pdf-processor
description: Extract text and OCR from PDF documents
requires_tools:
  - pdf_read
  - ocr_extract
requires_servers:
  - "mcp:filesystem"
requires_env:
  - OPENAI_API_KEY
openclaw:
  version: "1.0"
---
# PDF Processing Instructions
`)
	assert.Equal(t, "pdf-processor", s.Name)
	assert.Equal(t, Requirements{
		Tools:         []string{"pdf_read", "ocr_extract"},
		Servers:       []string{"mcp:filesystem"},
		Env:           []string{"OPENAI_API_KEY"},
		OpenClawHints: map[string]any{"version": "1.0"},
	}, s.Requirements)
	assert.Empty(t, s.Warnings)
}

func TestRequirementsOpenClaw(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		block string
		want  Requirements
	}{
		{"block YAML", []string{"metadata:", "  openclaw:", "    requires:", "      bins: [git, gh]", "      anyBins: rg, ag", "      env: GH_TOKEN", "      config: browser.enabled", "    os: [darwin, win32]"},
			"metadata.openclaw", Requirements{Bins: []string{"git", "gh"}, AnyBins: []string{"rg", "ag"}, Env: []string{"GH_TOKEN"}, OpenClawEnv: []string{"GH_TOKEN"}, Config: []string{"browser.enabled"}, OS: []string{"darwin", "windows"}}},
		{"one-line JSON", []string{`metadata: {"openclaw":{"requires":{"bins":["jq"]},"always":true}}`},
			"metadata.openclaw", Requirements{Bins: []string{"jq"}, Always: true}},
		{"multi-line JSON, trailing commas", []string{"metadata:", "  {", `    "openclaw": {`, `      "requires": { "env": ["A",], },`, "    },", "  }"},
			"metadata.openclaw", Requirements{Env: []string{"A"}, OpenClawEnv: []string{"A"}}},
		{"quoted JSON string", []string{`metadata: '{"openclaw": {"requires": {"bins": ["gh",]},},}'`},
			"metadata.openclaw", Requirements{Bins: []string{"gh"}}},
		{"double-quoted JSON string", []string{`metadata: "{\"clawdbot\": {\"os\": \"linux\"}}"`},
			"metadata.clawdbot", Requirements{OS: []string{"linux"}}},
		{"block as a JSON string", []string{"metadata:", `  openclaw: '{"requires": {"bins": ["x"]}}'`},
			"metadata.openclaw", Requirements{Bins: []string{"x"}}},
		{"clawdbot", []string{"metadata:", "  clawdbot:", "    requires: {bins: [a]}"}, "metadata.clawdbot", Requirements{Bins: []string{"a"}}},
		{"clawdis", []string{"metadata:", "  clawdis:", "    requires: {env: [B]}"}, "metadata.clawdis", Requirements{Env: []string{"B"}, OpenClawEnv: []string{"B"}}},
		{"moltbot", []string{"metadata:", "  moltbot:", "    always: 'yes'"}, "metadata.moltbot", Requirements{Always: true}},
		{"openclaw wins over legacy", []string{"metadata:", "  moltbot: {requires: {bins: [m]}}", "  openclaw: {requires: {bins: [o]}}"}, "metadata.openclaw", Requirements{Bins: []string{"o"}}},
		{"env shared with requires_env", []string{"requires_env: [A]", "metadata:", "  openclaw: {requires: {env: [A, B]}}"},
			"metadata.openclaw", Requirements{Env: []string{"A", "B"}, OpenClawEnv: []string{"B"}}},
		{"empty block", []string{"metadata:", "  openclaw:"}, "metadata.openclaw", Requirements{}},
		{"no block", []string{"metadata:", "  author: me"}, "", Requirements{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, "test-skill", frontmatter(tc.lines...))
			assert.Equal(t, tc.block, s.OpenClawBlock)
			assert.Equal(t, tc.want, s.Requirements)
			assert.Empty(t, s.Warnings)
		})
	}
}

func TestRequirementsOpenClawWarnings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		msg   string
		line  int
	}{
		{"bad JSON string", []string{`metadata: '{"openclaw": {'`}, `metadata is not valid JSON or YAML (did not find expected node content): ignored`, 4},
		{"metadata a list", []string{"metadata: [a]"}, "metadata is a list, not a mapping: ignored", 4},
		{"metadata a number", []string{"metadata: 3"}, "metadata is a number, not a mapping: ignored", 4},
		{"metadata text", []string{"metadata: hello"}, "metadata is text, not a mapping: ignored", 4},
		{"metadata text holding a list", []string{"metadata: '[1, 2]'"}, "metadata is text holding a list, not a mapping: ignored", 4},
		{"block a list", []string{"metadata:", "  openclaw: [a]"}, "metadata.openclaw is a list, not a mapping: ignored", 5},
		{"requires a list", []string{"metadata:", "  openclaw:", "    requires: [a]"}, "metadata.openclaw.requires is a list, not a mapping: ignored", 6},
		{"unknown os", []string{"metadata:", "  openclaw:", "    os: [linux, beos]"}, `metadata.openclaw.os: unknown platform "beos" (OpenClaw uses darwin, linux, win32)`, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, "test-skill", frontmatter(tc.lines...))
			require.Len(t, s.Warnings, 1, "%v", s.Warnings)
			assert.Equal(t, tc.msg, s.Warnings[0].Message)
			assert.Equal(t, tc.line, s.Warnings[0].Line)
		})
	}
}

func TestRequirementsHermes(t *testing.T) {
	r := reqOf(t,
		"requires_tools: [terminal]",
		"platforms: [macos, linux, Windows]",
		"metadata:",
		"  hermes:",
		"    requires_tools: [terminal, browser_navigate]",
		"    requires_toolsets: web",
		"    fallback_for_tools: [web_search]",
		"    fallback_for_toolsets: [web, search]",
		"    tags: [x]",
	)
	assert.Equal(t, Requirements{
		Tools:               []string{"terminal", "browser_navigate"},
		OS:                  []string{"darwin", "linux", "windows"},
		Toolsets:            []string{"web"},
		FallbackForTools:    []string{"web_search"},
		FallbackForToolsets: []string{"web", "search"},
	}, r)
	assert.True(t, r.IsFallback())

	assert.Equal(t, []string{"linux"}, reqOf(t, "platforms: linux").OS, "a scalar is wrapped")
	assert.Equal(t, []string{"windows"}, reqOf(t, "platforms: win32").OS)

	s := mustParse(t, "test-skill", frontmatter("platforms: [linux, amiga]"))
	assert.Equal(t, []string{"linux", "amiga"}, s.Requirements.OS)
	require.Len(t, s.Warnings, 1)
	assert.Equal(t, `platforms: unknown platform "amiga" (Hermes uses macos, linux, windows)`, s.Warnings[0].Message)

	// OpenClaw and Hermes together merge, in that order.
	both := reqOf(t, "platforms: [linux]", "metadata:", "  openclaw: {os: [darwin, linux]}", "  hermes: {requires_tools: [t]}")
	assert.Equal(t, []string{"darwin", "linux"}, both.OS)
	assert.Equal(t, []string{"t"}, both.Tools)
}
