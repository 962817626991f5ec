package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gate-dev/gate/runtime/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Upstream states, as the gateway logs, publishes and exports them.
const (
	StateConnecting = "connecting" // starting or reaching it, then listing
	StateReady      = "ready"      // connected, its tools listed
	StateDown       = "down"       // the last session failed; waiting to retry
)

// maxPages bounds the pages of one listing: an upstream whose cursors never
// end would otherwise keep the listing going until its timeout.
const maxPages = 1000

var upstreamIDs atomic.Uint64

// upstream is the gateway's connection to one MCP server: it connects,
// lists the tools, relists on list_changed, and reconnects with backoff
// when the session ends, until it is stopped.
type upstream struct {
	id   uint64
	name string
	// conn is the part of the manifest entry the connection depends on;
	// a reload that changes it replaces the upstream.
	conn manifest.Upstream
	key  string
	dir  string // the manifest's directory, where a command runs
	gw   *Gateway

	relist  chan struct{} // cap 1
	stop    context.CancelFunc
	done    chan struct{}
	schemas compileSlot // its schema compiles, one at a time (compile.go)

	mu      sync.Mutex // guards what follows; never held across I/O
	state   string
	lastErr string
	session *mcp.ClientSession
	tools   []listedTool
	over    bool   // it lists more tools than the gateway's cap
	lists   uint64 // listings made, one per session and list_changed burst
	// routes maps the progress tokens gate sent upstream to the session
	// and token of the client whose call it forwarded.
	routes map[string]progressRoute
	nextTk uint64
}

// connKey is what the connection depends on: a reload that keeps it keeps
// the session (and the process) as it is.
func connKey(u *manifest.Upstream) string {
	k := u.URL + "\x00"
	for _, a := range u.Command {
		k += strconv.Quote(a)
	}
	k += "\x00"
	for _, e := range u.Env {
		k += strconv.Quote(e.Name) + "=" + strconv.Quote(e.Value)
	}
	k += "\x00"
	for _, n := range u.PassEnv {
		k += strconv.Quote(n) + "=" + strconv.Quote(os.Getenv(n))
	}
	return k
}

func newUpstream(gw *Gateway, name, dir string, conn manifest.Upstream) *upstream {
	return &upstream{
		id: upstreamIDs.Add(1), name: name, conn: conn, key: dir + "\x00" + connKey(&conn), dir: dir, gw: gw,
		relist: make(chan struct{}, 1), done: make(chan struct{}),
		state: StateConnecting, routes: map[string]progressRoute{},
	}
}

// snapshot is what the offered set is computed from.
func (u *upstream) snapshot() (state, lastErr string, tools []listedTool, over bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.state, u.lastErr, u.tools, u.over
}

func (u *upstream) setState(state, why string) {
	u.mu.Lock()
	changed := u.state != state
	u.state, u.lastErr = state, why
	u.mu.Unlock()
	if changed {
		u.gw.upstreamState(u, state, why)
	}
	u.gw.poke()
}

// run keeps a session open until ctx is done.
func (u *upstream) run(ctx context.Context) {
	defer close(u.done)
	backoff := u.gw.cfg.backoffMin
	for {
		start := time.Now()
		err := u.serve(ctx)
		if ctx.Err() != nil {
			u.mu.Lock()
			u.session = nil
			u.mu.Unlock()
			return
		}
		if time.Since(start) >= u.gw.cfg.backoffMax {
			backoff = u.gw.cfg.backoffMin
		}
		u.setState(StateDown, fmt.Sprintf("%v (retrying in %v)", err, backoff.Round(time.Millisecond)))
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, u.gw.cfg.backoffMax)
		u.setState(StateConnecting, "")
	}
}

