package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-dev/gate/internal/skillsview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var skillsDir = filepath.Join("testdata", "skills")

// portable replaces the absolute working directory (the prompt's
// locations) so the golden files hold on any machine.
func portable(t *testing.T, s string) string {
	wd, err := os.Getwd()
	require.NoError(t, err)
	return strings.ReplaceAll(s, wd, "$PWD")
}

func TestSkillsCommands(t *testing.T) {
	t.Setenv("GATECTL_SERP_API_KEY", "k")
	for _, level := range []string{"warn", "strict"} {
		t.Run(level, func(t *testing.T) {
			t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", level)
			base := []string{"-m", checkManifest, "--path", skillsDir}

			code, stdout, stderr := gatectl(t, append([]string{"skills"}, base...)...)
			assert.Equal(t, exitOK, code, stderr)
			assertGolden(t, "skills_"+level+".txt", stdout)

			code, stdout, _ = gatectl(t, append([]string{"skills", "--json"}, base...)...)
			assert.Equal(t, exitOK, code)
			assertGolden(t, "skills_"+level+".json", stdout)

			code, stdout, _ = gatectl(t, append([]string{"skills", "prompt"}, base...)...)
			assert.Equal(t, exitOK, code)
			assertGolden(t, "skills_prompt_"+level+".xml", portable(t, stdout))

			code, stdout, _ = gatectl(t, append([]string{"doctor", "skills", "--requirements", "--json"}, base...)...)
			wantCode := exitOK
			if level == "strict" {
				wantCode = exitUnavailable // some skill is unavailable under strict
			}
			assert.Equal(t, wantCode, code)
			assertGolden(t, "doctor_skills_"+level+".json", stdout)

			code, stdout, _ = gatectl(t, append([]string{"doctor", "skills", "--deep"}, base...)...)
			assert.Equal(t, wantCode, code)
			assertGolden(t, "doctor_skills_"+level+".txt", stdout)
		})
	}
}

// TestSkillsWithoutManifest: --path alone looks at skill folders with no
// manifest, so no tool or server is available.
func TestSkillsWithoutManifest(t *testing.T) {
	dir, err := filepath.Abs(skillsDir)
	require.NoError(t, err)
	t.Chdir(t.TempDir()) // no ./gate.toml here
	code, stdout, stderr := gatectl(t, "skills", "--path", dir)
	assert.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `(?m)^research +degraded +yes +Missing required tools: search_web$`, stdout)
	assert.Regexp(t, `(?m)^web-fallback +degraded +no +Missing required tools: echo$`, stdout,
		"a fallback whose own tools are missing is never offered, in any mode")
}

func TestSkillsBadInput(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := gatectl(t, "skills")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no manifest")
	assert.Contains(t, stderr, "no --path DIR")

	code, _, stderr = gatectl(t, "doctor", "nothing")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `want "skills"`)

	t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", "sorta")
	code, _, stderr = gatectl(t, "skills", "--path", t.TempDir())
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stderr, "sorta")
}

// TestDoctorParseWarnings: the warnings of parsing each SKILL.md (a name
// that breaks the agentskills rule, metadata that is not JSON, an unknown
// platform, an unclosed list read leniently) are shown, each at its file
// and line, in text and in JSON.
func TestDoctorParseWarnings(t *testing.T) {
	dir := filepath.Join("testdata", "skill_warnings")
	code, stdout, stderr := gatectl(t, "doctor", "skills", "--path", dir)
	assert.Equal(t, exitOK, code, stderr)
	assertGolden(t, "doctor_skill_warnings.txt", stdout)

	code, stdout, _ = gatectl(t, "doctor", "skills", "--path", dir, "--json")
	assert.Equal(t, exitOK, code)
	assertGolden(t, "doctor_skill_warnings.json", stdout)
}

// TestPrintDoctorKinds: the text doctor shows every kind of requirement
// that has something, under its label, in Validate's order, and skips
// the empty ones.
func TestPrintDoctorKinds(t *testing.T) {
	none := skillsview.Split{Satisfied: []string{}, Missing: []string{}}
	var sb strings.Builder
	printDoctor(&sb, skillsview.Doctor{Skills: []skillsview.Requirement{{
		Name: "s", Location: "s/SKILL.md", State: "degraded",
		Tools:    skillsview.Split{Satisfied: []string{"a"}, Missing: []string{"b"}},
		Servers:  none,
		Env:      skillsview.Split{Satisfied: []string{}, Missing: []string{"KEY"}},
		Toolsets: skillsview.Split{Satisfied: []string{"web"}, Missing: []string{}},
		Bins:     none,
		AnyBins:  skillsview.Split{Satisfied: []string{}, Missing: []string{"rg", "ag"}},
	}}})
	assert.Contains(t, sb.String(), "\ns  degraded  s/SKILL.md\n"+
		"  tools:    ok a; missing b\n"+
		"  toolsets: ok web\n"+
		"  env:      missing KEY\n"+
		"  any bins: missing rg, ag\n")
}

// TestSkillsToolsets: Hermes skills' requires_toolsets and
// fallback_for_toolsets, read from real SKILL.md files, against the
// toolsets a real manifest's tools declare: a toolset is present while any
// one of its tools is available, a tool with no toolset key is in the
// toolset of its own name, and a tool that names a toolset is in that one
// only.
func TestSkillsToolsets(t *testing.T) {
	for _, v := range []string{"GATECTL_TOOLSETS_UNSET_A", "GATECTL_TOOLSETS_UNSET_B"} {
		t.Setenv(v, "")
		require.NoError(t, os.Unsetenv(v))
	}
	t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", "warn")
	code, stdout, stderr := gatectl(t, "skills", "--json", "-m", filepath.Join("testdata", "toolsets", "gate.toml"))
	require.Equal(t, exitOK, code, stderr)
	var list skillsview.List
	require.NoError(t, json.Unmarshal([]byte(stdout), &list), stdout)
	got := map[string]skillsview.ListEntry{}
	for _, e := range list.Skills {
		got[e.Name] = e
	}
	for _, tc := range []struct {
		skill, state string
		offered      bool
		warnings     []string
	}{
		{"needs-web", "active", true, []string{}},                                             // web_extract is there, web_search is not
		{"needs-memory", "active", true, []string{}},                                          // the tool memory, in its own name's toolset
		{"needs-terminal", "degraded", true, []string{"Missing required toolsets: terminal"}}, // shell, its one tool, is not
		{"needs-browser", "degraded", true, []string{"Missing required toolsets: browser"}},   // the tool browser is in automation
		{"manual-web", "active", false, []string{}},                                           // a fallback for web, which is present
	} {
		e, ok := got[tc.skill]
		if !assert.True(t, ok, "no skill %s in %s", tc.skill, stdout) {
			continue
		}
		assert.Equal(t, tc.state, e.State, tc.skill)
		assert.Equal(t, tc.offered, e.Offered, tc.skill)
		assert.Equal(t, tc.warnings, e.Warnings, tc.skill)
	}
	assert.Len(t, list.Skills, 5)
}
