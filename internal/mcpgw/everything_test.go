package mcpgw_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everythingBin is the reference MCP server everything, as
// scripts/test installs it. A missing one fails the test: a skipped test
// would hide that it is missing.
func everythingBin(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not installed (%v): run ./scripts/test, which installs it and the reference MCP servers", err)
	}
	bin, err := filepath.Abs("../../cmd/gatectl/testdata/tsservers/node_modules/.bin/mcp-server-everything")
	require.NoError(t, err)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the reference server everything is not installed (%v): run ./scripts/test (npm ci in cmd/gatectl/testdata/tsservers)", err)
	}
	return bin
}

// Every resource, resource template and prompt the reference server
// everything lists directly is listed through gate, its name prefixed;
// reads, gets and completions through gate answer as it does directly.
func TestEverythingFeaturesThroughGate(t *testing.T) {
	bin := everythingBin(t)
	h := start(t, fmt.Sprintf("[[servers]]\nname = \"everything\"\ncommand = [%q, \"stdio\"]\nprefix = \"e_\"\n", bin), fastConfig())
	direct := directSession(t, &mcp.CommandTransport{Command: exec.Command(bin, "stdio")})
	directC := &featureClient{cs: direct}
	fc := h.featureClient()

	var wantRes []*mcp.Resource
	for _, r := range directC.resourceList(t) {
		c := *r
		c.Name = "e_" + c.Name
		wantRes = append(wantRes, &c)
	}
	var wantTmpl []*mcp.ResourceTemplate
	for _, r := range directC.templateList(t) {
		c := *r
		c.Name = "e_" + c.Name
		wantTmpl = append(wantTmpl, &c)
	}
	var wantPrompts []*mcp.Prompt
	for _, p := range directC.promptList(t) {
		c := *p
		c.Name = "e_" + c.Name
		wantPrompts = append(wantPrompts, &c)
	}
	require.NotEmpty(t, wantRes)
	require.NotEmpty(t, wantTmpl)
	require.NotEmpty(t, wantPrompts)
	require.Eventually(t, func() bool {
		return len(fc.resourceList(t)) == len(wantRes) && len(fc.promptList(t)) == len(wantPrompts)
	}, waitFor, 20*time.Millisecond)
	assert.ElementsMatch(t, wantRes, fc.resourceList(t))
	assert.ElementsMatch(t, wantTmpl, fc.templateList(t))
	assert.ElementsMatch(t, wantPrompts, fc.promptList(t))

	ctx := ctxFor(t)
	// Static documents (a dynamic resource says when it was made, to the
	// second: the template reads below compare all but that).
	for _, uri := range []string{wantRes[0].URI, wantRes[len(wantRes)-1].URI} {
		want, err := direct.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err, uri)
		// everything writes no cacheScope, which means "public"; gate,
		// as the SDK's server does, writes the default.
		if want.CacheScope == "" {
			want.CacheScope = "public"
		}
		got, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err, uri)
		assert.Equal(t, want, got, uri)
	}
	for _, uri := range []string{"demo://resource/dynamic/text/7", "demo://resource/dynamic/blob/3"} {
		got, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err, uri)
		require.Len(t, got.Contents, 1)
		c := got.Contents[0]
		assert.Equal(t, uri, c.URI)
		if c.Text != "" {
			assert.True(t, strings.HasPrefix(c.Text, "Resource 7: This is a plaintext resource created at "), c.Text)
		} else {
			assert.True(t, strings.HasPrefix(string(c.Blob), "Resource 3: This is a base64 blob created at "), string(c.Blob))
		}
	}
	prompts := []struct {
		name string
		args map[string]string
	}{
		{"simple-prompt", nil},
		{"args-prompt", map[string]string{"city": "Lyon", "state": "Rhône"}},
		{"completable-prompt", map[string]string{"department": "Engineering", "name": "Alice"}},
	}
	for _, p := range prompts {
		want, err := direct.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.name, Arguments: p.args})
		require.NoError(t, err, p.name)
		got, err := fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "e_" + p.name, Arguments: p.args})
		require.NoError(t, err, p.name)
		assert.Equal(t, want, got, p.name)
	}
	arg := mcp.CompleteParamsArgument{Name: "department", Value: "E"}
	want, err := direct.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "completable-prompt"}, Argument: arg})
	require.NoError(t, err)
	got, err := fc.cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "e_completable-prompt"}, Argument: arg})
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.NotEmpty(t, got.Completion.Values)
	tmplArg := mcp.CompleteParamsArgument{Name: "resourceId", Value: "1"}
	want, err = direct.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: wantTmpl[0].URITemplate}, Argument: tmplArg})
	require.NoError(t, err)
	got, err = fc.cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: wantTmpl[0].URITemplate}, Argument: tmplArg})
	require.NoError(t, err)
	assert.Equal(t, want, got)
}
