package mcpgw

import (
	"testing"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command's environment: the default one unless turned off, under
// what env and pass_env give, each variable once.
func TestCommandEnv(t *testing.T) {
	for _, n := range defaultEnvNames {
		t.Setenv(n, "gate's "+n)
	}
	t.Setenv("SHELL", "() { :; }")
	t.Setenv("GATE_TEST_PASSED", "passed")
	off := false
	tests := []struct {
		name string
		conn manifest.Upstream
		want []string
	}{
		{"default", manifest.Upstream{}, []string{
			"HOME=gate's HOME", "LOGNAME=gate's LOGNAME", "PATH=gate's PATH", "TERM=gate's TERM", "USER=gate's USER",
		}},
		{"env and pass_env over the default", manifest.Upstream{
			Env:     []manifest.EnvVar{{Name: "PATH", Value: "/opt/bin"}, {Name: "X", Value: "x"}},
			PassEnv: []string{"GATE_TEST_PASSED", "HOME"},
		}, []string{
			"LOGNAME=gate's LOGNAME", "TERM=gate's TERM", "USER=gate's USER",
			"PATH=/opt/bin", "X=x", "GATE_TEST_PASSED=passed", "HOME=gate's HOME",
		}},
		{"default_env = false", manifest.Upstream{DefaultEnv: &off, PassEnv: []string{"GATE_TEST_PASSED"}}, []string{"GATE_TEST_PASSED=passed"}},
		{"default_env = false, nothing else", manifest.Upstream{DefaultEnv: &off}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var secrets redactor
			got, err := commandEnv(&tt.conn, &secrets)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// Turning the default environment off, or a change to a variable of it,
// restarts the command (its connection key changes); a url upstream's
// key has none of it.
func TestConnKeyHasTheDefaultEnvironment(t *testing.T) {
	t.Setenv("PATH", "/usr/bin")
	off := false
	cmd := manifest.Upstream{Command: []string{"server"}}
	before := connKey(&cmd)
	assert.NotEqual(t, before, connKey(&manifest.Upstream{Command: []string{"server"}, DefaultEnv: &off}))
	t.Setenv("PATH", "/usr/local/bin:/usr/bin")
	assert.NotEqual(t, before, connKey(&cmd))

	url := manifest.Upstream{URL: "http://127.0.0.1:9/mcp"}
	before = connKey(&url)
	t.Setenv("PATH", "/bin")
	assert.Equal(t, before, connKey(&url))
}
