package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckAnswersAtScale: every answer of a `gatectl check` of many
// tools that dial one loopback listener, which accepts every connection,
// is "available", at GOMAXPROCS 1 and 2 (what a container's CPU limit
// sets): 10,000 tcp tools, and 2,000 tools of a module of the manifest's
// own. gatectl runs as its own process, built as users build it (without
// the race detector). A run's budget must measure the probe, never the
// queue of other runs it waited in: with every run in flight at once, a
// quarter of 1,000 tcp tools answered "timeout" on one CPU. It runs serially
// (not in parallel with the process-level tests): beside them, a few of
// the 10,000 answered host_busy at GOMAXPROCS 1.
func TestCheckAnswersAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 tools in a process of their own")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	dir := t.TempDir()
	wasm, err := os.ReadFile("../../internal/probes/tcp.wasm")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "own.wasm"), wasm, 0o644))
	manifests := []struct {
		name  string
		tools int
		tool  string // one [[tools]] entry, %d its number
	}{
		{"tcp", 10_000, fmt.Sprintf("[[tools]]\nname = \"t%%d\"\nprobe = \"tcp:%s\"\n\n", addr)},
		{"module", 2_000, fmt.Sprintf("[[tools]]\nname = \"m%%d\"\n[tools.probe]\nmodule = \"own.wasm\"\nconfig = { addr = %q }\ngrants = { dial = [%q] }\n\n", addr, addr)},
	}
	bin := buildUserGatectl(t)
	for _, m := range manifests {
		var b strings.Builder
		for i := range m.tools {
			fmt.Fprintf(&b, m.tool, i)
		}
		path := filepath.Join(dir, m.name+".toml")
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
		for _, procs := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/GOMAXPROCS=%d", m.name, procs), func(t *testing.T) {
				cmd := exec.Command(bin, "check", "--json", "-m", path)
				cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", procs), "GATE_CACHE_DIR="+t.TempDir())
				out, err := cmd.Output()
				if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitUnavailable { // 1: some are not available, said below
					require.NoError(t, err, "gatectl check: %s", stderrOf(err))
				}
				var report struct {
					Tools []struct {
						Name, State, Code, Reason string
					} `json:"tools"`
				}
				require.NoError(t, json.Unmarshal(out, &report))
				require.Len(t, report.Tools, m.tools)
				wrong := map[string]int{}
				var first string
				for _, tool := range report.Tools {
					if tool.State != "available" {
						wrong[tool.State+" "+tool.Code]++
						if first == "" {
							first = tool.Name + ": " + tool.Reason
						}
					}
				}
				assert.Empty(t, wrong, "answers that are not available, by state and code; the first: %s", first)
			})
		}
	}
}

// stderrOf is what a command that failed wrote to its standard error.
func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
