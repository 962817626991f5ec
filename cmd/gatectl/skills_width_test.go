package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// longIssueSkills writes a skills folder whose one skill misses tools
// whose names make its ISSUES cell far wider than any terminal, and
// returns the folder and that cell.
func longIssueSkills(t *testing.T) (dir, issue string) {
	t.Helper()
	var tools []string
	for i := range 8 {
		tools = append(tools, fmt.Sprintf("a_rather_long_tool_name_number_%d", i))
	}
	dir = t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "wide"), 0o755))
	writeFile(t, filepath.Join(dir, "wide", "SKILL.md"), "---\nname: wide\ndescription: needs many tools\nrequires_tools: ["+
		strings.Join(tools, ", ")+"]\n---\nbody\n")
	return dir, "Missing required tools: " + strings.Join(tools, ", ")
}

// TestSkillsWholeWhenPiped: gatectl skills written to a pipe, or to a
// file, prints every cell whole, whatever COLUMNS says, as gatectl check
// does: a script reading it must get what a person would.
func TestSkillsWholeWhenPiped(t *testing.T) {
	dir, issue := longIssueSkills(t)
	t.Chdir(t.TempDir()) // no ./gate.toml here
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	t.Setenv("COLUMNS", "40")

	pipe := func() (*os.File, func() string) {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		t.Cleanup(func() { r.Close() })
		return w, func() string {
			require.NoError(t, w.Close())
			b, err := io.ReadAll(r)
			require.NoError(t, err)
			return string(b)
		}
	}
	file := func() (*os.File, func() string) {
		f, err := os.Create(filepath.Join(t.TempDir(), "out"))
		require.NoError(t, err)
		return f, func() string {
			require.NoError(t, f.Close())
			b, err := os.ReadFile(f.Name())
			require.NoError(t, err)
			return string(b)
		}
	}
	for _, tc := range []struct {
		name string
		open func() (*os.File, func() string)
	}{{"a pipe", pipe}, {"a file", file}} {
		t.Run(tc.name, func(t *testing.T) {
			w, read := tc.open()
			assert.Equal(t, exitOK, run([]string{"skills", "--path", dir}, w, io.Discard))
			out := read()
			assert.Regexp(t, `(?m)^wide +degraded +yes +`+issue+`$`, out, "the issues whole, on the skill's line")
			assert.NotContains(t, out, "…")
		})
	}
}
