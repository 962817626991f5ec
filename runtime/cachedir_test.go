package runtime

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cachedFiles counts the regular files under dir (0 if it is not there).
func cachedFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			n++
		}
		return nil
	})
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	return n
}

// unsetEnv unsets key for the rest of the test.
func unsetEnv(t *testing.T, key string) {
	t.Setenv(key, "")
	require.NoError(t, os.Unsetenv(key))
}

// compileNever is an engine that cannot compile: its compile timeout has
// passed before a compile starts, so it loads a probe only from a cache.
func compileNever() EngineConfig {
	return NewEngineConfig().WithCompileTimeout(time.Nanosecond)
}

// openClose opens the manifest at path with cfg and closes it.
func openClose(t *testing.T, path string, cfg GateConfig) error {
	t.Helper()
	g, err := Open(context.Background(), path, cfg)
	if err == nil {
		require.NoError(t, g.Close(context.Background()))
	}
	return err
}

// TestOpenKeepsCompiledProbesByDefault: Open with the default
// configuration writes its compiled probe under the user's cache
// directory (or $GATE_CACHE_DIR), and a fresh Gate, with a fresh engine
// and wazero runtime, loads it from there: it opens with an engine that
// cannot compile, writing nothing new. Without the cache that engine's
// Open fails, so the load is not a compile.
func TestOpenKeepsCompiledProbesByDefault(t *testing.T) {
	path := writeManifest(t, "[[tools]]\nname = \"asker\"\nprobe = { module = \"probes/ask.wasm\" }\n",
		map[string][]byte{"probes/ask.wasm": readFile(t, hostilePath("ask"))})
	require.ErrorContains(t, openClose(t, path, NewGateConfig().WithEngine(compileNever().WithCacheDir(""))),
		"stopped after the compile timeout", "an engine that cannot compile, without a cache")

	for _, tt := range []struct {
		name string
		env  func(t *testing.T) (cache string)
	}{
		{"the user's cache directory", func(t *testing.T) string {
			unsetEnv(t, cacheDirEnv)
			home := t.TempDir()
			t.Setenv("HOME", home)           // macOS: ~/Library/Caches
			t.Setenv("XDG_CACHE_HOME", home) // Linux and the other Unixes
			user, err := os.UserCacheDir()
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(user, home), "%s is under the test's home", user)
			return filepath.Join(user, "gate", "wazero")
		}},
		{"GATE_CACHE_DIR", func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "mine")
			t.Setenv(cacheDirEnv, dir)
			return dir
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cache := tt.env(t)
			assert.Equal(t, cache, DefaultCacheDir())
			require.NoError(t, openClose(t, path, NewGateConfig()))
			written := cachedFiles(t, cache)
			require.Positive(t, written, "the compiled probe is under %s", cache)
			fi, err := os.Stat(cache)
			require.NoError(t, err)
			assert.Equal(t, fs.FileMode(0o700), fi.Mode().Perm(), "made private")

			require.NoError(t, openClose(t, path, NewGateConfig().WithEngine(compileNever())), "loaded from the cache")
			assert.Equal(t, written, cachedFiles(t, cache), "nothing compiled, nothing written")
		})
	}
}

// TestOpenSharesTheCacheDir: Gates opened at once, each with its own
// engine writing the same entry into the same directory (as processes
// sharing it do), all open, and leave one whole entry that a later Gate
// loads.
func TestOpenSharesTheCacheDir(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "shared")
	t.Setenv(cacheDirEnv, cache)
	path := writeManifest(t, "[[tools]]\nname = \"asker\"\nprobe = { module = \"probes/ask.wasm\" }\n",
		map[string][]byte{"probes/ask.wasm": readFile(t, hostilePath("ask"))})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			g, err := Open(context.Background(), path, NewGateConfig())
			if err == nil {
				err = g.Close(context.Background())
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.NoError(t, openClose(t, path, NewGateConfig().WithEngine(compileNever())), "loaded from the cache")
}

// TestDefaultCacheDirUnusable: a default directory that cannot be made,
// or that others may write to, is not used and does not stop Open; the
// same directory named with WithCacheDir is refused, or used as told.
func TestDefaultCacheDirUnusable(t *testing.T) {
	path := writeManifest(t, "[[tools]]\nname = \"echo\"\nprobe = \"env:HOME\"\n", nil)
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	underFile := filepath.Join(file, "cache")

	t.Setenv(cacheDirEnv, underFile)
	require.NoError(t, openClose(t, path, NewGateConfig()), "the default cannot be made: no cache")
	err := openClose(t, path, NewGateConfig().WithEngine(NewEngineConfig().WithCacheDir(underFile)))
	require.ErrorContains(t, err, "engine config: cache dir")

	open := filepath.Join(t.TempDir(), "open")
	require.NoError(t, os.Mkdir(open, 0o700))
	require.NoError(t, os.Chmod(open, 0o777))
	t.Setenv(cacheDirEnv, open)
	require.NoError(t, openClose(t, path, NewGateConfig()))
	assert.Zero(t, cachedFiles(t, open), "a directory others may write to is not used by default")

	t.Setenv(cacheDirEnv, "")
	assert.Empty(t, DefaultCacheDir(), "GATE_CACHE_DIR set empty turns the default off")
}
