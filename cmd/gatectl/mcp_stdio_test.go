package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of gatectl mcp at the end of its input: a client that writes
// its requests and closes gate's stdin (printf ... | gatectl mcp) gets an
// answer to each.

// issueLines are what the client of printf 'initialize\ninitialized\n
// tools/list\n' | gatectl mcp writes.
var issueLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
}

// stdioAnswer is one answer gatectl mcp wrote.
type stdioAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// stdioAnswers are the answers in what gatectl mcp wrote, by id (as
// JSON); other messages are left out.
func stdioAnswers(t *testing.T, out string) map[string]stdioAnswer {
	t.Helper()
	answers := map[string]stdioAnswer{}
	for line := range strings.Lines(out) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			stdioAnswer
		}
		require.NoError(t, json.Unmarshal([]byte(line), &m), "a line gatectl mcp wrote: %s", line)
		if m.Method == "" {
			answers[string(m.ID)] = m.stdioAnswer
		}
	}
	return answers
}

// toolsAnswered are the names of the tools in a tools/list answer.
func toolsAnswered(t *testing.T, a stdioAnswer) []string {
	t.Helper()
	require.Nil(t, a.Error, "tools/list answered an error")
	var r struct{ Tools []struct{ Name string } }
	require.NoError(t, json.Unmarshal(a.Result, &r))
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// requireIssueAnswered checks that both requests of issueLines have their
// answer in out, the listing with tools.
func requireIssueAnswered(t *testing.T, out string, tools ...string) {
	t.Helper()
	answers := stdioAnswers(t, out)
	initialized, ok := answers["1"]
	require.True(t, ok, "initialize is not answered:\n%s", out)
	assert.Nil(t, initialized.Error)
	listed, ok := answers["2"]
	require.True(t, ok, "tools/list is not answered:\n%s", out)
	assert.Equal(t, tools, toolsAnswered(t, listed))
}

// runMCPStdio runs gatectl mcp in-process with in as its stdin, and
// returns its exit code and what it wrote on stdout and stderr once it
// has exited.
func runMCPStdio(t *testing.T, in io.Reader, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	var out, stderr syncBuffer
	code := make(chan int, 1)
	go func() { code <- mcpContext(context.Background(), args, in, nil, &out, &stderr) }()
	select {
	case c := <-code:
		return c, out.String(), stderr.String()
	case <-time.After(mcpWait):
		t.Fatalf("gatectl mcp did not stop at the end of its input; stdout:\n%s\nstderr:\n%s", out.String(), stderr.String())
	}
	return 0, "", ""
}

// TestMCPStdioAnswersEveryRequestReadBeforeTheEnd: the issue's input,
// ending right after tools/list, gets both answers, the listing with the
// tools of the manifest's server, and gatectl exits 0.
func TestMCPStdioAnswersEveryRequestReadBeforeTheEnd(t *testing.T) {
	manifest := mcpManifest(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", mcpHTTPUpstream(t)))
	code, out, stderr := runMCPStdio(t, strings.NewReader(strings.Join(issueLines, "\n")+"\n"), "-m", manifest)
	require.Equal(t, exitOK, code, stderr)
	requireIssueAnswered(t, out, "w_echo", "w_shout")
	assert.Contains(t, stderr, "gatectl mcp: stopped")
}

// heldUpstream is an HTTP MCP upstream whose initialize waits until
// release is closed: a server that takes a moment to start.
type heldUpstream struct {
	next    http.Handler
	once    sync.Once
	asked   chan struct{} // closed when initialize comes
	release chan struct{}
}

func newHeldUpstream(t *testing.T, s *mcp.Server) (*heldUpstream, string) {
	t.Helper()
	h := &heldUpstream{
		next:  mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil),
		asked: make(chan struct{}), release: make(chan struct{}),
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.let()
		srv.CloseClientConnections()
		srv.Close()
	})
	return h, srv.URL
}

func (h *heldUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) == "initialize" {
		h.once.Do(func() { close(h.asked) })
		select {
		case <-h.release:
		case <-r.Context().Done():
			return
		}
	}
	h.next.ServeHTTP(w, r)
}

// let ends the hold; more than once is fine.
func (h *heldUpstream) let() {
	select {
	case <-h.release:
	default:
		close(h.release)
	}
}

// endSignal is a reader that closes ended once it has returned its end.
type endSignal struct {
	r     io.Reader
	once  sync.Once
	ended chan struct{}
}

func newEndSignal(s string) *endSignal {
	return &endSignal{r: strings.NewReader(s), ended: make(chan struct{})}
}

func (e *endSignal) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil {
		e.once.Do(func() { close(e.ended) })
	}
	return n, err
}

