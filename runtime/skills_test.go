package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/nohang"
)

// writeSkillFile writes dir/name/SKILL.md.
func writeSkillFile(t *testing.T, dir, name string) {
	t.Helper()
	path := filepath.Join(dir, name, "SKILL.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("---\nname: "+name+"\ndescription: The "+name+" skill.\n---\n"), 0o644))
}

// rescanDue makes the next Gate.Skills start a rescan, as if a second had
// passed since the last one.
func (s *gateSkills) rescanDue() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastRefresh = time.Time{}
}

func skillsGate(t *testing.T, dir string) *Gate {
	t.Helper()
	g, err := New(context.Background(), NewGateConfig().WithSkillPaths(dir))
	require.NoError(t, err)
	return g
}

// TestSkillsRescanInBackground: Gate.Skills and SkillsPrompt never wait for
// a rescan of the skill files, however long it takes (a slow disk, a large
// tree); one at most runs at a time, and what it finds is seen once it
// ends.
func TestSkillsRescanInBackground(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "notes")
	g := skillsGate(t, dir)
	defer g.Close(context.Background())
	ctx := context.Background()

	var started atomic.Int64
	first, release := make(chan struct{}), make(chan struct{})
	real := g.skills.rescan
	g.skills.rescan = func(ctx context.Context) {
		if started.Add(1) == 1 {
			close(first)
		}
		<-release // a walk held up
		real(ctx)
	}
	writeSkillFile(t, dir, "added")
	g.skills.rescanDue()

	nohang.Run(t, "reading the skills while a rescan is held up", func() {
		g.Skills(ctx)
		<-first
		for range 5 {
			m := g.Skills(ctx)
			_, ok := m.Skill("added")
			assert.False(t, ok, "the rescan has not ended")
			assert.Contains(t, g.SkillsPrompt(ctx), "<name>notes</name>")
		}
	})
	assert.Equal(t, int64(1), started.Load(), "one rescan at a time")

	close(release)
	require.Eventually(t, func() bool {
		_, ok := g.Skills(ctx).Skill("added")
		return ok
	}, nohang.Limit, time.Millisecond, "the rescan's findings are seen once it ends")
	assert.Contains(t, g.SkillsPrompt(ctx), "<name>added</name>")
}

// TestSkillsCloseStopsRescan: Close tells a rescan under way to give up
// and waits for it, so that no goroutine of the Gate runs on after Close
// returns; a closed Gate starts no rescan.
func TestSkillsCloseStopsRescan(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "notes")
	before := goruntime.NumGoroutine()
	g := skillsGate(t, dir)

	started := make(chan struct{})
	var stopped atomic.Bool
	g.skills.rescan = func(ctx context.Context) {
		close(started)
		<-ctx.Done() // a walk that only its context ends
		stopped.Store(true)
	}
	g.skills.rescanDue()
	g.Skills(context.Background())
	nohang.Run(t, "starting the rescan", func() { <-started })

	nohang.Run(t, "Close", func() { assert.NoError(t, g.Close(context.Background())) })
	assert.True(t, stopped.Load(), "Close returned before the rescan stopped")

	g.skills.rescanDue()
	g.skills.startRescan()
	g.skills.mu.Lock()
	running := g.skills.running
	g.skills.mu.Unlock()
	assert.False(t, running, "a closed Gate starts no rescan")

	// Goroutines end a little after they say so: look again for a while.
	deadline := time.Now().Add(nohang.Limit)
	for goruntime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := goruntime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		buf = buf[:goruntime.Stack(buf, true)]
		t.Fatalf("%d goroutines before the Gate, %d after Close:\n%s", before, n, buf)
	}
}

// TestOpenAbandonsSkillDiscovery: the first walk of the skill paths, at
// Open, gives up when the caller's context ends (it used to run to the
// end whatever the context said), and the Gate is not returned.
func TestOpenAbandonsSkillDiscovery(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "one"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "one", "SKILL.md"), []byte("---\nname: one\ndescription: One.\n---\n"), 0o644))
	path := writeManifest(t, fmt.Sprintf("[skills]\npaths = [%q]\n\n[[tools]]\nname = \"echo\"\n", root), nil)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, err := Open(ctx, path, NewGateConfig())
	require.Error(t, err)
	assert.Nil(t, g)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "discovering skills")

	g, err = Open(context.Background(), path, NewGateConfig())
	require.NoError(t, err)
	defer g.Close(context.Background())
	assert.Len(t, g.Skills(context.Background()).Catalog().Skills, 1)
}
