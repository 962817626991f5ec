package runtime

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
)

// TestOpenShowsTheLinesItParsed: a problem found while opening shows the
// source line of the manifest as Open parsed it, even when the file has
// changed since (here rewritten as the module's compile ends, which fails
// at once: its timeout has passed before it starts).
func TestOpenShowsTheLinesItParsed(t *testing.T) {
	path := writeManifest(t, "[[tools]]\nname = \"asker\"\nprobe = { module = \"probes/ask.wasm\" }\n",
		map[string][]byte{"probes/ask.wasm": readFile(t, hostilePath("ask"))})
	rewrite := func(string, int) func(error) {
		return func(error) {
			require.NoError(t, os.WriteFile(path, []byte("# rewritten\n# rewritten\n# rewritten\n"), 0o644))
		}
	}
	engine := NewEngineConfig().WithCacheDir("").WithCompileTimeout(time.Nanosecond).WithCompileObserver(rewrite)
	_, err := Open(context.Background(), path, NewGateConfig().WithEngine(engine))
	var errs manifest.Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), path+":3:1: tools[0].probe: ")
	assert.Contains(t, errs[0].Error(), "compile timeout")
	assert.Regexp(t, `^   3 \| probe = \{ module = "probes/ask.wasm" \}\n     \| \^ `, errs[0].Detail())
}
