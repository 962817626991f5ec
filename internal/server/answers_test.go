package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func numbered(n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("gate.toml:%d:1: unknown key", i+1)
	}
	return strings.Join(lines, "\n")
}

func TestShortProblems(t *testing.T) {
	long := strings.Repeat("é", 20<<10) // 40 KiB, two bytes a character
	for _, c := range []struct {
		name, in string
		want     string // "" when in comes back as it is
		more     string // the last line, when cut
	}{
		{name: "one", in: "gate.toml:1:8: TOML syntax"},
		{name: "empty", in: ""},
		{name: "at the bound", in: numbered(maxProblemLines)},
		{name: "at the bound and a newline", in: numbered(maxProblemLines) + "\n", want: numbered(maxProblemLines)},
		{name: "one more", in: numbered(maxProblemLines + 1), want: numbered(maxProblemLines) + "\n... and 1 more line (gatectl check lists every problem)"},
		{name: "one more and a newline", in: numbered(maxProblemLines+1) + "\n", want: numbered(maxProblemLines) + "\n... and 1 more line (gatectl check lists every problem)"},
		{name: "two more", in: numbered(maxProblemLines + 2), want: numbered(maxProblemLines) + "\n... and 2 more lines (gatectl check lists every problem)"},
		{name: "200,000", in: numbered(200000), more: "... and 199,975 more lines (gatectl check lists every problem)"},
		{name: "already shortened by the runtime", in: numbered(20) + "\n... and 4980 more problems (the previous configuration keeps serving)"},
		{name: "one long line", in: long, more: " [cut: 24,576 more bytes]"},
		{name: "long lines", in: long + "\n" + long + "\nshort", more: " [cut: 24,576 more bytes]\n... and 2 more lines (gatectl check lists every problem)"},
		{name: "lines beyond the bytes", in: strings.Repeat(strings.Repeat("x", 999)+"\n", 19) + "last", more: strings.Repeat("x", 999) + "\n... and 4 more lines (gatectl check lists every problem)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := shortProblems(c.in)
			switch {
			case c.want != "":
				assert.Equal(t, c.want, got)
			case c.more != "":
				assert.True(t, strings.HasSuffix(got, c.more), "ends with %q: ...%s", c.more, got[max(0, len(got)-100):])
			default:
				assert.Equal(t, c.in, got)
			}
			assert.LessOrEqual(t, len(got), maxProblemBytes+200)
			assert.LessOrEqual(t, strings.Count(got, "\n"), maxProblemLines)
			assert.True(t, utf8.ValidString(got))
			first := strings.SplitN(got, "\n", 2)[0]
			n := min(len(first), 50)
			assert.Equal(t, c.in[:n], first[:n], "the first problem comes first")
		})
	}
}

// countingErrors is a slice error, as manifest.Errors is, that counts
// calls of Error.
type countingErrors []string

var errorCalls atomic.Int64

func (e countingErrors) Error() string {
	errorCalls.Add(1)
	return strings.Join(e, "\n")
}

// TestProblemCache: the same error is formatted once, however often
// /v1/status shows it; another one is formatted anew.
func TestProblemCache(t *testing.T) {
	var c problemCache
	errorCalls.Store(0)
	a := countingErrors(strings.Split(numbered(100), "\n"))
	for range 5 {
		assert.Contains(t, c.text(a), "... and 75 more lines")
	}
	assert.Equal(t, int64(1), errorCalls.Load())
	b := countingErrors(strings.Split(numbered(30), "\n"))
	assert.Contains(t, c.text(b), "... and 5 more lines")
	assert.Equal(t, int64(2), errorCalls.Load())
	p := fmt.Errorf("reload: %w", a)
	assert.Equal(t, c.text(p), c.text(p))
	assert.Equal(t, int64(3), errorCalls.Load())
	assert.Equal(t, "plain", c.text(errors.New("plain")))
}

// TestHugeReloadError: a manifest edit with thousands of problems is
// reported by its first ones, in /v1/status and in the reload event, not
// whole.
func TestHugeReloadError(t *testing.T) {
	dir := t.TempDir()
	path := writeManifest(t, dir, "[[tools]]\nname = \"alpha\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	c := openEvents(t, f, "")
	c.waitFor(t, 3*time.Second, "hello", isEvent("hello"))

	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "bogus_%04d = 1\n", i)
	}
	writeManifest(t, dir, b.String())
	err := svc.Reload(context.Background())
	require.Error(t, err)
	t.Logf("the runtime's error: %d bytes, %d lines", len(err.Error()), strings.Count(err.Error(), "\n")+1)

	// The runtime may shorten the list itself; either way the API shows
	// the first problems and counts the rest.
	more := regexp.MustCompile(`^\.\.\. and [0-9,]+ more`)
	check := func(where, got string) {
		t.Helper()
		lines := strings.Split(got, "\n")
		require.LessOrEqual(t, len(lines), maxProblemLines+1, where)
		require.Greater(t, len(lines), 10, where)
		assert.Contains(t, lines[0], `gate.toml:1:1: unknown key "bogus_0000"`, where)
		assert.Contains(t, lines[9], `"bogus_0009"`, where)
		assert.Regexp(t, more, lines[len(lines)-1], where)
		assert.Less(t, len(got), maxProblemBytes, where)
	}
	e := changeOf(t, c.waitFor(t, 3*time.Second, "a reload event", isChange("reload", path)))
	assert.Equal(t, "error", e.State)
	check("the reload event", e.Reason)

	r := f.get(t, "/v1/status")
	require.Equal(t, http.StatusOK, r.code)
	var st statusAnswer
	require.NoError(t, json.Unmarshal([]byte(r.body), &st))
	require.NotNil(t, st.Service.ReloadError)
	check("/v1/status", *st.Service.ReloadError)
	assert.Less(t, len(r.body), 10_000, "the status is small again")
}

// TestReadersShareRendering: concurrent readers of /v1/tools (and
// /v1/schema) get the same bytes from one rendering, instead of each
// rendering (and holding) its own copy; a change renders once more.
func TestReadersShareRendering(t *testing.T) {
	const readers = 8
	for _, path := range []string{"/v1/tools", "/v1/schema?format=anthropic"} {
		t.Run(path, func(t *testing.T) {
			manifest := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"echo\"\ndescription = \""+strings.Repeat("d", 32<<10)+"\"\n")
			svc := openService(t, manifest, nil, serviceConfig(nil, nil))
			runService(t, svc)
			f := serve(t, svc, nil, Options{})

			// The first rendering waits until every reader has entered:
			// readers that arrive meanwhile must wait for it, not render.
			var entered, encodes atomic.Int64
			allIn := make(chan struct{})
			f.srv.testHook = func(step string) {
				switch step {
				case "enter":
					if entered.Add(1) == readers {
						close(allIn)
					}
				case "encode":
					if encodes.Add(1) == 1 {
						<-allIn
					}
				}
			}
			bodies := make([]string, readers)
			var wg sync.WaitGroup
			for i := range readers {
				wg.Go(func() {
					r := f.get(t, path)
					assert.Equal(t, http.StatusOK, r.code)
					bodies[i] = r.body
				})
			}
			wg.Wait()
			assert.Equal(t, int64(1), encodes.Load(), "one rendering for every reader")
			for _, b := range bodies {
				assert.Equal(t, bodies[0], b)
			}
			assert.Greater(t, len(bodies[0]), 32<<10)

			f.get(t, path)
			assert.Equal(t, int64(1), encodes.Load(), "the tools are the same ones")
		})
	}
}
