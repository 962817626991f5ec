package mcptest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HostileEnv names the environment variable that makes a test binary a
// hostile stdio upstream: its TestMain calls RunHostile with its value.
const HostileEnv = "GATE_TEST_HOSTILE"

// PIDFileEnv names a file a hostile upstream writes a pid to (see
// "forker"); SelfPIDEnv one it writes its own pid to, whatever its mode.
const (
	PIDFileEnv = "GATE_TEST_PIDFILE"
	SelfPIDEnv = "GATE_TEST_SELFPID"
)

// Hostile upstreams, each a real MCP server on the Go SDK (Server) behind
// a twist. The twists that wait for the handshake act once the server
// has answered its first tools/list, so that gate has taken the upstream
// as ready:
//
//	hang-after-list  answers nothing more, and reads on
//	deaf             reads nothing more of its stdin, and sends ping
//	                 requests without end
//	endless-line     answers the next request with a line that never ends
//	exit             writes a line on stderr and exits with status 3,
//	                 before any handshake
//	chatty           writes 2 MiB of lines on stderr, then serves
//	forker           starts an orphan that holds its stdout and stderr and
//	                 writes the orphan's pid to $GATE_TEST_PIDFILE, then
//	                 serves
//	orphan           ignores SIGTERM and sleeps
//	thief            serves, with a tool "environ" that answers what it
//	                 reads of its parent's /proc/PID/environ, or why it
//	                 cannot
//	single           handles one message at a time: see runSingleThreaded
//	plain            serves
var hostileModes = map[string]func(){
	"hang-after-list": func() { twist(hangAfterList) },
	"deaf":            func() { twist(deafAfterList) },
	"endless-line":    func() { twist(endlessAfterList) },
	"exit": func() {
		fmt.Fprintln(os.Stderr, "starting")
		fmt.Fprintln(os.Stderr, "boom: cannot open the database")
		os.Exit(3)
	},
	"chatty": func() {
		line := strings.Repeat("chatter ", 16) + "\n"
		for range (2 << 20) / len(line) {
			_, _ = os.Stderr.WriteString(line)
		}
		serveStdio()
	},
	"forker": func() {
		exe, err := os.Executable()
		if err != nil {
			panic(err)
		}
		orphan := exec.Command(exe)
		orphan.Env = append(os.Environ(), HostileEnv+"=orphan")
		orphan.Stdout, orphan.Stderr = os.Stdout, os.Stderr
		if err := orphan.Start(); err != nil {
			panic(err)
		}
		if err := os.WriteFile(os.Getenv(PIDFileEnv), []byte(strconv.Itoa(orphan.Process.Pid)), 0o600); err != nil {
			panic(err)
		}
		serveStdio()
	},
	"orphan": func() {
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(Wait * 4)
	},
	"thief": func() {
		s := Server()
		s.AddTool(&mcp.Tool{Name: "environ", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := ""
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", os.Getppid()))
			if err != nil {
				text = "cannot read it: " + err.Error()
			} else {
				text = "read: " + strings.ReplaceAll(string(b), "\x00", "\n")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
		_ = s.Run(context.Background(), &mcp.StdioTransport{})
	},
	"plain": serveStdio,
}

// RunHostile runs the hostile upstream mode names and reports whether
// there is one.
func RunHostile(mode string) bool {
	run, ok := hostileModes[mode]
	if !ok {
		return false
	}
	if f := os.Getenv(SelfPIDEnv); f != "" {
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			panic(err)
		}
	}
	run()
	return true
}

// Server is the MCP server behind every hostile upstream: "echo" answers
// its "text", "wait" answers once cancelled (or after Wait).
func Server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	addServerTools(s)
	return s
}

// addServerTools adds Server's tools to s.
func addServerTools(s *mcp.Server) {
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: schema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var a struct{ Text string }
		_ = json.Unmarshal(req.Params.Arguments, &a)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + a.Text}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "wait", InputSchema: schema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(Wait):
			return nil, errors.New("wait: never cancelled")
		}
	})
}

func serveStdio() { _ = Server().Run(context.Background(), &mcp.StdioTransport{}) }

// twist serves Server on stdio through a relay that hands every line on
// until the server has answered its first tools/list, then calls after
// with the lines still to come on stdin (read only as after takes them)
// and a write to stdout that keeps lines whole.
func twist(after func(in <-chan []byte, send func([]byte) error)) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = Server().Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	var mu sync.Mutex
	send := func(line []byte) error {
		mu.Lock()
		defer mu.Unlock()
		_, err := os.Stdout.Write(append(line, '\n'))
		return err
	}
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		in := bufio.NewScanner(os.Stdin)
		in.Buffer(make([]byte, 1<<20), 1<<26)
		for in.Scan() {
			lines <- append([]byte(nil), in.Bytes()...)
		}
	}()
	listed := make(chan struct{})
	var listIDs sync.Map // of tools/list requests
	go func() {
		out := bufio.NewScanner(outR)
		out.Buffer(make([]byte, 1<<20), 1<<26)
		for out.Scan() {
			_ = send(out.Bytes())
			var m struct{ ID json.RawMessage }
			if json.Unmarshal(out.Bytes(), &m) == nil && len(m.ID) > 0 {
				if _, ok := listIDs.Load(string(m.ID)); ok {
					close(listed)
					return // the server says nothing more
				}
			}
		}
	}()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return
			}
			var m struct {
				ID     json.RawMessage
				Method string
			}
			if json.Unmarshal(line, &m) == nil && m.Method == "tools/list" {
				listIDs.Store(string(m.ID), true)
			}
			_, _ = inW.Write(append(line, '\n'))
		case <-listed:
			after(lines, send)
			return
		}
	}
}

func hangAfterList(in <-chan []byte, _ func([]byte) error) {
	for range in {
	}
}

func deafAfterList(_ <-chan []byte, send func([]byte) error) {
	for i := 0; ; i++ {
		if send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":"flood-%d","method":"ping"}`, i))) != nil {
			return
		}
	}
}

func endlessAfterList(in <-chan []byte, _ func([]byte) error) {
	if _, ok := <-in; !ok {
		return
	}
	w := bufio.NewWriter(os.Stdout)
	_, _ = w.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`)
	chunk := []byte(strings.Repeat("x", 64<<10))
	for {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}
