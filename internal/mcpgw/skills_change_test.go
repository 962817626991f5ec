package mcpgw_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resourceClient is a session of the Go SDK's client that keeps what it
// hears about resources.
type resourceClient struct {
	cs      *mcp.ClientSession
	updated chan string   // the URI of each notifications/resources/updated
	listed  chan struct{} // one per notifications/resources/list_changed
}

func (h *harness) resourceClient() *resourceClient {
	h.t.Helper()
	rc := &resourceClient{updated: make(chan string, 100), listed: make(chan struct{}, 100)}
	cl := mcp.NewClient(&mcp.Implementation{Name: "resources", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			rc.updated <- r.Params.URI
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { rc.listed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.url}, nil)
	require.NoError(h.t, err)
	h.t.Cleanup(func() { _ = cs.Close() })
	rc.cs = cs
	return rc
}

func (rc *resourceClient) uris(t *testing.T) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := rc.cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var out []string
	for _, r := range res.Resources {
		out = append(out, r.URI)
	}
	slices.Sort(out)
	return out
}

// waitUpdated waits until every uri has had notifications/resources/updated.
func (rc *resourceClient) waitUpdated(t *testing.T, uris ...string) {
	t.Helper()
	want := map[string]bool{}
	for _, u := range uris {
		want[u] = true
	}
	deadline := time.After(2 * waitFor)
	for len(want) > 0 {
		select {
		case u := <-rc.updated:
			delete(want, u)
		case <-deadline:
			t.Fatalf("no notifications/resources/updated for %v", want)
		}
	}
}

func (rc *resourceClient) waitListed(t *testing.T) {
	t.Helper()
	select {
	case <-rc.listed:
	case <-time.After(2 * waitFor):
		t.Fatal("no notifications/resources/list_changed")
	}
}

// Skills that come, change and go are what a client sees: the resources
// list changes (with notifications/resources/list_changed), a session
// that subscribed (resources/subscribe, which unguarded answered "method not
// found") hears notifications/resources/updated for the prompt and for a
// SKILL.md that changed, and each change is an event of the service (on
// main a folder added or removed published nothing, and the resources
// went stale).
func TestSkillChangesArePublishedToSubscribers(t *testing.T) {
	skillsDir := t.TempDir()
	writeSkill(t, skillsDir, "notes", notesSkill)
	h := start(t, fmt.Sprintf("[skills]\npaths = [%q]\n", skillsDir), fastConfig())
	events := make(chan runtime.Event, 100)
	defer h.svc.Subscribe(func(e runtime.Event) {
		if e.Type == "skill" {
			events <- e
		}
	})()
	rc := h.resourceClient()
	notes, todo := "gate://skills/notes/SKILL.md", "gate://skills/todo/SKILL.md"
	require.Eventually(t, func() bool { return slices.Equal(rc.uris(t), []string{notes, gatePrompt}) }, waitFor, 20*time.Millisecond)

	ctx, cancel := context.WithTimeout(context.Background(), 4*waitFor)
	defer cancel()
	for _, uri := range []string{gatePrompt, notes} {
		require.NoError(t, rc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}), uri)
	}
	err := rc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "gate://skills/nothing/SKILL.md"})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je, "a subscription to a resource gate does not offer")
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code) // the SDK's "Resource not found"

	waitEvent := func(name, reason string) {
		t.Helper()
		deadline := time.After(2 * waitFor)
		for {
			select {
			case e := <-events:
				if e.Name == name && e.Reason == reason {
					return
				}
			case <-deadline:
				t.Fatalf("no skill event for %s: %s", name, reason)
			}
		}
	}

	// A folder added.
	writeSkill(t, skillsDir, "todo", "---\nname: todo\ndescription: Track todos.\n---\nList them.\n")
	waitEvent("todo", "its folder was added")
	rc.waitListed(t)
	rc.waitUpdated(t, gatePrompt)
	assert.Equal(t, []string{notes, gatePrompt, todo}, rc.uris(t))

	// A SKILL.md changed.
	require.NoError(t, os.WriteFile(filepath.Join(skillsDir, "notes", "SKILL.md"), []byte("---\nname: notes\ndescription: Keep notes, dated.\n---\nWrite notes down, with the date.\n"), 0o644))
	waitEvent("notes", "its SKILL.md changed")
	rc.waitUpdated(t, notes, gatePrompt)
	res, err := rc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: notes})
	require.NoError(t, err)
	assert.Contains(t, res.Contents[0].Text, "with the date")

	// A folder removed.
	require.NoError(t, os.RemoveAll(filepath.Join(skillsDir, "todo")))
	waitEvent("todo", "its folder was removed")
	rc.waitUpdated(t, gatePrompt)
	require.Eventually(t, func() bool { return slices.Equal(rc.uris(t), []string{notes, gatePrompt}) }, waitFor, 20*time.Millisecond)
	res, err = rc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: gatePrompt})
	require.NoError(t, err)
	assert.NotContains(t, res.Contents[0].Text, "todo")
	assert.NoError(t, rc.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: notes}))
}

const gatePrompt = "gate://skills/prompt"
