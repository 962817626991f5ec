package runtime

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gate-dev/gate/internal/cachedir"
)

// cacheDirEnv names the environment variable that, when set, is
// DefaultCacheDir; set to "", it turns the default on-disk cache off.
const cacheDirEnv = "GATE_CACHE_DIR"

// DefaultCacheDir is where an engine keeps compiled probes unless
// EngineConfig.WithCacheDir says otherwise, and where gatectl keeps them:
// $GATE_CACHE_DIR if it is set ("" for none), else "gate/wazero" in the
// user's cache directory (os.UserCacheDir: ~/.cache/gate/wazero on Linux),
// else "" when there is none (no HOME).
func DefaultCacheDir() string {
	if d, ok := os.LookupEnv(cacheDirEnv); ok {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gate", "wazero")
	}
	return ""
}

// resolveCacheDir is the directory the engine keeps compiled probes in,
// "" for none, or why the one WithCacheDir chose cannot be used. The default
// (DefaultCacheDir) is made private (0700) if it does not exist, and
// used only if it is a real directory of this user that no one else may
// write to: wazero runs what it finds there as native code. When it
// cannot be used the engine compiles without it, as if there were none.
func (c EngineConfig) resolveCacheDir() (string, error) {
	if c.cacheDirSet {
		if c.cacheDir == "" {
			return "", nil
		}
		if err := os.MkdirAll(c.cacheDir, 0o755); err != nil {
			return "", fmt.Errorf("engine config: cache dir: %w", err)
		}
		return c.cacheDir, nil
	}
	dir := DefaultCacheDir()
	if dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil || cachedir.CheckDir(dir) != nil {
		return "", nil
	}
	return dir, nil
}
