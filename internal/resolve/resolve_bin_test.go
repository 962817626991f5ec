package resolve

import (
	"context"
	"github.com/gate-dev/gate/internal/grants"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rtestWrite creates path (and its parent directories) with the given
// content and mode.
func rtestWrite(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), mode))
	require.NoError(t, os.Chmod(path, mode)) // WriteFile's mode is filtered by umask
}

func TestBinResolver(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	rtestWrite(t, filepath.Join(a, "tool-exec"), "#!/bin/sh\n", 0o755)
	rtestWrite(t, filepath.Join(a, "tool-noexec"), "#!/bin/sh\n", 0o644)
	require.NoError(t, os.MkdirAll(filepath.Join(a, "shadowed"), 0o755)) // a dir named like a binary
	rtestWrite(t, filepath.Join(b, "shadowed"), "#!/bin/sh\n", 0o755)
	require.NoError(t, os.MkdirAll(filepath.Join(a, "only-dir"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(a, "tool-exec"), filepath.Join(b, "tool-link")))
	require.NoError(t, os.Symlink(filepath.Join(a, "gone"), filepath.Join(b, "dangling")))

	pathEnv := a + string(os.PathListSeparator) + b + string(os.PathListSeparator) + os.Getenv("PATH")
	r := NewBinResolver(pathEnv)

	shPath, err := exec.LookPath("sh")
	require.NoError(t, err, "this test needs sh on PATH")

	cases := []struct {
		name string
		want bool
	}{
		{"sh", true},
		{"ls", true},
		{"no-such-binary-xyz", false},
		{"tool-exec", true},
		{"tool-noexec", false},
		{"shadowed", true}, // the directory in a is skipped, the file in b found
		{"only-dir", false},
		{"tool-link", true},
		{"dangling", false},
		{".", false},
		{"..", false},
		{shPath, true},
		{filepath.Join(a, "tool-exec"), true},
		{filepath.Join(a, "tool-noexec"), false},
		{filepath.Join(a, "only-dir"), false},
		{filepath.Join(tmp, "missing"), false},
	}
	// exec.LookPath over the same PATH is the ground truth.
	t.Setenv("PATH", pathEnv)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Resolve(context.Background(), tc.name)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			_, lookErr := exec.LookPath(tc.name)
			assert.Equal(t, lookErr == nil, got, "exec.LookPath disagrees")
		})
	}
}

func TestBinResolverBadSpec(t *testing.T) {
	r := NewBinResolver(os.Getenv("PATH"))
	for _, name := range []string{"./sh", "bin/sh", "", "sh\x00"} {
		got, err := r.Resolve(context.Background(), name)
		assert.ErrorIs(t, err, grants.ErrBadSpec, "%q", name)
		assert.False(t, got)
	}
}

// Empty and relative PATH entries would make the answer depend on gate's
// working directory; they are ignored.
func TestBinResolverIgnoresEmptyAndRelativeEntries(t *testing.T) {
	tmp := t.TempDir()
	rtestWrite(t, filepath.Join(tmp, "cwdtool"), "#!/bin/sh\n", 0o755)
	rtestWrite(t, filepath.Join(tmp, "rel", "reltool"), "#!/bin/sh\n", 0o755)
	t.Chdir(tmp)
	r := NewBinResolver(":.:rel:")
	for _, name := range []string{"cwdtool", "reltool"} {
		got, err := r.Resolve(context.Background(), name)
		require.NoError(t, err)
		assert.False(t, got, name)
	}
}

func TestBinResolverCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewBinResolver(os.Getenv("PATH")).Resolve(ctx, "sh")
	assert.ErrorIs(t, err, context.Canceled)
}

func BenchmarkResolveBin(b *testing.B) {
	r := NewBinResolver(os.Getenv("PATH"))
	for _, name := range []string{"sh", "no-such-binary-xyz"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Resolve(ctx, name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
