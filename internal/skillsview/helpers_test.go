package skillsview

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/skills"
)

// skillOf parses a SKILL.md named name with the frontmatter lines given,
// at /skills/<name>/SKILL.md.
func skillOf(t testing.TB, name string, lines ...string) *skills.Skill {
	t.Helper()
	text := "---\nname: " + name + "\ndescription: The " + name + " skill\n" + strings.Join(lines, "\n") + "\n---\n"
	s, rep := skills.ParseSkill(filepath.Join(string(filepath.Separator), "skills", name, "SKILL.md"), []byte(text), skills.ParseOptions{})
	require.Nil(t, rep, "skipped: %v", rep)
	require.NotNil(t, s)
	return s
}

// managerOf manages skills at level on a linux host with no environment
// and no binaries.
func managerOf(level skills.Level, s ...*skills.Skill) *skills.Manager {
	return skills.NewManager(skills.NewCatalog(s...), skills.ManagerOptions{Level: level, Host: skills.MapHost{GOOS: "linux"}})
}

// jsonOf marshals v indented, with a final newline, as gatectl prints it.
func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	return append(b, '\n')
}

// itself presents a path as it is.
func itself(s string) string { return s }
