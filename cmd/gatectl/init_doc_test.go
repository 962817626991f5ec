package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testsvc"
)

// TestInitDoc plays docs/CLI.md's "gatectl init" on the machine the page
// describes (two API keys, a Redis on 127.0.0.1:6379, seven programs on
// PATH; then a bare one), with a real Redis standing in at that address,
// and compares each command's output with the page (-update rewrites it).
func TestInitDoc(t *testing.T) {
	page, err := filepath.Abs(filepath.Join("..", "..", "docs", "CLI.md"))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	t.Setenv("GATE_MANIFEST", "")

	redis := testsvc.Redis(t, "")
	_, port, err := net.SplitHostPort(redis)
	require.NoError(t, err)
	ports := doctest.Ports{"6379": port}
	keys := map[string]string{"OPENAI_API_KEY": "...", "GITHUB_TOKEN": "..."}
	m := bareMachine(t).withEnv(keys).withService(probes.Redis, redis)
	m.path = programsIn(t, "git", "docker", "kubectl", "node", "python3", "jq", "curl")
	initOut := func(m machine, args ...string) string {
		var out bytes.Buffer
		initOn(m, args, &out, &out)
		return ports.FromRun(out.String())
	}
	compare := func(command, got string) {
		t.Helper()
		doctest.Compare(t, page, 0, command, got, golden.Update())
	}

	compare("OPENAI_API_KEY=... GITHUB_TOKEN=... gatectl init          # with a Redis on 127.0.0.1:6379", initOut(m))
	b, err := os.ReadFile("gate.toml")
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	require.Greater(t, len(lines), 41)
	compare("sed -n 18,41p gate.toml", ports.FromRun(strings.Join(lines[17:41], "")))

	for k, v := range keys {
		t.Setenv(k, v)
	}
	t.Setenv("PATH", m.path)
	_, stdout, stderr := gatectl(t, "check", "-m", "gate.toml")
	compare("OPENAI_API_KEY=... GITHUB_TOKEN=... gatectl check -m gate.toml", ports.FromRun(stdout+stderr))

	compare("gatectl init", initOut(m))
	out := initOut(bareMachine(t), "--force")
	b, err = os.ReadFile("gate.toml")
	require.NoError(t, err)
	lines = strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	compare("env -i PATH=/nonexistent gatectl init --force && tail -12 gate.toml", out+strings.Join(lines[len(lines)-12:], "")+"\n")
}
