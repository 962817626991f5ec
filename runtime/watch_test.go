package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoProbedTools is a manifest whose tools both have probes; "env:" probes
// answer from the environment, which the tests set.
const twoProbedTools = `
[[tools]]
name = "alpha"
probe = "env:WATCH_TEST_ALPHA"

[[tools]]
name = "beta"
probe = "env:WATCH_TEST_BETA"
`

// TestWatcherRefusesHalfWrittenManifests: an editor that rewrites in place
// leaves, for a moment, an empty file (a valid manifest of no tools) or
// one cut after a tool's name (valid, and the tool has no probe, so it
// would be offered as always available). Left in place, each is refused
// with an error naming why, and the tools keep their probes; on the old
// watcher the first served nothing and the second failed open.
func TestWatcherRefusesHalfWrittenManifests(t *testing.T) {
	t.Setenv("WATCH_TEST_ALPHA", "set")
	t.Setenv("WATCH_TEST_BETA", "")
	os.Unsetenv("WATCH_TEST_BETA")
	cases := []struct {
		name, content, want string
	}{
		{"empty", "", "lists no tools or servers now (it had 2)"},
		{"cut after a name", "[[tools]]\nname = \"alpha\"\nprobe = \"env:WATCH_TEST_ALPHA\"\n\n[[tools]]\nname = \"beta\"\n",
			`tool "beta" had a probe (env:WATCH_TEST_BETA) and has none now`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeManifest(t, twoProbedTools, nil)
			svc, ev := startServiceWith(t, path, NewServiceConfig().WithWatchInterval(20*time.Millisecond).WithSettleDelay(20*time.Millisecond))
			ctx := context.Background()
			require.Equal(t, []string{"alpha"}, names(svc.Gate().AvailableTools(ctx)))

			require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			bad := ev.wait(t, func(e Event) bool { return e.Type == "reload" }, "the watcher looks at the edit")
			assert.Equal(t, "error", bad.State, "a half-written manifest must not be loaded")
			assert.Equal(t, "watch", bad.Trigger)
			assert.Contains(t, bad.Reason, tc.want)
			_, err := svc.LastReload()
			assert.ErrorIs(t, err, ErrSuspectEdit)
			assert.Equal(t, []string{"alpha"}, names(svc.Gate().AvailableTools(ctx)), "beta keeps its probe and stays hidden")

			// A SIGHUP sent while the file was being written is no
			// different: refused too.
			assert.ErrorIs(t, svc.Reload(ctx), ErrSuspectEdit)
			assert.Equal(t, []string{"alpha"}, names(svc.Gate().AvailableTools(ctx)))
		})
	}
}

// TestWatcherSeesSameSizeEditsWithTheTimeKept: the content decides, so an
// edit that keeps the size and puts the modification time back is loaded
// (the old watcher compared size and time only, and never saw it), and a
// touch that changes nothing reloads nothing.
func TestWatcherSeesSameSizeEditsWithTheTimeKept(t *testing.T) {
	for _, interval := range []time.Duration{20 * time.Millisecond, time.Hour} {
		t.Run(fmt.Sprint(interval), func(t *testing.T) {
			path := writeManifest(t, "[[tools]]\nname = \"one\"\n", nil)
			svc, ev := startServiceWith(t, path, NewServiceConfig().WithWatchInterval(interval).WithSettleDelay(20*time.Millisecond))
			if interval == time.Hour {
				// An hour's poll never comes in this test: only file
				// events can tell the watcher.
				require.Eventually(t, func() bool { return svc.WatchMode() == WatchInotify }, 5*time.Second, time.Millisecond)
			}
			fi, err := os.Stat(path)
			require.NoError(t, err)

			now := time.Now()
			require.NoError(t, os.Chtimes(path, now, now)) // a touch
			require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"two\"\n"), 0o644))
			require.NoError(t, os.Chtimes(path, fi.ModTime(), fi.ModTime()))

			ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == "two" && e.Available }, "the same-size edit is loaded")
			assert.Equal(t, []string{"two"}, names(svc.Gate().AvailableTools(context.Background())))
			reloads := 0
			for _, e := range ev.snapshot() {
				if e.Type == "reload" {
					reloads++
				}
			}
			assert.Equal(t, 1, reloads, "the touch is no change; the edit is one")
		})
	}
}

// TestWatcherWaitsForTheFileToSettle: while a file is being written it is
// not loaded, however many events it sends; once it is quiet for the
// settle delay, its final content is. A round in which the test itself was
// late (a gap between two writes as long as the settle delay, which a
// loaded machine can cause) proves nothing and is run again.
func TestWatcherWaitsForTheFileToSettle(t *testing.T) {
	const settle = 1500 * time.Millisecond
	for round := 0; ; round++ {
		path := writeManifest(t, "[[tools]]\nname = \"t0\"\n", nil)
		svc, ev := startServiceWith(t, path, NewServiceConfig().WithWatchInterval(10*time.Millisecond).WithSettleDelay(settle))
		var maxGap time.Duration
		last := time.Now()
		const writes = 60
		for i := 1; i <= writes; i++ {
			require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf("[[tools]]\nname = \"t%d\"\n", i)), 0o644))
			now := time.Now()
			maxGap = max(maxGap, now.Sub(last))
			last = now
			time.Sleep(5 * time.Millisecond)
		}
		final := fmt.Sprintf("t%d", writes)
		ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == final && e.Available }, "the final content is loaded")
		if maxGap >= settle/2 && round < 3 {
			t.Logf("round %d: the test paused %v between two writes; running it again", round, maxGap)
			continue
		}
		var loaded []string
		for _, e := range ev.snapshot() {
			if e.Type == "tool" && e.Available {
				loaded = append(loaded, e.Name)
			}
		}
		assert.Equal(t, []string{final}, loaded, "only the settled content may be loaded (largest pause between writes: %v)", maxGap)
		assert.Equal(t, []string{final}, names(svc.Gate().AvailableTools(context.Background())))
		return
	}
}

