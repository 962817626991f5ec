package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idOf is the JSON-RPC id of v, a number or a string.
func idOf(v any) jsonrpc.ID {
	if n, ok := v.(int); ok {
		v = float64(n)
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		panic(err)
	}
	return id
}

// countedRequests feeds stream to a requestCounter in pieces of size
// bytes (all at once when 0) and returns what it found once the stream
// has ended.
func countedRequests(stream string, size int) (asked int, listens []jsonrpc.ID) {
	var mu sync.Mutex
	c := newRequestCounter(func(n int, ids []jsonrpc.ID) {
		mu.Lock()
		defer mu.Unlock()
		asked += n
		listens = append(listens, ids...)
	})
	defer c.close()
	b := []byte(stream)
	for len(b) > 0 {
		n := len(b)
		if size > 0 {
			n = min(size, n)
		}
		c.feed(b[:n])
		b = b[n:]
	}
	c.end()
	mu.Lock()
	defer mu.Unlock()
	return asked, listens
}

// TestMCPStdioCountsRequests: the counter finds the requests the SDK
// reads and answers, framed as the SDK frames them, however the reads cut
// the stream.
func TestMCPStdioCountsRequests(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stream  string
		asked   int
		listens []jsonrpc.ID
	}{
		{"the issue's input", strings.Join(issueLines, "\n") + "\n", 2, nil},
		{"no newline at the end", `{"jsonrpc":"2.0","id":"a","method":"ping"}`, 1, nil},
		{"two on a line, and CRLF", `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\r\n", 2, nil},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n", 0, nil},
		{"an id of null is a notification", `{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n", 0, nil},
		{"the client's answer to gate", `{"jsonrpc":"2.0","id":7,"result":{}}` + "\n", 0, nil},
		{"a listen", `{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen"}` + "\n", 0, []jsonrpc.ID{idOf(5)}},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"x","method":"tools/list"}]` + "\n", 2, nil},
		{"a batch the SDK refuses whole", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"1.0","id":2,"method":"ping"}]` + "\n", 0, nil},
		{"an empty batch", "[]\n", 0, nil},
		{"a string with braces and quotes", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"}\"{[","arguments":{}}}` + "\n", 1, nil},
		{"nothing past a value that is not JSON", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n{oops\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n", 1, nil},
		{"a message not JSON-RPC", `{"id":1,"method":"ping"}` + "\n", 0, nil},
	} {
		for _, size := range []int{0, 1, 7} {
			asked, listens := countedRequests(tc.stream, size)
			assert.Equal(t, tc.asked, asked, "%s, read %d bytes at a time", tc.name, size)
			assert.Equal(t, tc.listens, listens, "%s, read %d bytes at a time", tc.name, size)
		}
	}
}

// TestMCPStdioCountsBeforeTheSDKHasTheBytes: feed returns only once the
// requests whole in what it was given are counted, so the SDK, which
// reads the bytes after, never has a request not yet counted.
func TestMCPStdioCountsBeforeTheSDKHasTheBytes(t *testing.T) {
	var mu sync.Mutex
	asked := 0
	c := newRequestCounter(func(n int, _ []jsonrpc.ID) {
		mu.Lock()
		defer mu.Unlock()
		asked += n
	})
	defer c.close()
	for i, line := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "\n{\"jsonrpc\":\"2.0\",", `"id":2,"method":"ping"}`} {
		c.feed([]byte(line))
		mu.Lock()
		assert.Equal(t, []int{1, 1, 2}[i], asked, "after piece %d", i)
		mu.Unlock()
	}
}

// TestMCPStdioCountsAnswers: the answers in what the SDK writes, with
// their ids, a batch's too; gate's own requests and notifications are
// none.
func TestMCPStdioCountsAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  string
		ids  []jsonrpc.ID
	}{
		{"a result", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` + "\n", []jsonrpc.ID{idOf(1)}},
		{"an error", `{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no"}}` + "\n", []jsonrpc.ID{idOf("a")}},
		{"an error without an id", `{"jsonrpc":"2.0","error":{"code":-32600,"message":"id in use"}}` + "\n", []jsonrpc.ID{{}}},
		{"a batch of answers", `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}]` + "\n", []jsonrpc.ID{idOf(1), idOf(2)}},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}` + "\n", nil},
		{"gate's request", `{"jsonrpc":"2.0","id":9,"method":"roots/list"}` + "\n", nil},
		{"not JSON", "}{\n", nil},
	} {
		assert.Equal(t, tc.ids, answersIn([]byte(tc.msg)), tc.name)
	}
}

// TestMCPStdioAnswerCountSkipsListens: a subscriptions/listen is not
// waited for, and its answer (when it ends) answers nothing else.
func TestMCPStdioAnswerCountSkipsListens(t *testing.T) {
	a := newAnswerCount()
	a.found(2, []jsonrpc.ID{idOf(5)})
	a.answer([]jsonrpc.ID{idOf(5)})
	left, _ := a.unanswered()
	assert.Equal(t, 2, left, "the listen's answer")
	a.answer([]jsonrpc.ID{idOf(1), {}})
	left, _ = a.unanswered()
	assert.Equal(t, 0, left)
}

// clientInputOf is a clientInput over stream, with bound, logging to log.
func clientInputOf(stream string, bound time.Duration, log io.Writer) (*clientInput, *answerCount) {
	answers := newAnswerCount()
	return newClientInput(strings.NewReader(stream), answers, func() time.Duration { return bound }, log), answers
}

// readToTheEnd reads in to its end on a goroutine of its own, and sends what
// ended it.
func readToTheEnd(in io.Reader) <-chan error {
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, in)
		if err == nil {
			err = io.EOF
		}
		ended <- err
	}()
	return ended
}

// TestMCPStdioInputHoldsTheEndForTheAnswers: the end of the input comes
// to the SDK once the request read has its answer.
func TestMCPStdioInputHoldsTheEndForTheAnswers(t *testing.T) {
	var log syncBuffer
	in, answers := clientInputOf(issueLines[2]+"\n", time.Hour, &log)
	defer in.Close()
	ended := readToTheEnd(in)
	require.Eventually(t, func() bool { left, _ := answers.unanswered(); return left == 1 }, mcpWait, time.Millisecond)
	select {
	case <-ended:
		t.Fatal("the end came before the answer")
	default:
	}
	_, err := answers.writer(io.Discard).Write([]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` + "\n"))
	require.NoError(t, err)
	select {
	case err := <-ended:
		assert.ErrorIs(t, err, io.EOF)
	case <-time.After(mcpWait):
		t.Fatal("the end was held past the answer")
	}
	assert.Empty(t, log.String())
}

