package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failures stands in for a test, recording its failures; FailNow ends the
// goroutine, as testing's does.
type failures struct {
	testing.TB
	errors []string
}

func (f *failures) Helper() {}
func (f *failures) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *failures) FailNow() { runtime.Goexit() }

// checkIn runs Check against a stand-in test, in a goroutine of its own
// so that a FailNow ends only that.
func checkIn(t *testing.T, path string, got []byte) (bool, []string) {
	f := &failures{TB: t}
	var ok bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		ok = Check(f, path, got)
	}()
	<-done
	return ok, f.errors
}

func setUpdate(t *testing.T, on bool) {
	old := *update
	*update = on
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "out.json")

	setUpdate(t, false)
	ok, errs := checkIn(t, path, []byte("one\n"))
	assert.False(t, ok)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "golden file "+path+": go test -update creates it")

	setUpdate(t, true)
	ok, errs = checkIn(t, path, []byte("one\n"))
	assert.True(t, ok)
	assert.Empty(t, errs)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "one\n", string(b), "-update writes the file, and the directories above it")

	setUpdate(t, false)
	ok, errs = checkIn(t, path, []byte("one\n"))
	assert.True(t, ok)
	assert.Empty(t, errs)

	ok, errs = checkIn(t, path, []byte("two\n"))
	assert.False(t, ok)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "golden file "+path+" differs: if the change is right, go test -update rewrites it")
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "one\n", string(b), "without -update the file is left as it was")
}
