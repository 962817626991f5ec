package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSkillsReportFilesNotSkills: a SKILL.md without frontmatter (text
// only, or empty) is not a skill, and every skills report says so at its
// file, instead of leaving it out without a word: gatectl skills and
// gatectl doctor skills, as text and as JSON.
func TestSkillsReportFilesNotSkills(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"good":  "---\nname: good\ndescription: a skill\n---\nbody\n",
		"plain": "# Plain\n\nJust markdown, no frontmatter.\n",
		"empty": "",
	} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		writeFile(t, filepath.Join(dir, name, "SKILL.md"), body)
	}
	t.Chdir(dir) // no ./gate.toml here; paths show relative to it
	for _, args := range [][]string{
		{"skills"},
		{"skills", "--json"},
		{"doctor", "skills"},
		{"doctor", "skills", "--json"},
	} {
		t.Run(filepath.Join(args...), func(t *testing.T) {
			code, stdout, stderr := gatectl(t, append(args, "--path", ".")...)
			assert.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stdout, "plain/SKILL.md")
			assert.Contains(t, stdout, "empty/SKILL.md")
			assert.Contains(t, stdout, "no frontmatter (--- ... ---) at the top")
			assert.Contains(t, stdout, "this one starts with other text")
			assert.Contains(t, stdout, "this one is empty")
		})
	}
}