// TestMCPStdioAnswersAListingThatWaitsForAnUpstream: the tools/list waits
// for an upstream still starting (the first look), and the input ends
// meanwhile; the upstream is let start only once gatectl has read the
// end. The listing is answered, with the upstream's tools.
func TestMCPStdioAnswersAListingThatWaitsForAnUpstream(t *testing.T) {
	up, url := newHeldUpstream(t, newMCPTestUpstream())
	manifest := mcpManifest(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", url))
	in := newEndSignal(strings.Join(issueLines, "\n") + "\n")
	go func() {
		// Both before the upstream starts: gatectl has read the whole input
		// and the listing waits.
		<-up.asked
		<-in.ended
		up.let()
	}()
	code, out, stderr := runMCPStdio(t, in, "-m", manifest, "--startup-wait", "1m")
	require.Equal(t, exitOK, code, stderr)
	requireIssueAnswered(t, out, "w_echo", "w_shout")
}

// TestMCPStdioPipedLikeTheIssue runs the built gatectl as the issue did:
// printf '...' | gatectl mcp. Both requests are answered and it exits 0.
func TestMCPStdioPipedLikeTheIssue(t *testing.T) {
	t.Parallel()
	bin := buildGatectlBinary(t)
	manifest := mcpManifest(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", mcpHTTPUpstream(t)))
	script := `bin=$0 manifest=$1; shift 1; printf '%s\n' "$@" | "$bin" mcp -m "$manifest"`
	cmd := exec.Command("sh", append([]string{"-c", script, bin, manifest}, issueLines...)...)
	cmd.Env = mcpEnv(t)
	var out, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		require.NoError(t, err, "stderr:\n%s", stderr.String())
	case <-time.After(mcpWait):
		_ = cmd.Process.Kill()
		t.Fatalf("printf | gatectl mcp did not stop:\n%s", stderr.String())
	}
	requireIssueAnswered(t, out.String(), "w_echo", "w_shout")
}

// stdioClient writes gatectl mcp's input line by line and reads its
// answers as they come.
type stdioClient struct {
	t       *testing.T
	in      *io.PipeWriter
	answers chan map[string]any
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	_, err := io.WriteString(c.in, line+"\n")
	require.NoError(c.t, err)
}

// answer waits for the answer with id; messages before it are dropped.
func (c *stdioClient) answer(id float64) map[string]any {
	c.t.Helper()
	for {
		select {
		case m, ok := <-c.answers:
			require.True(c.t, ok, "gatectl mcp ended its output before answering %v", id)
			if m["id"] == id && m["method"] == nil {
				return m
			}
		case <-time.After(mcpWait):
			c.t.Fatalf("no answer to request %v within %v", id, mcpWait)
		}
	}
}

// TestMCPStdioCancelledRequestDoesNotHoldTheEnd: a call in flight at its
// upstream (which answers it only once cancelled, and has an hour to) is
// cancelled by the client, whose input then ends. The cancelled call is
// answered, with an error, and gatectl exits 0: the end is held for the
// requests without an answer, and a cancelled one has its answer.
func TestMCPStdioCancelledRequestDoesNotHoldTheEnd(t *testing.T) {
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	s := mcptest.Server()
	web := &mcptest.CallsInFlight{Next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	srv := httptest.NewServer(web)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	manifest := mcpManifest(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"web_\"\ncall_timeout = \"1h\"\n", srv.URL))

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, in: inW, answers: make(chan map[string]any, 16)}
	go func() {
		defer close(c.answers)
		lines := bufio.NewScanner(outR)
		for lines.Scan() {
			var m map[string]any
			if json.Unmarshal(lines.Bytes(), &m) == nil {
				c.answers <- m
			}
		}
	}()
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- mcpContext(context.Background(), []string{"-m", manifest}, inR, nil, outW, &stderr)
		_ = outW.Close()
	}()
	t.Cleanup(func() { _ = inW.Close() })

	for _, line := range issueLines {
		c.send(line)
	}
	require.Contains(t, fmt.Sprint(c.answer(2)["result"]), "web_wait")
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"web_wait","arguments":{}}}`)
	require.Eventually(t, func() bool { return web.N() == 1 }, mcpWait, 10*time.Millisecond, "the call never reached the upstream")
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`)
	require.NoError(t, inW.Close())

	answer := c.answer(3)
	assert.Contains(t, fmt.Sprint(answer["error"]), "canceled", "the cancelled call's answer: %v", answer)
	select {
	case got := <-code:
		assert.Equal(t, exitOK, got, stderr.String())
	case <-time.After(mcpWait):
		t.Fatalf("gatectl mcp held the end of its input for a cancelled call:\n%s", stderr.String())
	}
	assert.NotContains(t, stderr.String(), "unanswered")
}

// TestMCPStdioAnswersABatchBeforeTheEnd: at a protocol version that has
// JSON-RPC batches (before 2025-06-18), a batch of requests read before
// the end is answered, as one batch, before gatectl exits.
func TestMCPStdioAnswersABatchBeforeTheEnd(t *testing.T) {
	manifest := mcpManifest(t, fmt.Sprintf("[[servers]]\nname = \"web\"\nurl = %q\nprefix = \"w_\"\n", mcpHTTPUpstream(t)))
	input := strings.Join([]string{
		strings.Replace(issueLines[0], "2025-11-25", "2025-03-26", 1),
		issueLines[1],
		`[{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
	}, "\n") + "\n"
	code, out, stderr := runMCPStdio(t, strings.NewReader(input), "-m", manifest)
	require.Equal(t, exitOK, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, "the answer to initialize, then the batch's:\n%s", out)
	var batch []struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &batch), lines[1])
	require.Len(t, batch, 2)
	ids := []int{batch[0].ID, batch[1].ID}
	assert.ElementsMatch(t, []int{2, 3}, ids)
	for _, a := range batch {
		if a.ID == 2 {
			assert.Equal(t, []string{"w_echo", "w_shout"}, toolsAnswered(t, stdioAnswer{Result: a.Result}))
		}
	}
	assert.NotContains(t, stderr, "unanswered")
}
