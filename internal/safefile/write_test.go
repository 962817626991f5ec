package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWrite: the file appears whole with the mode asked for; a name that
// is taken (by a file, a directory or a link, even a dangling one) is
// refused unless replace, and a link is then replaced, never written
// through; no temporary file is left behind either way.
func TestWrite(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir, path string)
		replace bool
		wantErr error  // errors.Is
		wantMsg string // in the error
		kept    string // what path still holds after a refusal ("" for nothing to check)
	}{
		{name: "new file"},
		{name: "new file, replace", replace: true},
		{
			name:    "existing file refused",
			setup:   func(t *testing.T, _, path string) { require.NoError(t, os.WriteFile(path, []byte("old"), 0o644)) },
			wantErr: fs.ErrExist, wantMsg: "gate.toml: file already exists", kept: "old",
		},
		{
			name:    "existing file replaced",
			setup:   func(t *testing.T, _, path string) { require.NoError(t, os.WriteFile(path, []byte("old"), 0o600)) },
			replace: true,
		},
		{
			name: "dangling link refused",
			setup: func(t *testing.T, dir, path string) {
				require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), path))
			},
			wantErr: fs.ErrExist, wantMsg: "gate.toml: file already exists",
		},
		{
			name: "link replaced, not followed",
			setup: func(t *testing.T, dir, path string) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "target"), []byte("target"), 0o600))
				require.NoError(t, os.Symlink(filepath.Join(dir, "target"), path))
			},
			replace: true,
		},
		{
			name:    "directory refused",
			setup:   func(t *testing.T, _, path string) { require.NoError(t, os.Mkdir(path, 0o755)) },
			wantErr: fs.ErrExist, wantMsg: "gate.toml",
		},
		{
			name:    "directory not replaced",
			setup:   func(t *testing.T, _, path string) { require.NoError(t, os.Mkdir(path, 0o755)) },
			replace: true, wantMsg: "gate.toml",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "gate.toml")
			if tt.setup != nil {
				tt.setup(t, dir, path)
			}
			err := Write(path, []byte("new\n"), 0o644, tt.replace)
			if tt.wantMsg != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantMsg)
				if tt.wantErr != nil {
					assert.ErrorIs(t, err, tt.wantErr)
				}
				if tt.kept != "" {
					b, rerr := os.ReadFile(path)
					require.NoError(t, rerr)
					assert.Equal(t, tt.kept, string(b))
				}
			} else {
				require.NoError(t, err)
				fi, lerr := os.Lstat(path)
				require.NoError(t, lerr)
				assert.True(t, fi.Mode().IsRegular(), "a regular file, not a link: %v", fi.Mode())
				assert.Equal(t, fs.FileMode(0o644), fi.Mode().Perm())
				b, rerr := os.ReadFile(path)
				require.NoError(t, rerr)
				assert.Equal(t, "new\n", string(b))
			}
			if b, err := os.ReadFile(filepath.Join(dir, "target")); err == nil {
				assert.Equal(t, "target", string(b), "the link's target is untouched")
			}
			names, err := filepath.Glob(filepath.Join(dir, ".tmp-*"))
			require.NoError(t, err)
			assert.Empty(t, names, "no temporary file is left")
		})
	}
}

// TestWriteMissingDir: a folder that is not there is an error naming it.
func TestWriteMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "gate.toml")
	err := Write(path, []byte("x"), 0o644, false)
	require.Error(t, err)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Dir(path))
}
