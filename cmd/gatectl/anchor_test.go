package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The Python model that BenchmarkCheckVsPython measures gate against does
// gatectl check's job: for the benchmark's manifest, both of its forms
// (tools in code, and tools read from the manifest) list exactly the tools
// `gatectl check` finds available. An anchor that did less would flatter
// gate.
func TestPythonAnchorDoesTheCheck(t *testing.T) {
	t.Parallel()
	const n = 40
	manifest, env := envCheck(t, n, 3)

	cmd := exec.Command(buildGatectlBinary(t), "check", "--json", "-m", manifest)
	cmd.Env = env
	out, err := cmd.Output()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "some tools are unavailable: exit 1")
	require.Equal(t, 1, exit.ExitCode(), "%s", exit.Stderr)
	var report struct {
		Tools []struct {
			Name      string `json:"name"`
			Available bool   `json:"available"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(out, &report))
	var want []string
	for _, tl := range report.Tools {
		if tl.Available {
			want = append(want, tl.Name)
		}
	}
	slices.Sort(want)
	require.Len(t, want, (n+2)/3)

	for _, args := range [][]string{{fmt.Sprint(n)}, {"--manifest", manifest}} {
		py := exec.Command("python3", append([]string{"../../scripts/anchors/pymodel.py"}, args...)...)
		py.Env = env
		out, err := py.Output()
		require.NoError(t, err, "python3 is needed for the anchor (scripts/test installs it)")
		got := strings.Fields(string(out))
		slices.Sort(got)
		require.Equal(t, want, got, "pymodel.py %s", strings.Join(args, " "))
	}
}
