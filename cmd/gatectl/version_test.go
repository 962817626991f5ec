package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatVersion(t *testing.T) {
	const rev = "8d18794a1b2c3d4e5f60718293a4b5c6d7e8f901"
	wazero := []*debug.Module{{Path: "github.com/tetratelabs/wazero", Version: "v1.9.0"}, {Path: "golang.org/x/sys", Version: "v0.48.0"}}
	vcs := func(kv ...string) []debug.BuildSetting {
		s := []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "vcs", Value: "git"}}
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		deps     []*debug.Module
		want     string
	}{
		{"a module version", "v1.4.0", vcs("vcs.revision", rev), wazero, "v1.4.0 (wazero v1.9.0)"},
		{"a tagged release, changed", "v1.4.0+dirty", vcs("vcs.revision", rev, "vcs.modified", "true"), wazero, "v1.4.0+dirty (wazero v1.9.0)"},
		{"a pseudo-version from the clone's commit", "v0.0.0-20261202035625-8d18794a1b2c+dirty",
			vcs("vcs.revision", rev, "vcs.time", "2026-12-02T03:56:25Z", "vcs.modified", "true"), wazero,
			"devel 8d18794a1b2c+dirty 2026-12-02T03:56:25Z (wazero v1.9.0)"},
		{"a pseudo-version from a module proxy", "v0.0.0-20261202035625-8d18794a1b2c", nil, wazero, "v0.0.0-20261202035625-8d18794a1b2c (wazero v1.9.0)"},
		{"a clean clone", "(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-12-02T03:56:25Z", "vcs.modified", "false"), wazero,
			"devel 8d18794a1b2c 2026-12-02T03:56:25Z (wazero v1.9.0)"},
		{"a changed clone", "(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-12-02T03:56:25Z", "vcs.modified", "true"), wazero,
			"devel 8d18794a1b2c+dirty 2026-12-02T03:56:25Z (wazero v1.9.0)"},
		{"a time not in UTC", "(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-12-02T04:56:25+01:00"), nil,
			"devel 8d18794a1b2c 2026-12-02T03:56:25Z"},
		{"no time", "(devel)", vcs("vcs.revision", rev, "vcs.modified", "true"), nil, "devel 8d18794a1b2c+dirty"},
		{"a time that is not one", "(devel)", vcs("vcs.revision", rev, "vcs.time", "\x1b[2Jyesterday"), nil, "devel 8d18794a1b2c"},
		{"a short revision", "(devel)", vcs("vcs.revision", "abc"), nil, "devel abc"},
		{"no vcs settings (go run, -buildvcs=false)", "(devel)", vcs(), wazero, "(devel) (wazero v1.9.0)"},
		{"no main version at all", "", nil, nil, "(devel)"},
	}
	for _, tt := range tests {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/gate-dev/gate", Version: tt.main}, Settings: tt.settings, Deps: tt.deps}
		assert.Equal(t, tt.want, formatVersion(info), tt.name)
	}
}

// TestVersionOfABuild: gatectl built by the real go command from a git
// repository holding this source says which commit it was built from and
// when that was committed, and +dirty once the work tree has a change.
func TestVersionOfABuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gatectl twice")
	}
	git := func(dir string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=gate", "-c", "user.email=gate@localhost"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2026-12-02T04:56:25+01:00", "GIT_AUTHOR_DATE=2026-12-02T04:56:25+01:00")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v:\n%s", args, out)
		return strings.TrimSpace(string(out))
	}
	// The source as it is now, committed or not, as one commit of a
	// repository of its own (a git worktree, whose .git is a file, gets
	// no vcs.* settings from the go command).
	top := git(".", "rev-parse", "--show-toplevel")
	repo := filepath.Join(t.TempDir(), "gate")
	for _, f := range strings.Split(git(top, "ls-files", "--cached", "--others", "--exclude-standard"), "\n") {
		data, err := os.ReadFile(filepath.Join(top, f))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted, not yet committed
		}
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(repo, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(repo, f), data, 0o644))
	}
	git(repo, "init", "--quiet")
	git(repo, "add", ".")
	git(repo, "commit", "--quiet", "-m", "the source under test")
	head := git(repo, "rev-parse", "HEAD")

	versionOf := func() string {
		// -buildvcs=true: stamp the commit even where GOFLAGS turns it off.
		bin := filepath.Join(t.TempDir(), "gatectl")
		build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/gatectl")
		build.Dir = repo
		out, err := build.CombinedOutput()
		require.NoError(t, err, "go build:\n%s", out)
		out, err = exec.Command(bin, "--version").Output()
		require.NoError(t, err)
		return string(out)
	}
	wazero := `\(wazero v\S+\)\n$`
	assert.Regexp(t, `^gatectl devel `+head[:revisionLength]+` 2026-12-02T03:56:25Z `+wazero, versionOf(), "a clean work tree")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "README.md"), []byte("changed\n"), 0o644))
	assert.Regexp(t, `^gatectl devel `+head[:revisionLength]+`\+dirty 2026-12-02T03:56:25Z `+wazero, versionOf(), "a changed work tree")
}
