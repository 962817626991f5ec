package mcpgw_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onPath puts this test binary on gate's PATH under the name program,
// in a directory of its own that no shell searches by default, as npm
// puts a server's bin where only PATH leads npx's shell to it.
func onPath(t *testing.T, program string) {
	t.Helper()
	bin := t.TempDir()
	require.NoError(t, os.Symlink(exe(t), filepath.Join(bin, program)))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// throughShell is the manifest entry of a stdio upstream launched the
// way npx and uvx launch one: a shell that finds the server's program on
// its PATH. The server is the "env" upstream, whose getenv tool answers
// a variable of its environment.
func throughShell(name, program, extra string) string {
	return fmt.Sprintf(`[[servers]]
name = %q
prefix = "%s_"
command = ["sh", "-c", "exec %s"]
env = { GATE_TEST_UPSTREAM = "env", USER = "from-env" }
%s
`, name, name, program, extra)
}

// A stdio upstream gets the environment the MCP SDKs give a server they
// launch (HOME, LOGNAME, PATH, SHELL, TERM, USER from gate's), so that
// one launched through a shell finds its program on PATH. What env names
// is env's; a value that is a shell function is left out, and nothing
// else of gate's environment is passed.
func TestStdioUpstreamGetsTheDefaultEnvironment(t *testing.T) {
	onPath(t, "gate-test-upstream")
	t.Setenv("HOME", "/home/of-gate")
	t.Setenv("LOGNAME", "gate-user")
	t.Setenv("TERM", "() { echo not a terminal; }")
	t.Setenv("GATE_TEST_NOT_PASSED", "kept from the upstream")
	h := start(t, throughShell("viapath", "gate-test-upstream", ""), fastConfig())
	c := h.client()
	waitTool(t, c, "viapath_getenv")

	tests := []struct{ name, want string }{
		{"PATH", os.Getenv("PATH")},
		{"HOME", "/home/of-gate"},
		{"LOGNAME", "gate-user"},
		{"USER", "from-env"},
		{"TERM", ""},
		{"GATE_TEST_NOT_PASSED", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.call(t, "viapath_getenv", map[string]any{"name": tt.name})
			require.NoError(t, err)
			assert.Equal(t, tt.want, textOf(res))
		})
	}
}

// default_env = false gives the command only env and pass_env: the shell
// finds no program on a PATH it was not given, exits with status 127,
// and the upstream's reason says what that status likely means.
func TestNoDefaultEnvironmentAndCommandNotFound(t *testing.T) {
	onPath(t, "gate-test-upstream")
	h := start(t, throughShell("nopath", "gate-test-upstream", "default_env = false"), fastConfig())
	why := waitDown(t, h, "nopath", "the command exited with status 127 before answering initialize")
	assert.Contains(t, why, `; status 127 is a shell's "command not found": is the program it runs on the PATH that default_env or pass_env gives it?`)
	assert.Contains(t, why, "gate-test-upstream: not found", "the shell's last line, as before")

	h.rewrite(throughShell("nopath", "gate-test-upstream", `default_env = false
pass_env = ["PATH"]`))
	waitTool(t, h.client(), "nopath_getenv")
}

// Another exit status is said as it is, without the hint.
func TestExitStatusOtherThanNotFoundHasNoHint(t *testing.T) {
	h := start(t, `[[servers]]
name = "fails"
command = ["sh", "-c", "echo cannot open the database >&2; exit 126"]
`, fastConfig())
	why := waitDown(t, h, "fails", "the command exited with status 126 before answering initialize; its last line on stderr: cannot open the database")
	assert.NotContains(t, why, "not found")
}
