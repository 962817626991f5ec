package mcpgw

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskResultType is the resultType of a task handle, the answer of the
// 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) in place of
// a call's result.
const taskResultType = "task"

// isTaskHandle reports whether res, a call's result as the SDK decoded
// it, is a task handle. The SDK (v1.8.0) keeps the resultType of an
// answer, unexported, and drops every field of the task (its id, status,
// poll interval): gate can neither pass the task on nor follow it (see
// docs/MCP.md, Tasks), and passing the rest on would be an empty result
// that says the call succeeded. The SDK writes resultType in its JSON; a
// copy with none of the upstream's content is written to read it.
func isTaskHandle(res *mcp.CallToolResult) bool {
	c := *res
	c.Meta, c.Content, c.StructuredContent, c.InputRequests, c.RequestState = nil, nil, nil, nil, ""
	b, err := json.Marshal(&c)
	if err != nil {
		return false
	}
	var wire struct {
		ResultType string `json:"resultType"`
	}
	return json.Unmarshal(b, &wire) == nil && wire.ResultType == taskResultType
}

// taskRefused is the error a client gets for a call its upstream answered
// with a task handle.
func taskRefused(server, tool string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("server %s answered the call of %s with a task, which gate does not pass on: it asks no upstream for one", server, tool)}
}