// serve runs one session: connect, list, relist on demand, until the
// session ends or ctx is done. It returns why the session ended.
func (u *upstream) serve(ctx context.Context) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "gate", Version: u.gw.cfg.version}, &mcp.ClientOptions{
		KeepAlive: u.gw.cfg.keepAlive,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case u.relist <- struct{}{}:
			default: // a listing is pending already; it will see this change
			}
		},
		ProgressNotificationHandler: u.progress,
	})
	transport, err := u.transport()
	if err != nil {
		return err
	}
	transport = u.countProgress(transport)
	cctx, cancel := context.WithTimeout(ctx, u.gw.cfg.connectTimeout)
	cs, err := client.Connect(cctx, transport, nil)
	cancel()
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("no answer to initialize within %v", u.gw.cfg.connectTimeout)
		}
		return fmt.Errorf("connect: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }()
	defer func() {
		u.mu.Lock()
		u.session = nil
		u.mu.Unlock()
		_ = cs.Close()
	}()
	u.mu.Lock()
	u.session = cs
	u.mu.Unlock()
	// Drain a list_changed that arrived before the session was usable: the
	// first listing below sees it.
	select {
	case <-u.relist:
	default:
	}
	for {
		if err := u.list(ctx, cs); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-ended:
			if err == nil {
				err = errors.New("the server closed the session")
			}
			return fmt.Errorf("session ended: %w", err)
		case <-u.relist:
		}
	}
}

// list reads every page of the upstream's tools, checks each, and makes
// the upstream ready. A listing that fails or times out ends the session:
// an upstream that cannot list cannot be trusted to answer calls.
func (u *upstream) list(ctx context.Context, cs *mcp.ClientSession) error {
	ctx, cancel := context.WithTimeout(ctx, u.gw.cfg.listTimeout)
	defer cancel()
	var tools []listedTool
	over, cursor := false, ""
	for page := 0; ; page++ {
		if page == maxPages {
			return fmt.Errorf("tools/list: more than %d pages", maxPages)
		}
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("tools/list: no answer within %v", u.gw.cfg.listTimeout)
			}
			return fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range res.Tools {
			if len(tools) >= u.gw.cfg.maxTools {
				over = true
				break
			}
			tools = append(tools, checkTool(ctx, t, &u.schemas))
		}
		if res.NextCursor == "" || over {
			break
		}
		cursor = res.NextCursor
	}
	u.mu.Lock()
	u.tools, u.over = tools, over
	u.lists++
	u.mu.Unlock()
	if over {
		u.gw.logf("upstream %s lists more than %d tools, the gateway's cap: those past it are not offered", u.name, u.gw.cfg.maxTools)
	}
	u.setState(StateReady, "")
	return nil
}

// transport makes the client transport the manifest entry asks for.
func (u *upstream) transport() (mcp.Transport, error) {
	if u.conn.URL != "" {
		return &mcp.StreamableClientTransport{
			Endpoint:   u.conn.URL,
			HTTPClient: &http.Client{Transport: fitTransport{http.DefaultTransport.(*http.Transport).Clone()}},
			// The gateway reconnects itself, with its own backoff, and
			// hides the tools meanwhile; retries inside the transport
			// would only keep a dead upstream's tools offered longer.
			MaxRetries: -1,
		}, nil
	}
	if len(u.conn.Command) == 0 {
		return nil, errors.New("no command or url")
	}
	cmd := exec.Command(u.conn.Command[0], u.conn.Command[1:]...)
	// Only what the manifest passes: a non-nil, possibly empty, Env.
	cmd.Env = []string{}
	for _, e := range u.conn.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	for _, n := range u.conn.PassEnv {
		if v, ok := os.LookupEnv(n); ok {
			cmd.Env = append(cmd.Env, n+"="+v)
		}
	}
	// It runs in the manifest's directory, so that its relative
	// arguments mean what they mean beside the manifest.
	cmd.Dir = u.dir
	cmd.Stderr = u.gw.lineLog("upstream " + u.name + ": ")
	detach(cmd)
	return &fitCommand{cmd: cmd, terminate: 2 * time.Second}, nil
}