// TestMCPStdioInputHoldsTheEndNoLongerThanTheBound: a request without an
// answer holds the end for the bound, then the SDK has it, and the log
// says so.
func TestMCPStdioInputHoldsTheEndNoLongerThanTheBound(t *testing.T) {
	var log syncBuffer
	in, _ := clientInputOf(issueLines[2]+"\n", time.Millisecond, &log)
	defer in.Close()
	select {
	case err := <-readToTheEnd(in):
		assert.ErrorIs(t, err, io.EOF)
	case <-time.After(mcpWait):
		t.Fatal("the end was held past the bound")
	}
	assert.Equal(t, "gatectl mcp: the input ended with 1 request(s) unanswered 1ms later; the session ends without their answers\n", log.String())
}

// TestMCPStdioInputCloseEndsTheHold: the session's close (SIGTERM) ends a
// hold at once, and logs nothing.
func TestMCPStdioInputCloseEndsTheHold(t *testing.T) {
	var log syncBuffer
	in, answers := clientInputOf(issueLines[2]+"\n", time.Hour, &log)
	ended := readToTheEnd(in)
	require.Eventually(t, func() bool { left, _ := answers.unanswered(); return left == 1 }, mcpWait, time.Millisecond)
	require.NoError(t, in.Close())
	select {
	case <-ended:
	case <-time.After(mcpWait):
		t.Fatal("the hold outlived the close")
	}
	assert.Empty(t, log.String())
}

