package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A skill folder added, a SKILL.md edited and a skill folder removed are
// each published, as a "skill" event whose reason says which (unguarded,
// only a change of state or offer was: a skill that came or went said
// nothing, and what was built on the events went stale). A reload that
// keeps the skills publishes none of them.
func TestSkillsThatComeChangeAndGoArePublished(t *testing.T) {
	skills := t.TempDir()
	writeSkillFile(t, skills, "notes")
	path := writeManifest(t, fmt.Sprintf("[skills]\npaths = [%q]\n\n[[tools]]\nname = \"echo\"\n", skills), nil)
	svc, ev := startService(t, path, nil)
	is := func(name, reason string) func(Event) bool {
		return func(e Event) bool { return e.Type == "skill" && e.Name == name && e.Reason == reason }
	}

	// Each file lands whole (written beside, then renamed into place): a
	// rescan that read a SKILL.md between its creation and its write
	// would publish the empty file, rightly, and then the change.
	stage := t.TempDir()
	writeSkillFile(t, stage, "todo")
	require.NoError(t, os.Rename(filepath.Join(stage, "todo"), filepath.Join(skills, "todo")))
	e := ev.wait(t, is("todo", "its folder was added"), "the todo skill is added")
	assert.True(t, e.Available)
	assert.Equal(t, "active", e.State)

	file := filepath.Join(skills, "notes", "SKILL.md")
	staged := filepath.Join(stage, "SKILL.md")
	require.NoError(t, os.WriteFile(staged, []byte("---\nname: notes\ndescription: Notes, rewritten.\n---\n"), 0o644))
	require.NoError(t, os.Rename(staged, file))
	e = ev.wait(t, is("notes", "its SKILL.md changed"), "the notes skill changes")
	assert.True(t, e.Available)

	require.NoError(t, os.RemoveAll(filepath.Join(skills, "todo")))
	e = ev.wait(t, is("todo", "its folder was removed"), "the todo skill is removed")
	assert.Equal(t, "removed", e.State)
	assert.False(t, e.Available)

	n := len(ev.snapshot())
	require.NoError(t, svc.Reload(t.Context()))
	for _, e := range ev.snapshot()[n:] {
		assert.NotEqual(t, "skill", e.Type, "a reload that changed no skill published %+v", e)
	}
}
