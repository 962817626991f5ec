package mcpgw_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// listingWork is what the gateway allocates to answer one full tools/list
// (every page), per tool listed.
type listingWork struct {
	allocs, bytes float64
	// written is the bytes of the answers, per tool: what a listing must
	// at least encode.
	written float64
}

// measureListing fronts upstreams HTTP upstreams of perUpstream tools each
// with a gateway, and returns what it allocates per listed tool to answer
// a full tools/list to a client on stdio that reads the answers as bytes
// and decodes nothing (so that what is counted is the gateway's work: the
// request's decoding, the page, its encoding and its writing).
func measureListing(t *testing.T, upstreams, perUpstream int) listingWork {
	var toml strings.Builder
	for i := range upstreams {
		name := fmt.Sprintf("u%d", i)
		fmt.Fprintf(&toml, "[[servers]]\nname = %q\nprefix = \"%s_\"\nurl = %q\n", name, name, upstreamB(t, newScaleServer(name, perUpstream)))
	}
	h := start(t, toml.String(), fastConfig())
	n := upstreams * perUpstream
	waitOffered(t, h.gw, n)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := h.gw.Server().Connect(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}, nil)
	require.NoError(t, err)
	defer func() { _ = ss.Close() }()
	defer func() { _ = inW.Close() }()
	out := bufio.NewReaderSize(outR, 16<<20) // a page of answers fits: ReadSlice allocates nothing
	id := 0
	ask := func(method, params string) []byte {
		id++
		_, err := fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		require.NoError(t, err)
		for {
			line, err := out.ReadSlice('\n')
			require.NoError(t, err)
			if strings.HasPrefix(string(line[:min(len(line), 40)]), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,`, id)) {
				return line
			}
		}
	}
	ask("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	_, err = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`+"\n")
	require.NoError(t, err)
	// listAll lists every page, and returns how many tools it was given.
	written := 0
	listAll := func() int {
		got, cursor := 0, ""
		written = 0
		for {
			params := `{}`
			if cursor != "" {
				params = fmt.Sprintf(`{"cursor":%q}`, cursor)
			}
			page := string(ask("tools/list", params)) // counted: the client's one copy of each page
			got += strings.Count(page, `"inputSchema"`)
			written += len(page)
			i := strings.Index(page, `"nextCursor":"`)
			if i < 0 {
				return got
			}
			rest := page[i+len(`"nextCursor":"`):]
			cursor = rest[:strings.IndexByte(rest, '"')]
		}
	}
	require.Equal(t, n, listAll())

	const rounds = 3
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range rounds {
		listAll()
	}
	runtime.ReadMemStats(&after)
	return listingWork{
		allocs:  float64(after.Mallocs-before.Mallocs) / rounds / float64(n),
		bytes:   float64(after.TotalAlloc-before.TotalAlloc) / rounds / float64(n),
		written: float64(written) / float64(n),
	}
}

// A full tools/list of 10,000 fronted tools (ten upstreams of 1,000) costs
// the gateway what one of 1,000 does, per tool: answering from the set it
// computed is linear in the tools, and each is encoded once per listing.
// A listing that copied the set for every page, or each tool more than
// once, would fail it.
func TestListingWorkIsLinear(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are counted without the race detector (race_test.go)")
	}
	small := measureListing(t, 1, scaleTools)
	large := measureListing(t, scaleUpstreams, scaleTools)
	t.Logf("per tool listed: %.2f allocations and %.0f bytes (%.0f written) at %d tools; %.2f and %.0f (%.0f) at %d",
		small.allocs, small.bytes, small.written, scaleTools, large.allocs, large.bytes, large.written, scaleUpstreams*scaleTools)
	for _, w := range []listingWork{small, large} {
		// Each page is encoded into one buffer and written once (about 0.1
		// allocations and 3.2 bytes per byte written, per tool, measured):
		// an allocation of each tool, or a copy of it, breaks these.
		require.Less(t, w.allocs, 0.5, "allocations per tool listed")
		require.Less(t, w.bytes, 4.5*w.written, "bytes allocated per tool listed, against the bytes written per tool")
	}
	// Ten times the tools, the same work per tool: a cost per page that
	// grew with the set (a copy of the set for each page) breaks this.
	require.Less(t, large.allocs, 1.2*small.allocs+0.02, "allocations per tool listed, at 10,000 tools against 1,000")
	require.Less(t, large.bytes, 1.2*small.bytes, "bytes allocated per tool listed, at 10,000 tools against 1,000")
}

// A change of one upstream tool is work for that tool: the gateway checks
// again, and offers anew, only the tools whose definitions changed, and
// keeps the offers of the others as they were (the same offers, not
// copies), so that a list_changed of one upstream of a wide gateway does
// not clean, compile and copy every tool it fronts.
func TestAChangeOfOneToolIsWorkForOneTool(t *testing.T) {
	up := newScaleServer("u0", 50)
	other := newScaleServer("u1", 50)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"u0\"\nprefix = \"u0_\"\nurl = %q\n[[servers]]\nname = \"u1\"\nprefix = \"u1_\"\nurl = %q\n",
		upstreamB(t, up), upstreamB(t, other)), fastConfig())
	waitOffered(t, h.gw, 100)
	before := map[string]any{}
	for _, name := range h.gw.Offered() {
		before[name] = h.gw.OfferOf(name)
	}
	changes := h.gw.Changes()
	up.AddTool(&mcp.Tool{Name: "blip", InputSchema: scaleSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("blip"), nil
	})
	up.AddTool(&mcp.Tool{Name: "tool_0003", Description: "Changed.", InputSchema: scaleSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("changed"), nil
	})
	require.Eventually(t, func() bool {
		return h.gw.OfferOf("u0_blip") != nil && h.gw.OfferOf("u0_tool_0003") != before["u0_tool_0003"]
	},
		waitFor, 5*time.Millisecond, "the gateway never offered the change")
	require.Greater(t, h.gw.Changes(), changes)
	for name, o := range before {
		if name == "u0_tool_0003" {
			continue
		}
		require.True(t, h.gw.OfferOf(name) == o, "%s is offered anew, though neither it nor its upstream's terms changed", name)
	}
}

// What the gateway keeps per fronted tool stays under a bound: its check
// of the tool and its offer, the SDK's server's and client's copies, and
// not more copies of each definition than those. Measured as the live
// heap with a gateway fronting ten upstreams of 1,000 tools, less the
// live heap before it started (the upstreams, in this process, are in
// both).
func TestMemoryPerUpstreamTool(t *testing.T) {
	if raceEnabled {
		t.Skip("the heap is measured without the race detector (race_test.go)")
	}
	var toml strings.Builder
	for i := range scaleUpstreams {
		name := fmt.Sprintf("u%d", i)
		fmt.Fprintf(&toml, "[[servers]]\nname = %q\nprefix = \"%s_\"\nurl = %q\n", name, name, upstreamB(t, newScaleServer(name, scaleTools)))
	}
	n := scaleUpstreams * scaleTools
	before := liveHeap()
	h := start(t, toml.String(), fastConfig())
	waitOffered(t, h.gw, n)
	perTool := float64(int64(settledHeap())-int64(before)) / float64(n)
	t.Logf("%.0f bytes of live heap per fronted tool", perTool)
	// About 1,560 measured, nearly all gate's check of each tool (the
	// cleaned copy, its definition as JSON), its offer (the prefixed copy)
	// and the SDK server's tool set. One more copy of each definition kept
	// (360 bytes) is past it.
	require.Less(t, perTool, 1900.0, "bytes of live heap per fronted tool")
}