// TestMCPStdioInputEndBound: the end is held for as long as a request may
// take: the startup wait, the longest call timeout of the manifest's
// servers, and a second.
func TestMCPStdioInputEndBound(t *testing.T) {
	hour := time.Hour
	upstream := &manifest.Upstream{URL: "http://127.0.0.1:1/mcp"}
	slow := &manifest.Upstream{URL: "http://127.0.0.1:1/mcp", CallTimeout: &hour}
	for _, tc := range []struct {
		name    string
		servers []manifest.Server
		want    time.Duration
	}{
		{"no servers", nil, 5*time.Second + time.Second},
		{"a server without a call_timeout", []manifest.Server{{Name: "a", Upstream: upstream}}, 5*time.Second + time.Minute + time.Second},
		{"a server's call_timeout", []manifest.Server{{Name: "a", Upstream: upstream}, {Name: "b", Upstream: slow}}, 5*time.Second + hour + time.Second},
		{"a server that is no upstream", []manifest.Server{{Name: "a"}}, 5*time.Second + time.Second},
	} {
		assert.Equal(t, tc.want, inputEndBound(&manifest.Manifest{Servers: tc.servers}, 5*time.Second), tc.name)
	}
	assert.Equal(t, time.Second, inputEndBound(nil, 0), "a Gate built in code")
}

// requestsAsTheSDKReads are the requests in stream as the SDK v1.8.0
// reads them (ioConn, readBatch): each value of a json.Decoder, an array
// if it unmarshals as one, up to the first value it cannot use.
func requestsAsTheSDKReads(stream string) (asked int, listens []jsonrpc.ID) {
	dec := json.NewDecoder(strings.NewReader(stream))
	for {
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return asked, listens
		}
		msgs := []json.RawMessage{raw}
		var batch []json.RawMessage
		if json.Unmarshal(raw, &batch) == nil {
			if len(batch) == 0 {
				return asked, listens
			}
			msgs = batch
		}
		var found []*jsonrpc.Request
		for _, m := range msgs {
			msg, err := jsonrpc.DecodeMessage(m)
			if err != nil {
				return asked, listens
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
				found = append(found, req)
			}
		}
		for _, req := range found {
			if req.Method == methodListen {
				listens = append(listens, req.ID)
			} else {
				asked++
			}
		}
	}
}

// FuzzMCPStdioRequestCount: however the reads cut a stream, the counter
// finds the requests the SDK reads in it, and returns. (Past the first
// value the SDK cannot use, the SDK ends the session; the counter may
// count on, which only holds the end longer, and never past its bound.)
func FuzzMCPStdioRequestCount(f *testing.F) {
	f.Add(strings.Join(issueLines, "\n")+"\n", uint8(3))
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen"}]`, uint8(1))
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"a\"}{"}  {"jsonrpc":"2.0","id":"2","method":"b"}`, uint8(5))
	f.Add("{\"a\":[[[[[[[[", uint8(2))
	f.Fuzz(func(t *testing.T, stream string, size uint8) {
		wantAsked, wantListens := requestsAsTheSDKReads(stream)
		asked, listens := countedRequests(stream, int(size))
		require.GreaterOrEqual(t, asked, wantAsked, "requests the SDK reads and the counter misses")
		require.GreaterOrEqual(t, len(listens), len(wantListens))
		for i, id := range wantListens {
			assert.Equal(t, id, listens[i])
		}
		wholeAsked, wholeListens := countedRequests(stream, 0)
		assert.Equal(t, wholeAsked, asked, "however the reads cut the stream")
		assert.Equal(t, wholeListens, listens)
	})
}

// BenchmarkMCPStdioRequestCount measures what counting costs beside what
// the SDK itself does with the same bytes (a json.Decoder, then
// jsonrpc.DecodeMessage): tools/call requests of 1 KiB of arguments, fed
// as the reads of stdin bring them (64 KiB at a time).
func BenchmarkMCPStdioRequestCount(b *testing.B) {
	var stream strings.Builder
	for i := range 1000 {
		stream.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"w_echo","arguments":{"text":"` + strings.Repeat("x", 1024) + `"}}}` + "\n")
	}
	data := []byte(stream.String())
	b.Run("counter", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			c := newRequestCounter(func(int, []jsonrpc.ID) {})
			for p := data; len(p) > 0; {
				n := min(64<<10, len(p))
				c.feed(p[:n])
				p = p[n:]
			}
			c.end()
			c.close()
		}
	})
	b.Run("sdk", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(data))
			for {
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					break
				}
				if _, err := jsonrpc.DecodeMessage(raw); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
