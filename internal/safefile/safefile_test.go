package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRead: every kind of path a user (or an attacker editing a manifest)
// can name is answered at once, with an error that says what it is.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "probe.wasm")
	require.NoError(t, os.WriteFile(regular, []byte("\x00asm\x01\x00\x00\x00"), 0o644))
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(100<<20)) // sparse: 100 MB that cost nothing
	require.NoError(t, f.Close())
	link := filepath.Join(dir, "root")
	require.NoError(t, os.Symlink("/", link))
	toRegular := filepath.Join(dir, "link.wasm")
	require.NoError(t, os.Symlink(regular, toRegular))
	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink(loop, loop))
	toZero := filepath.Join(dir, "zero")
	require.NoError(t, os.Symlink("/dev/zero", toZero))

	tests := []struct {
		path    string
		want    error
		wantMsg string
	}{
		{path: regular},
		{path: toRegular},
		{path: fifo, want: ErrNotRegular, wantMsg: "a FIFO"},
		{path: "/dev/zero", want: ErrNotRegular, wantMsg: "a character device"},
		{path: dir, want: ErrNotRegular, wantMsg: "a directory"},
		{path: link, want: ErrNotRegular, wantMsg: "a directory"},
		{path: toZero, want: ErrNotRegular, wantMsg: "a character device"},
		{path: loop, want: syscall.ELOOP},
		{path: big, want: ErrTooLarge, wantMsg: "104857600 bytes, over the limit of 1048576"},
		{path: filepath.Join(dir, "missing"), want: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() {
				defer close(done)
				b, err = Read(tt.path, 1<<20)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Read(%s) blocked", tt.path)
			}
			if tt.want == nil {
				require.NoError(t, err)
				assert.Equal(t, "\x00asm\x01\x00\x00\x00", string(b))
				return
			}
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.path)
			assert.Contains(t, err.Error(), tt.wantMsg)
		})
	}
}
