package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// beneathModes runs f with each way OpenBeneath resolves a path here.
func beneathModes(t *testing.T, f func(t *testing.T)) {
	t.Run("default", f)
	if setOpenat2Missing != nil {
		t.Run("walk", func(t *testing.T) {
			setOpenat2Missing(t)
			f(t)
		})
	}
}

// TestReadBeneath: only a regular file below the root, reached without a
// link anywhere on the way, is read; every other path is refused at once,
// with an error that names it and says why.
func TestReadBeneath(t *testing.T) {
	beneathModes(t, func(t *testing.T) {
		outside := t.TempDir()
		secret := filepath.Join(outside, "secret")
		require.NoError(t, os.WriteFile(secret, []byte("secret"), 0o600))
		root := t.TempDir()
		mk := func(rel string) string {
			p := filepath.Join(root, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			return p
		}
		require.NoError(t, os.WriteFile(mk("skill/SKILL.md"), []byte("ok"), 0o644))
		require.NoError(t, os.Symlink(secret, mk("out/SKILL.md")))
		require.NoError(t, os.Symlink(filepath.Join(root, "skill/SKILL.md"), mk("in/SKILL.md")))
		require.NoError(t, os.Symlink(outside, mk("linkdir")))
		require.NoError(t, os.Symlink(filepath.Join(root, "skill"), mk("linkdir2")))
		require.NoError(t, syscall.Mkfifo(mk("fifo/SKILL.md"), 0o644))
		require.NoError(t, os.MkdirAll(mk("dir/SKILL.md"), 0o755))
		big, err := os.Create(mk("big/SKILL.md"))
		require.NoError(t, err)
		require.NoError(t, big.Truncate(100<<20))
		require.NoError(t, big.Close())

		tests := []struct {
			rel     string
			want    error
			wantMsg string
		}{
			{rel: "skill/SKILL.md"},
			{rel: "./skill/../skill/SKILL.md"},
			{rel: "out/SKILL.md", want: ErrLink},
			{rel: "in/SKILL.md", want: ErrLink},
			{rel: "linkdir/secret", want: ErrLink},
			{rel: "linkdir2/SKILL.md", want: ErrLink},
			{rel: "../" + filepath.Base(outside) + "/secret", want: ErrOutside},
			{rel: secret, want: ErrOutside},
			{rel: "fifo/SKILL.md", want: ErrNotRegular, wantMsg: "a FIFO"},
			{rel: "dir/SKILL.md", want: ErrNotRegular, wantMsg: "a directory"},
			{rel: "big/SKILL.md", want: ErrTooLarge, wantMsg: "104857600 bytes, over the limit of 1048576"},
			{rel: "missing/SKILL.md", want: os.ErrNotExist},
		}
		for _, tt := range tests {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() {
				defer close(done)
				b, err = ReadBeneath(root, tt.rel, 1<<20)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadBeneath(%s) blocked", tt.rel)
			}
			if tt.want == nil {
				require.NoError(t, err, tt.rel)
				assert.Equal(t, "ok", string(b))
				continue
			}
			require.ErrorIs(t, err, tt.want, tt.rel)
			assert.Contains(t, err.Error(), root, tt.rel)
			assert.Contains(t, err.Error(), tt.wantMsg, tt.rel)
		}
	})
}

// A file swapped for a link to a file outside the root, again and again
// while it is read, is never read through the link: each read gets the
// file or an error.
func TestReadBeneathHoldsAgainstSwaps(t *testing.T) {
	beneathModes(t, func(t *testing.T) {
		outside := t.TempDir()
		secret := filepath.Join(outside, "secret")
		require.NoError(t, os.WriteFile(secret, []byte("SECRET"), 0o600))
		root := t.TempDir()
		dir := filepath.Join(root, "skill")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		file := filepath.Join(dir, "SKILL.md")
		require.NoError(t, os.WriteFile(file, []byte("ok"), 0o644))
		stop := make(chan struct{})
		var swaps atomic.Int64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tmp := filepath.Join(dir, "tmp")
				_ = os.Remove(tmp)
				if i%2 == 0 {
					_ = os.Symlink(secret, tmp)
				} else {
					_ = os.WriteFile(tmp, []byte("ok"), 0o644)
				}
				if os.Rename(tmp, file) == nil {
					swaps.Add(1)
				}
			}
		}()
		reads, refused := 0, 0
		for (swaps.Load() < 2000 || reads < 2000) && reads < 2_000_000 {
			b, err := ReadBeneath(root, "skill/SKILL.md", 1<<20)
			reads++
			if err != nil {
				refused++
				continue
			}
			require.Equal(t, "ok", string(b), "read %d served %q", reads, b)
		}
		close(stop)
		wg.Wait()
		t.Logf("%d reads, %d refused, over %d swaps", reads, refused, swaps.Load())
		assert.NotZero(t, refused, "no read ever met the link: the swaps did not race the reads")
		// The same swaps through Read, which follows links, serve the
		// secret: the test can fail.
		require.NoError(t, os.Remove(file))
		require.NoError(t, os.Symlink(secret, file))
		b, err := Read(file, 1<<20)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(b), "SECRET"))
	})
}

// setOpenat2Missing, where there is another way to resolve, makes the
// test use it.
var setOpenat2Missing func(t *testing.T)
