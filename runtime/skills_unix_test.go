//go:build unix

package runtime

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/nohang"
	"github.com/gate-dev/gate/skills"
)

// TestSkillsFIFOPath: a skill path that is a FIFO named SKILL.md (what
// `gatectl skills --path` was given) is reported as such; opening the Gate
// does not wait for a writer that never comes.
func TestSkillsFIFOPath(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "SKILL.md")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	var g *Gate
	nohang.Run(t, "opening a Gate whose skill path is a FIFO", func() { g = skillsGate(t, fifo) })
	defer g.Close(context.Background())
	m := g.Skills(context.Background())
	require.NotNil(t, m)
	assert.Empty(t, m.Catalog().Skills)
	assert.Equal(t, []skills.Report{{Kind: skills.ReportSkipped, Path: fifo, Code: skills.CodeUnreadable,
		Message: "cannot read: not a regular file (a FIFO)"}}, m.Reports())
}
