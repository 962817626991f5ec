package manifest_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/gateway"
	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/skills"
)

// firstCode is the first `...` of a cell: the value a default is.
var firstCode = regexp.MustCompile("`([^`]*)`")

// TestManifestReferenceDefaults: the defaults docs/MANIFEST.md gives are
// the ones the runtime, the gateway and the skills package apply to a
// manifest that does not write the key.
func TestManifestReferenceDefaults(t *testing.T) {
	rows := manifest.ReadReference(t)
	def := func(section, key string) string {
		t.Helper()
		row, ok := rows[section][key]
		require.True(t, ok, "no row for %s in ## %s", key, section)
		m := firstCode.FindStringSubmatch(row.Default)
		require.NotNil(t, m, "line %d: the default of %s is not written as `value`", row.Line, key)
		return m[1]
	}
	dur := func(section, key string) time.Duration {
		t.Helper()
		d, err := time.ParseDuration(def(section, key))
		require.NoError(t, err, "the default of %s.%s", section, key)
		return d
	}
	engine := runtime.NewEngineConfig()
	assert.Equal(t, runtime.DefaultTTL, dur("`[runtime]`", "ttl"), "runtime.ttl")
	assert.Equal(t, runtime.DefaultGrace, dur("`[runtime]`", "grace"), "runtime.grace")
	assert.Equal(t, engine.Budget(), dur("`[runtime]`", "budget"), "runtime.budget")
	memory, err := manifest.ParseSize(def("`[runtime]`", "memory"))
	require.NoError(t, err)
	assert.Equal(t, engine.MemoryLimit(), memory, "runtime.memory")
	assert.Equal(t, gateway.DefaultCallTimeout, dur("`[[servers]]`", "call_timeout"), "servers.call_timeout")
	assert.Equal(t, gateway.DefaultBreakerWindow, dur("`[servers.breaker]`", "window"), "servers.breaker.window")
	assert.Equal(t, gateway.DefaultBreakerCooldown, dur("`[servers.breaker]`", "cooldown"), "servers.breaker.cooldown")
	assert.Equal(t, strconv.Itoa(gateway.DefaultBreakerFailures), def("`[servers.breaker]`", "failures"), "servers.breaker.failures")
	assert.Equal(t, skills.Level(0).String(), def("`[skills]`", "enforcement"), "skills.enforcement: the zero Level is what applies")
}
