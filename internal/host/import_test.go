package host

import (
	"context"
	"github.com/gate-dev/gate/internal/resolve"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/nohang"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
)

// btestImport runs gate.import(spec) through the guest under c and returns
// its status, failing if it does not return promptly.
func btestImport(t *testing.T, g *guest, c *Call, spec string) int32 {
	t.Helper()
	var got int32
	nohang.Run(t, spec, func() {
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
	resolvers := resolve.NewResolvers(resolve.Options{})
	release := make(chan struct{})
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	var calls atomic.Int32
	require.NoError(t, resolvers.Register("hang", hostfuncs.ResolverFunc(func(_ context.Context, name string) (bool, error) {
		calls.Add(1)
		<-release // ignores ctx, as a careless host app might
		return name == "yes", nil
	})))
	require.NoError(t, resolvers.Register("quick", hostfuncs.ResolverFunc(func(context.Context, string) (bool, error) { return true, nil })))
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
	assert.Contains(t, c.Notes()[0], resolve.ErrResolverBusy.Error())
	assert.Equal(t, StatusOK, btestImport(t, g, c, "quick:yes"), "other schemes are not held up")

	close(release)
	require.Eventually(t, func() bool {
		return btestImport(t, g, newCall(), "hang:yes") == StatusOK
	}, 2*time.Second, 10*time.Millisecond, "once the call returns, the resolver is asked again")
	assert.Equal(t, int32(2), calls.Load())
}

// A FIFO, or /dev/zero, named to gate.import answers "not found" at once,
// as "gatectl check" runs it: the lib: resolver opens no file that can
// block (hostfuncs' resolver tests cover every kind of hostile file).
func TestImportLibFIFOAnswersPromptly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	g := newGuest(t)
	c := testCall(t, Grants{Import: []string{"lib:" + dir + "/*", "lib:/dev/zero"}})
	c.Resolvers = resolve.NewResolvers(resolve.Options{})
	for _, p := range []string{fifo, "/dev/zero"} {
		nohang.Run(t, p, func() {
			ptr, n := g.put(t, 0, "lib:"+p)
			got, err := g.call(c, "import", ptr, n)
			require.NoError(t, err)
			assert.Equal(t, StatusNotFound, got)
		})
	}
}
