package mcpgw_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An upstream that lists more resources or prompts than the gateway keeps
// of one server, or larger ones, has what is past the caps dropped and
// its oversized entries hidden; its tools and the rest stay offered.
func TestHostileFeatureListingsAreCapped(t *testing.T) {
	noop := func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: "x"}}}, nil
	}
	tests := []struct {
		name      string
		resources int
		desc      int // bytes of each description
		cfg       mcpgw.Config
		want      int // resources offered
		hidden    string
	}{
		{"a hundred thousand resources, over the count cap", 100_000, 0, fastConfig().WithMaxTools(300), 300, ""},
		{"large resources, over the byte cap", 200, 8 << 10, fastConfig().WithMaxListingBytes(64 << 10), 7, ""},
		{"one resource over the entry cap", 3, 300 << 10, fastConfig(), 0, "over the gateway's 262144"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, &mcp.ServerOptions{PageSize: 5000})
			s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("echo"), nil
			})
			desc := strings.Repeat("d", tt.desc)
			for i := range tt.resources {
				d := desc
				if tt.hidden != "" && i > 0 {
					d = "small"
				}
				s.AddResource(&mcp.Resource{URI: fmt.Sprintf("file:///r/%06d", i), Name: fmt.Sprintf("r%d", i), Description: d}, noop)
				s.AddPrompt(&mcp.Prompt{Name: fmt.Sprintf("p%06d", i), Description: d}, nil)
			}
			url, _ := httpUpstream(t, s)
			h := start(t, fmt.Sprintf("[[servers]]\nname = \"many\"\nurl = %q\nprefix = \"m_\"\n", url), tt.cfg)
			fc := h.featureClient()
			want := tt.want
			if tt.hidden != "" {
				want = tt.resources - 1
			}
			require.Eventually(t, func() bool { return h.gw.Upstreams()[0].State == mcpgw.StateReady }, waitFor, 10*time.Millisecond)
			require.Eventually(t, func() bool { return len(fc.resourceList(t)) == want }, 2*waitFor, 50*time.Millisecond, "resources offered")
			assert.Len(t, fc.promptList(t), want, "prompts offered")
			assert.Equal(t, []string{"m_echo"}, h.gw.Offered(), "its tools stay offered")
			if tt.hidden != "" {
				res, prompts := h.gw.HiddenFeatures()
				assert.Contains(t, res["file:///r/000000"], tt.hidden)
				assert.Contains(t, prompts["m_p000000"], tt.hidden)
			}
		})
	}
}

// An upstream flooding notifications/resources/updated grows no queue: a
// session subscribed to the URI has at most one update of it waiting
// (its outbox holds 4 here), so it is not dropped, and hears the updates
// of what it subscribed to only.
func TestHostileResourceUpdatedFlood(t *testing.T) {
	up := newFeatureUpstream("flood")
	url, _ := httpUpstream(t, up.s)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig().WithSessionQueue(4))
	fc := h.featureClient()
	other := h.featureClient()
	fc.waitNames(t, docNames...)
	ctx := ctxFor(t)
	require.NoError(t, fc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: docA}))

	for i := 0; i < 5000; i++ {
		for _, uri := range []string{docA, docB, fmt.Sprintf("file:///docs/%d.md", i)} {
			require.NoError(t, up.s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}))
		}
	}
	select {
	case uri := <-fc.updated:
		assert.Equal(t, docA, uri)
	case <-time.After(2 * waitFor):
		t.Fatal("the subscriber heard no update")
	}
	// Both sessions are still served: neither was dropped for a full
	// outbox.
	_, err := fc.cs.ListResources(ctx, nil)
	require.NoError(t, err)
	_, err = other.cs.ListResources(ctx, nil)
	require.NoError(t, err)
	for len(fc.updated) > 0 {
		assert.Equal(t, docA, <-fc.updated)
	}
	assert.Empty(t, other.updated, "a session that subscribed to nothing hears nothing")
}

