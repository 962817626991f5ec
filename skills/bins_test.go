package skills

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

// lockWatchingHost is a skillhost.Map that counts its binary lookups, and those
// made while its Manager's lock was held.
type lockWatchingHost struct {
	skillhost.Map
	mu          sync.Mutex
	m           *Manager
	lookups     atomic.Int64
	underLock   atomic.Int64
	lookedUpFor []string
}

func (h *lockWatchingHost) HasBinary(name string) bool {
	h.lookups.Add(1)
	h.mu.Lock()
	m := h.m
	h.lookedUpFor = append(h.lookedUpFor, name)
	h.mu.Unlock()
	if m != nil {
		if m.mu.TryLock() {
			m.mu.Unlock()
		} else {
			h.underLock.Add(1)
		}
	}
	return h.Map.HasBinary(name)
}

// TestBinaryLookupsOutsideTheLock: a binary lookup walks PATH, file-system
// I/O that a hung mount can stall, and validation holds the Manager's lock
// every reader needs. Lookups happen when the skills naming the binaries
// arrive (NewManager, Refresh) and on Clear, before the lock is taken;
// validation reads their answers. On the old code every lookup happened
// under the lock.
func TestBinaryLookupsOutsideTheLock(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "gh-skill", skillText("gh-skill", "Uses gh.", "metadata:", "  openclaw:", "    requires:", "      bins: [gh, git]"))
	host := &lockWatchingHost{Map: skillhost.Map{Bins: []string{"git"}}}
	m := NewManager(Discover([]string{root}, DiscoverOptions{}), ManagerOptions{Host: host})
	host.mu.Lock()
	host.m = m
	host.mu.Unlock()

	r, err := m.Result("gh-skill", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"gh"}, r.MissingBins)
	assert.Equal(t, []string{"git"}, r.SatisfiedBins)

	// A skill that arrives with a Refresh brings its binary.
	writeSkill(t, root, "jq-skill", skillText("jq-skill", "Uses jq.", "metadata:", "  openclaw:", "    requires:", "      anyBins: [jq]"))
	m.Refresh()
	r, err = m.Result("jq-skill", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"jq"}, r.MissingAnyBins)
	before := host.lookups.Load()
	assert.EqualValues(t, 3, before, "each binary looked up once: %v", host.lookedUpFor)

	// Clear reads binaries anew (one was installed meanwhile).
	host.Map.Bins = []string{"git", "gh"}
	m.Clear()
	r, err = m.Result("gh-skill", false)
	require.NoError(t, err)
	assert.Empty(t, r.MissingBins, "after Clear the installed binary is seen")
	assert.Greater(t, host.lookups.Load(), before)
	_ = m.Diagnostics()

	assert.Zero(t, host.underLock.Load(), "binary lookups made while the Manager's lock was held: %v", host.lookedUpFor)
}
