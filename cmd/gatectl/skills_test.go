package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-dev/gate/skills"
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
			golden(t, "skills_"+level+".txt", stdout)

			code, stdout, _ = gatectl(t, append([]string{"skills", "--json"}, base...)...)
			assert.Equal(t, exitOK, code)
			golden(t, "skills_"+level+".json", stdout)

			code, stdout, _ = gatectl(t, append([]string{"skills", "prompt"}, base...)...)
			assert.Equal(t, exitOK, code)
			golden(t, "skills_prompt_"+level+".xml", portable(t, stdout))

			code, stdout, _ = gatectl(t, append([]string{"doctor", "skills", "--requirements", "--json"}, base...)...)
			wantCode := exitOK
			if level == "strict" {
				wantCode = exitUnavailable // some skill is unavailable under strict
			}
			assert.Equal(t, wantCode, code)
			golden(t, "doctor_skills_"+level+".json", stdout)

			code, stdout, _ = gatectl(t, append([]string{"doctor", "skills", "--deep"}, base...)...)
			assert.Equal(t, wantCode, code)
			golden(t, "doctor_skills_"+level+".txt", stdout)
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
// platform) are shown, each at its file and line, in text and in JSON.
func TestDoctorParseWarnings(t *testing.T) {
	dir := filepath.Join("testdata", "skill_warnings")
	code, stdout, stderr := gatectl(t, "doctor", "skills", "--path", dir)
	assert.Equal(t, exitOK, code, stderr)
	golden(t, "doctor_skill_warnings.txt", stdout)

	code, stdout, _ = gatectl(t, "doctor", "skills", "--path", dir, "--json")
	assert.Equal(t, exitOK, code)
	golden(t, "doctor_skill_warnings.json", stdout)
}

// TestPrintDoctorKinds: the text doctor shows every kind of requirement
// that has something, under its label, in Validate's order, and skips
// the empty ones.
func TestPrintDoctorKinds(t *testing.T) {
	none := skills.Split{Satisfied: []string{}, Missing: []string{}}
	var sb strings.Builder
	printDoctor(&sb, skills.Doctor{Skills: []skills.Requirement{{
		Name: "s", Location: "s/SKILL.md", State: "degraded",
		Tools:    skills.Split{Satisfied: []string{"a"}, Missing: []string{"b"}},
		Servers:  none,
		Env:      skills.Split{Satisfied: []string{}, Missing: []string{"KEY"}},
		Toolsets: skills.Split{Satisfied: []string{"web"}, Missing: []string{}},
		Bins:     none,
		AnyBins:  skills.Split{Satisfied: []string{}, Missing: []string{"rg", "ag"}},
	}}})
	assert.Contains(t, sb.String(), "\ns  degraded  s/SKILL.md\n"+
		"  tools:    ok a; missing b\n"+
		"  toolsets: ok web\n"+
		"  env:      missing KEY\n"+
		"  any bins: missing rg, ag\n")
}
