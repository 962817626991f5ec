package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY opens a real pseudo-terminal of cols columns: the master end,
// which reads what is written to the terminal, and the terminal itself.
func openPTY(t *testing.T, cols int) (master, term *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { master.Close() })
	require.NoError(t, unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0), "unlockpt")
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	require.NoError(t, err, "ptsname")
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { term.Close() })
	require.NoError(t, unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: uint16(cols)}))
	return master, term
}

// readAll reads what was written to the terminal once it is closed, as
// lines without the terminal's carriage returns.
func readAll(t *testing.T, master, term *os.File) string {
	t.Helper()
	done := make(chan []byte)
	go func() {
		var b bytes.Buffer
		_, err := io.Copy(&b, master)
		// Linux ends a master's reads with EIO once the terminal is closed.
		if err != nil && !errors.Is(err, syscall.EIO) {
			b.WriteString("\nread error: " + err.Error())
		}
		done <- b.Bytes()
	}()
	require.NoError(t, term.Close())
	return strings.ReplaceAll(string(<-done), "\r\n", "\n")
}

func TestOutputWidth(t *testing.T) {
	noEnv := func(string) string { return "" }
	columns := func(v string) func(string) string {
		return func(k string) string {
			if k == "COLUMNS" {
				return v
			}
			return ""
		}
	}
	_, term := openPTY(t, 93)
	assert.Equal(t, 93, outputWidth(term, noEnv), "the terminal's width")
	assert.Equal(t, 60, outputWidth(term, columns("60")), "COLUMNS overrides it")
	assert.Equal(t, 93, outputWidth(term, columns("wide")), "a COLUMNS that is no number is ignored")
	assert.Equal(t, 93, outputWidth(term, columns("0")))
	assert.True(t, isTerminal(term))

	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.Equal(t, 0, outputWidth(w, columns("60")), "a pipe is never fitted, whatever COLUMNS says")
	assert.False(t, isTerminal(w))
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, 0, outputWidth(f, noEnv), "nor a file")
	assert.Equal(t, 0, outputWidth(&bytes.Buffer{}, columns("60")), "nor a buffer")
}

// TestCheckFitsTheTerminal: gatectl check writing to a real 80-column
// terminal fits every line of its table to it, clipping a long probe with
// an ellipsis and wrapping a long reason, whole, onto lines under its
// column; written to a pipe, the same check prints everything on one line.
func TestCheckFitsTheTerminal(t *testing.T) {
	vars := []string{"GATECTL_TEST_A_VERY_LONG_VARIABLE_NAME_ONE", "GATECTL_TEST_A_VERY_LONG_VARIABLE_NAME_TWO", "GATECTL_TEST_A_VERY_LONG_VARIABLE_NAME_THREE"}
	path := filepath.Join(t.TempDir(), "gate.toml")
	writeFile(t, path, "[[tools]]\nname = \"search_web\"\ndescription = \"x\"\nprobe = \"env:"+strings.Join(vars, ",")+"\"\n\n"+
		"[[tools]]\nname = \"echo\"\ndescription = \"y\"\n")
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	t.Setenv("COLUMNS", "")

	for _, cols := range []int{80, 60} {
		master, term := openPTY(t, cols)
		var stderr bytes.Buffer
		assert.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, term, &stderr))
		out := readAll(t, master, term)
		assert.Empty(t, stderr.String())
		assert.Contains(t, out, "search_web  unavailable")
		assert.Contains(t, out, "…", "the probe is clipped")
		squeezed := strings.Join(strings.Fields(out), "")
		assert.Contains(t, squeezed, "Missingenvironmentvariables:"+strings.Join(vars, ","), "the reason is wrapped, not cut")
		assert.Contains(t, out, "hidden tool(s).")
		assert.Contains(t, strings.Join(strings.Fields(out), " "), "(… cuts text to fit the terminal; --json or a pipe shows all of it.)")
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			assert.LessOrEqual(t, utf8.RuneCountInString(line), cols, "wider than the %d-column terminal: %q", cols, line)
		}
	}

	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	t.Setenv("COLUMNS", "40")
	assert.Equal(t, exitUnavailable, run([]string{"check", "-m", path}, w, io.Discard))
	require.NoError(t, w.Close())
	piped, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Contains(t, string(piped), "Missing environment variables: "+strings.Join(vars, ", "), "a pipe gets the whole reason")
	assert.NotContains(t, string(piped), "…")
	assert.NotContains(t, string(piped), "cuts text")
}