// An upstream that never answers resources/list still has its tools
// offered, once the listing's bound has passed: the optional lists are
// logged and given up, the session goes on.
func TestHostileFeatureListingThatHangs(t *testing.T) {
	up := newFeatureUpstream("deaf")
	up.s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo"), nil
	})
	up.s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				select {
				case <-ctx.Done():
				case <-time.After(waitFor):
				}
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	url, _ := httpUpstream(t, up.s)
	log := &blockedLog{released: make(chan struct{})}
	close(log.released)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"docs\"\nurl = %q\nprefix = \"d_\"\n", url), fastConfig().WithListTimeout(300*time.Millisecond).WithLog(log))
	c := h.client()
	c.WaitTools(t, "d_echo")
	assert.Contains(t, log.String(), "resources/list: no answer within 300ms; its last good list is kept")
	fc := h.featureClient()
	assert.Empty(t, fc.resourceList(t))
	assert.Equal(t, mcpgw.StateReady, h.gw.Upstreams()[0].State)
}

// A later server's resource whose URI an earlier server's template may
// hold is read from the earlier server, so it is not offered: one whose
// match runs past a read's bound is not provably outside the template
// (a read of it is refused), nor are a server's resources once matching
// them has taken gate's bound for one server. The rest are offered.
func TestHostileResourcesNotProvablyOutsideEarlierTemplates(t *testing.T) {
	// Each byte of a URI steps every one of a template's 60 expressions:
	// URIs within the bound on their length, costly to match.
	templates := make([]string, 10)
	for i := range templates {
		templates[i] = fmt.Sprintf("x://%sz%d", strings.Repeat("{+a}", 60), i)
	}
	tests := []struct {
		name   string
		uris   []string
		hidden string // the URI hidden
		why    string
	}{
		{
			"one past a read's bound",
			[]string{"x://" + strings.Repeat("a", 8_000), "x://short"},
			"x://" + strings.Repeat("a", 8_000),
			"server later lists it, but it is not provably outside the resource templates of the servers before it in the manifest, which would answer its reads: server costly's resource templates take more than gate's bound of 4194304 steps to match it",
		},
		{
			"past the server's bound",
			func() []string {
				var uris []string
				for i := range 10 {
					uris = append(uris, fmt.Sprintf("x://%s/%d", strings.Repeat("a", 1_200), i))
				}
				return uris
			}(),
			fmt.Sprintf("x://%s/%d", strings.Repeat("a", 1_200), 9),
			"server later lists it, but it is not provably outside the resource templates of the servers before it in the manifest, which would answer its reads: matching the server's resources against them took more than gate's bound of 16777216 steps",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			costly := templateUpstream(t, "costly", templates...)
			s := mcp.NewServer(&mcp.Implementation{Name: "later", Version: "1"}, &mcp.ServerOptions{PageSize: 5000})
			s.AddTool(&mcp.Tool{Name: "echo", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("echo"), nil
			})
			for i, uri := range tt.uris {
				s.AddResource(&mcp.Resource{URI: uri, Name: fmt.Sprintf("r%d", i)}, nil)
			}
			later, _ := httpUpstream(t, s)
			h := start(t, fmt.Sprintf("[[servers]]\nname = \"costly\"\nurl = %q\nprefix = \"c_\"\n\n[[servers]]\nname = \"later\"\nurl = %q\nprefix = \"l_\"\n", costly, later), fastConfig())
			fc := h.featureClient()
			require.Eventually(t, func() bool {
				res, _ := h.gw.HiddenFeatures()
				return strings.HasPrefix(res[tt.hidden], "server later lists it")
			}, waitFor, 20*time.Millisecond)
			res, _ := h.gw.HiddenFeatures()
			assert.Equal(t, tt.why, res[tt.hidden])
			require.Eventually(t, func() bool { return len(fc.resourceList(t)) > 0 }, waitFor, 20*time.Millisecond, "the first resource is offered")
			assert.NotContains(t, res[tt.hidden], "aaaa", "the URI is not echoed")
			for _, r := range fc.resourceList(t) {
				assert.NotEqual(t, tt.hidden, r.URI)
			}
		})
	}
}
