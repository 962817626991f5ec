package skills

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

// TestManagerPromptHostileFiles: real skill folders whose names hold
// control characters, bidi overrides and bytes that are not UTF-8 (Linux
// allows any byte but "/" and NUL), and frontmatter whose name and
// description hold escapes YAML turns into control characters. The
// Manager's prompt is well-formed XML in valid UTF-8.
func TestManagerPromptHostileFiles(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{"bell\x07", "esc\x1b[2J", "bad\xff\xfe", "rlo\u202etxt.exe", "c1\u0085", "nonchar\uffff"} {
		path := filepath.Join(root, dir, "SKILL.md")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755), "%q", dir)
		require.NoError(t, os.WriteFile(path, []byte(skillText("x"+filepath.Base(filepath.Dir(path))[:2], "plain")), 0o644))
	}
	writeSkill(t, root, "escapes", "---\nname: \"esc\\e[31m\\a\\0\"\ndescription: \"bell \\a, nul \\0, U+FFFE \\uFFFE, RLO \\u202E, NEL \\N, DEL \\x7F, LS \\L\"\n---\n")
	writeSkill(t, root, "plain", skillText("plain", "fine"))

	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Host: skillhost.Map{GOOS: "linux"}})
	require.Len(t, m.Catalog().Skills, 8, "reports: %v", m.Reports())
	doc := readPrompt(t, m.Prompt(), 8)
	for _, s := range doc.Skills {
		assert.NotEmpty(t, s.Name)
		assert.NotEmpty(t, s.Location)
	}
}
