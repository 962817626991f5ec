package skillsview

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/skillhost"
	"github.com/gate-dev/gate/skills"
)

// hermesEnvDir holds the skills package's SKILL.md files with Hermes'
// required_environment_variables, well-formed and not.
var hermesEnvDir = filepath.Join("..", "..", "skills", "testdata", "hermes-env")

// TestHermesEnvDoctor is `gatectl doctor skills --requirements --json` over
// hermesEnvDir: the variables each skill requires, split by whether they
// are set, and the warnings of the malformed entries, each with its line.
func TestHermesEnvDoctor(t *testing.T) {
	dir, err := filepath.Abs(hermesEnvDir)
	require.NoError(t, err)
	cat := skills.Discover([]string{dir}, skills.DiscoverOptions{})
	host := skillhost.Map{Env: map[string]string{"SCIMINER_API_KEY": "k", "HOMELAB_GH_TOKEN": "ghp", "API_KEY": "k", "API_URL": ""}, GOOS: "linux"}
	m := skills.NewManager(cat, skills.ManagerOptions{Host: host})
	// Paths as the skills package's tests show them: testdata/hermes-env/...
	rel := func(p string) string {
		if r, err := filepath.Rel(filepath.Dir(filepath.Dir(dir)), p); err == nil && p != "" {
			return filepath.ToSlash(r)
		}
		return p
	}
	golden.Check(t, filepath.Join("testdata", "golden", "hermes-env-doctor.json"), jsonOf(t, NewDoctor(m, true, rel)))
}
