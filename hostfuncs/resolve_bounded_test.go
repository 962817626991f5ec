package hostfuncs

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// btestImport runs gate.import(spec) through the guest under c and returns
// its status, failing if it does not return promptly.
func btestImport(t *testing.T, g *guest, c *Call, spec string) int32 {
	t.Helper()
	var got int32
	rtestPrompt(t, spec, func() {
		p, n := g.put(t, 0, spec)
		var err error
		got, err = g.call(c, "import", p, n)
		require.NoError(t, err)
	})
	return got
}

// A host app's resolver that ignores ctx cannot hold gate.import past the
// deadline, and while its abandoned call runs it is not called again.
func TestImportHangingResolver(t *testing.T) {
	g := newGuest(t)
	resolvers := NewResolvers(ResolverOptions{})
	release := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	var calls atomic.Int32
	require.NoError(t, resolvers.Register("hang", ResolverFunc(func(_ context.Context, name string) (bool, error) {
		calls.Add(1)
		<-release // ignores ctx, as a careless host app might
		return name == "yes", nil
	})))
	require.NoError(t, resolvers.Register("quick", ResolverFunc(resolveYes)))
	newCall := func() *Call {
		c := testCall(t, Grants{Import: []string{"hang:*", "quick:*"}})
		c.Resolvers = resolvers
		c.Deadline = time.Now().Add(100 * time.Millisecond)
		return c
	}

	c := newCall()
	assert.Equal(t, StatusNotFound, btestImport(t, g, c, "hang:yes"))
	require.Len(t, c.Notes(), 1)
	assert.Contains(t, c.Notes()[0], "hang:yes: no answer in time, the lookup is left to finish")
	assert.Nil(t, c.Interrupted(), "the probe still had its reserve to answer")

	// The abandoned call still runs: the next run is told so at once,
	// and the resolver is not called a second time.
	c = newCall()
	assert.Equal(t, StatusNotFound, btestImport(t, g, c, "hang:yes"))
	assert.Equal(t, int32(1), calls.Load())
	require.Len(t, c.Notes(), 1)
	assert.Contains(t, c.Notes()[0], ErrResolverBusy.Error())
	assert.Equal(t, StatusOK, btestImport(t, g, c, "quick:yes"), "other schemes are not held up")

	close(release)
	require.Eventually(t, func() bool {
		return btestImport(t, g, newCall(), "hang:yes") == StatusOK
	}, 2*time.Second, 10*time.Millisecond, "once the call returns, the resolver is asked again")
	assert.Equal(t, int32(2), calls.Load())
}

func TestResolversPanickingResolver(t *testing.T) {
	r := NewResolvers(ResolverOptions{})
	require.NoError(t, r.Register("boom", ResolverFunc(func(context.Context, string) (bool, error) {
		panic("host app bug")
	})))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, ctx := range []context.Context{ctx, context.Background()} {
		got, err := r.Resolve(ctx, "boom:x")
		assert.False(t, got)
		assert.EqualError(t, err, `boom:x: the "boom" resolver panicked: host app bug`)
	}
}

// Many lookups at once against a resolver that answers just around the
// deadline: each gets an answer or a note, the count of abandoned calls
// returns to zero, and -race sees no race on the hand-off.
func TestResolversGiveUpRace(t *testing.T) {
	r := NewResolvers(ResolverOptions{})
	require.NoError(t, r.Register("slow", ResolverFunc(func(context.Context, string) (bool, error) {
		time.Sleep(time.Millisecond)
		return true, nil
	})))
	done := make(chan struct{})
	for range 16 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 20 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
				got, err := r.Resolve(ctx, "slow:x")
				cancel()
				if err == nil {
					assert.True(t, got)
				}
			}
		}()
	}
	for range 16 {
		<-done
	}
	r.mu.RLock()
	e := r.byKey["slow"]
	r.mu.RUnlock()
	require.Eventually(t, func() bool { return e.abandoned.Load() == 0 }, 2*time.Second, time.Millisecond)
}
