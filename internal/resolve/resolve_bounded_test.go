package resolve

import (
	"context"
	"github.com/gate-dev/gate/hostfuncs"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolversPanickingResolver(t *testing.T) {
	r := NewResolvers(Options{})
	require.NoError(t, r.Register("boom", hostfuncs.ResolverFunc(func(context.Context, string) (bool, error) {
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
	r := NewResolvers(Options{})
	require.NoError(t, r.Register("slow", hostfuncs.ResolverFunc(func(context.Context, string) (bool, error) {
		time.Sleep(time.Millisecond) // answers around the deadline, on purpose
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
