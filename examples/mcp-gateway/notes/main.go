// Command notes is a small MCP server over stdio, written with the official
// Go SDK, for the MCP gateway example: it keeps notes in memory and can
// "search the web" (it answers canned text; the point is the gating).
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type noteArgs struct {
	Text string `json:"text" jsonschema:"the note"`
}

type searchArgs struct {
	Query string `json:"query" jsonschema:"what to search for"`
}

func main() {
	var mu sync.Mutex
	var notes []string
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add_note", Description: "Keep a note."},
		func(_ context.Context, _ *mcp.CallToolRequest, a noteArgs) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			notes = append(notes, a.Text)
			n := len(notes)
			mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("note %d kept", n)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_notes", Description: "The notes kept so far."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			defer mu.Unlock()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(notes, "\n")}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "search_web", Description: "Search the web (needs SERP_API_KEY)."},
		func(_ context.Context, _ *mcp.CallToolRequest, a searchArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "results for " + a.Query}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}
