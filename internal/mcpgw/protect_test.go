package mcpgw_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// protectEnv makes this test binary a gate stand-in ("protected" calls
// ProtectProcess first, "unprotected" does not) that starts a child of
// its own ("child"), which prints what it reads of its parent's
// environment.
const protectEnv = "GATE_TEST_PROTECT"

func runProtectMode(mode string) {
	switch mode {
	case "protected", "unprotected":
		if mode == "protected" {
			if err := mcpgw.ProtectProcess(); err != nil {
				fmt.Println("ProtectProcess:", err)
				os.Exit(1)
			}
		}
		exe, _ := os.Executable()
		child := exec.Command(exe)
		child.Env = []string{protectEnv + "=child"} // what env and pass_env give: nothing of the secret
		out, err := child.CombinedOutput()
		fmt.Print(string(out))
		if err != nil {
			os.Exit(1)
		}
	case "child":
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", os.Getppid()))
		if err != nil {
			fmt.Println("cannot read it:", err)
			return
		}
		fmt.Printf("read: %q\n", b)
	}
}

// A process that called ProtectProcess keeps its environment from the
// processes it starts, which run as its user; one that did not does not.
// The stand-in runs as nobody when the test runs as root, whose
// CAP_SYS_PTRACE reads any process's environment.
func TestProtectProcessKeepsTheEnvironmentFromChildren(t *testing.T) {
	dir, err := os.MkdirTemp("", "gateway-protect-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	b, err := os.ReadFile(exe(t))
	require.NoError(t, err)
	bin := filepath.Join(dir, "gateway.test")
	require.NoError(t, os.WriteFile(bin, b, 0o755))
	for mode, want := range map[string]string{
		"unprotected": "s3cr3t-of-the-parent",
		"protected":   "cannot read it: open /proc/",
	} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Env = []string{protectEnv + "=" + mode, "GATE_TEST_SECRET=s3cr3t-of-the-parent"}
			cmd.Dir = dir
			if os.Geteuid() == 0 {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			}
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Contains(t, string(out), want)
			if mode == "protected" {
				assert.Contains(t, string(out), "permission denied")
				assert.NotContains(t, string(out), "s3cr3t")
			}
		})
	}
}
