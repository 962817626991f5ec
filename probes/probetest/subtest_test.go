package probetest_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/probes"
)

// childTest is a probe author's test with one case that passes and one
// that fails: the module (gate's standard env probe, as the author's own
// file) answers unavailable without the variable, and the case wants
// available.
const childTest = `package check

import (
	"os"
	"testing"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

func TestEnvProbe(t *testing.T) {
	wasm, err := os.ReadFile("env.wasm")
	if err != nil {
		t.Fatal(err)
	}
	probetest.Test(t, wasm, probetest.Options{
		Grants: hostfuncs.Grants{Env: []string{"API_KEY"}},
		Config: map[string]string{"vars": "API_KEY"},
		Cases: []probetest.Case{
			{Name: "set", Env: map[string]string{"API_KEY": "k"}, Want: runtime.Available},
			{Name: "wrongly wanted", Want: runtime.Available},
		},
	})
}
`

// TestCasesAreSubtests runs a probe author's test with go test, as its
// author would: each case is a subtest, a failing case is reported under
// its own name with what it broke, and -run selects one case.
func TestCasesAreSubtests(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "check"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "check", "env_test.go"), []byte(childTest), 0o644))
	env, ok := probes.Wasm(probes.Env)
	require.True(t, ok)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "check", "env.wasm"), env, 0o644))
	writeChildModule(t, dir, "subtests", root)
	// goTest runs the child's tests and returns, per test and subtest,
	// how it ended and what it printed.
	goTest := func(run string) (map[string]string, map[string]string, error) {
		cmd := exec.Command("go", "test", "-count=1", "-json", "-run", run, "./check")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		out, err := cmd.Output()
		ended, printed := map[string]string{}, map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var ev struct{ Action, Test, Output string }
			require.NoError(t, json.Unmarshal([]byte(line), &ev), "go test -json: %s", out)
			switch ev.Action {
			case "pass", "fail", "skip":
				ended[ev.Test] = ev.Action
			case "output":
				printed[ev.Test] += ev.Output
			}
		}
		return ended, printed, err
	}

	ended, printed, err := goTest("TestEnvProbe")
	require.Error(t, err, "a failing case fails the test")
	assert.Equal(t, map[string]string{"": "fail", "TestEnvProbe": "fail", "TestEnvProbe/set": "pass", "TestEnvProbe/wrongly_wanted": "fail"}, ended)
	assert.Contains(t, printed["TestEnvProbe/wrongly_wanted"], `answers unavailable ("Missing environment variables: API_KEY"), want available`,
		"the violation is reported under its case")
	assert.NotContains(t, printed["TestEnvProbe/set"], "answers")

	ended, _, err = goTest("TestEnvProbe/set")
	require.NoError(t, err, "the passing case alone passes")
	assert.Equal(t, map[string]string{"": "pass", "TestEnvProbe": "pass", "TestEnvProbe/set": "pass"}, ended)
}
