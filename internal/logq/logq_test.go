package logq

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a log that is read.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLinesArriveInOrder: a log that is read gets every line, whole and in
// order, by the time Close returns.
func TestLinesArriveInOrder(t *testing.T) {
	var out syncBuffer
	q := New(&out, "test")
	var want strings.Builder
	for i := range 500 {
		line := fmt.Sprintf("line %d\n", i)
		want.WriteString(line)
		n, err := io.WriteString(q, line)
		require.NoError(t, err)
		require.Equal(t, len(line), n)
	}
	require.True(t, q.Close(10*time.Second), "a log that is read is written whole")
	assert.Equal(t, want.String(), out.String())
}

// TestStuckLogHoldsNobody: with a log that never takes a byte (a pipe
// nobody reads), writes return at once, past Max they are dropped, and
// Close returns at its bound; once the log takes bytes again, the lines
// kept are written and the dropped ones counted.
func TestStuckLogHoldsNobody(t *testing.T) {
	pr, pw := io.Pipe()
	q := New(pw, "gatectl serve")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 3 * Max {
			fmt.Fprintf(q, "line %d\n", i)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("writes to a stuck log did not return")
	}
	assert.False(t, q.Close(10*time.Millisecond), "Close returns at its bound, the log still stuck")

	// The log is read again: what was kept comes out, then the count.
	var got bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(&got, pr)
	}()
	require.True(t, q.Close(10*time.Second))
	pw.Close()
	<-read
	lines := strings.Split(strings.TrimSuffix(got.String(), "\n"), "\n")
	// What waited whenever the drain looked was written, whole and in
	// order; what found the queue full was dropped, and each count of
	// those is a line of its own after the lines taken with it.
	kept, dropped, last := 0, 0, -1
	for _, l := range lines {
		var n int
		if _, err := fmt.Sscanf(l, "line %d", &n); err == nil {
			require.Greater(t, n, last, "lines in order")
			last = n
			kept++
			continue
		}
		_, err := fmt.Sscanf(l, "gatectl serve: %d line(s) not logged: the log was not keeping up", &n)
		require.NoError(t, err, "a line that is neither a line written nor a count: %q", l)
		dropped += n
	}
	assert.Equal(t, "line 0", lines[0])
	assert.GreaterOrEqual(t, kept, Max, "the queue held Max lines while the log was stuck")
	assert.Positive(t, dropped, "past Max, lines were dropped")
	assert.Equal(t, 3*Max, kept+dropped, "every line written or counted")
}

// TestWriteAfterClose is dropped: nothing waits, nothing drains.
func TestWriteAfterClose(t *testing.T) {
	var out syncBuffer
	q := New(&out, "test")
	require.True(t, q.Close(time.Second))
	fmt.Fprintln(q, "late")
	q.mu.Lock()
	defer q.mu.Unlock()
	assert.Empty(t, q.waiting)
	assert.False(t, q.writing)
	assert.Equal(t, 1, q.dropped)
}
