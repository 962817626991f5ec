package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestSkillsFitTheTerminal: gatectl skills writing to a terminal fits
// every line to its width, wrapping the issues, whole, under their
// column.
func TestSkillsFitTheTerminal(t *testing.T) {
	dir, issue := longIssueSkills(t)
	t.Chdir(t.TempDir()) // no ./gate.toml here
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	t.Setenv("COLUMNS", "")
	const cols = 60
	master, term := openPTY(t, cols)
	var stderr bytes.Buffer
	assert.Equal(t, exitOK, run([]string{"skills", "--path", dir}, term, &stderr))
	out := readAll(t, master, term)
	assert.Empty(t, stderr.String())
	assert.Contains(t, strings.Join(strings.Fields(out), ""), strings.Join(strings.Fields(issue), ""), "wrapped, not cut")
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		assert.LessOrEqual(t, utf8.RuneCountInString(line), cols, "wider than the %d-column terminal: %q", cols, line)
	}
}
