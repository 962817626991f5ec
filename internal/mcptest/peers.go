package mcptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// RPCMethod is the method of the JSON-RPC message an HTTP request to an
// MCP endpoint carries ("" for a GET, a DELETE, or an answer); the body is
// put back for the next handler.
func RPCMethod(r *http.Request) string {
	if r.Method != http.MethodPost {
		return ""
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct{ Method string }
	_ = json.Unmarshal(body, &m)
	return m.Method
}

// CallsInFlight wraps an HTTP MCP upstream and counts the tools/call
// requests it is answering.
type CallsInFlight struct {
	Next http.Handler
	n    atomic.Int64
}

func (c *CallsInFlight) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if RPCMethod(r) == "tools/call" {
		c.n.Add(1)
		defer c.n.Add(-1)
	}
	c.Next.ServeHTTP(w, r)
}

// N is how many calls it is answering now.
func (c *CallsInFlight) N() int64 { return c.n.Load() }

// ReadPID waits until the file at path holds a pid other than not, and
// returns it.
func ReadPID(t testing.TB, path string, not int) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(string(b))
		return err == nil && pid != not
	}, Wait, 10*time.Millisecond, "no pid in %s", path)
	return pid
}

// ProcessGone reports whether pid no longer runs: no such process, or a
// zombie (it has ended and only waits for its parent).
func ProcessGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}
