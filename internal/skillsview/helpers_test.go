package skillsview

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
	"github.com/gate-dev/gate/skills"
)

// skillFile is a SKILL.md to write: its folder's name and its text.
type skillFile struct{ name, text string }

// skillOf is a SKILL.md named name with the frontmatter lines given.
func skillOf(name string, lines ...string) skillFile {
	return skillFile{name, "---\nname: " + name + "\ndescription: The " + name + " skill\n" + strings.Join(lines, "\n") + "\n---\n"}
}

// managerOf writes each file into a skill folder of its own and manages
// the skills found, in the order given, at level on a linux host with no
// environment and no binaries.
func managerOf(t testing.TB, level skills.Level, files ...skillFile) *skills.Manager {
	t.Helper()
	var roots []string
	for i, f := range files {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i), f.name)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(f.text), 0o644))
		roots = append(roots, dir)
	}
	cat := skills.Discover(roots, skills.DiscoverOptions{})
	require.Empty(t, cat.Reports)
	require.Len(t, cat.Skills, len(files))
	return skills.NewManager(cat, skills.ManagerOptions{Level: level, Host: skillhost.Map{GOOS: "linux"}})
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