// TestWatcherSurvivesHostileManifestPaths: the manifest replaced by a FIFO
// or a device is refused at once, as an error, and the watcher (and the
// service) carry on; on the old code the FIFO's open blocked the watcher
// for good.
func TestWatcherSurvivesHostileManifestPaths(t *testing.T) {
	path := writeManifest(t, "[[tools]]\nname = \"one\"\n", nil)
	svc, ev := startServiceWith(t, path, NewServiceConfig().WithWatchInterval(20*time.Millisecond).WithSettleDelay(20*time.Millisecond))

	require.NoError(t, os.Remove(path))
	require.NoError(t, syscall.Mkfifo(path, 0o644))
	bad := ev.wait(t, func(e Event) bool { return e.Type == "reload" && e.State == "error" }, "the FIFO is refused")
	assert.Contains(t, bad.Reason, "not a regular file")

	require.NoError(t, os.Remove(path))
	require.NoError(t, os.Symlink("/dev/zero", path))
	require.Eventually(t, func() bool {
		_, err := svc.LastReload()
		return err != nil && strings.Contains(err.Error(), "device")
	}, 5*time.Second, time.Millisecond, "/dev/zero is refused")

	require.NoError(t, os.Remove(path))
	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"two\"\n"), 0o644))
	ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == "two" && e.Available }, "a good manifest again is loaded")
	assert.Equal(t, []string{"two"}, names(svc.Gate().AvailableTools(context.Background())))
}

// TestReplacedGatesCloseAtOnce: a reload closes the Gate it replaces as
// soon as its probes stop, not seconds later (5 s on the old code), so
// that a reload storm does not keep a Gate's instances per reload alive.
func TestReplacedGatesCloseAtOnce(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "[[tools]]\nname = \"t%d\"\nprobe = \"env:HOME\"\n", i)
	}
	path := writeManifest(t, b.String(), nil)
	svc, err := OpenService(context.Background(), path, NewServiceConfig().WithWatchInterval(0))
	require.NoError(t, err)
	defer svc.Close(context.Background())
	ctx := context.Background()

	for range 10 {
		old := svc.Gate()
		require.NoError(t, svc.Reload(ctx))
		require.Eventually(t, old.Engine().life.closed, 3*time.Second, time.Millisecond, "the replaced Gate is closed at once, not after a delay")
	}
}

// TestWatcherIgnoresItsNeighbours: a file written without pause beside the
// manifest (a log, an editor's swap file) is not the manifest changing, and
// must not keep the watcher waiting for quiet: an edit is loaded one settle
// delay after it, not after the ten the watcher waits at most.
func TestWatcherIgnoresItsNeighbours(t *testing.T) {
	const settle = 500 * time.Millisecond
	path := writeManifest(t, "[[tools]]\nname = \"one\"\n", nil)
	svc, ev := startServiceWith(t, path, NewServiceConfig().WithWatchInterval(time.Hour).WithSettleDelay(settle))
	require.Eventually(t, func() bool { return svc.WatchMode() == WatchInotify }, 5*time.Second, time.Millisecond)

	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		log := filepath.Join(filepath.Dir(path), "serve.log")
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
				f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err == nil {
					_, _ = f.WriteString("a line\n")
					_ = f.Close()
				}
			}
		}
	}()
	defer func() { close(stop); <-done }()

	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"two\"\n"), 0o644))
	require.Eventually(t, func() bool {
		for _, e := range ev.snapshot() {
			if e.Type == "tool" && e.Name == "two" && e.Available {
				return true
			}
		}
		return false
	}, 8*settle, 10*time.Millisecond, "the edit is loaded while the neighbour keeps writing")
}

// TestWatcherFollowsConfigMapSwaps: Kubernetes updates a mounted ConfigMap
// by pointing the "..data" symlink at a new folder; the manifest, a symlink
// through "..data", never gets an event of its own. The swap is seen by
// file events alone (the poll is an hour away).
func TestWatcherFollowsConfigMapSwaps(t *testing.T) {
	dir := t.TempDir()
	write := func(version, content string) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, version), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, version, "gate.toml"), []byte(content), 0o644))
	}
	write("..v1", "[[tools]]\nname = \"one\"\n")
	require.NoError(t, os.Symlink("..v1", filepath.Join(dir, "..data")))
	path := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.Symlink(filepath.Join("..data", "gate.toml"), path))
	svc, ev := startServiceWith(t, path, NewServiceConfig().WithWatchInterval(time.Hour).WithSettleDelay(20*time.Millisecond))
	require.Eventually(t, func() bool { return svc.WatchMode() == WatchInotify }, 5*time.Second, time.Millisecond)

	write("..v2", "[[tools]]\nname = \"two\"\n")
	require.NoError(t, os.Symlink("..v2", filepath.Join(dir, "..data_tmp")))
	require.NoError(t, os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")))
	ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == "two" && e.Available }, "the swapped ConfigMap is loaded")
	assert.Equal(t, []string{"two"}, names(svc.Gate().AvailableTools(context.Background())))
}
