// Package schema renders the tools a model may call in the shape each
// model API expects:
//
//   - openai: the "tools" array of the Chat Completions API,
//     [{"type": "function", "function": {"name", "description", "parameters"}}];
//   - anthropic: the "tools" array of the Messages API,
//     [{"name", "description", "input_schema"}];
//   - mcp: the result of an MCP "tools/list" request,
//     {"tools": [{"name", "description", "inputSchema"}]}.
//
// Every format needs an object schema for the parameters; a tool without
// parameters gets {"type": "object", "properties": {}}. An empty
// description is left out, as all three APIs allow.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Format names an API's tool format.
type Format string

// The formats.
const (
	OpenAI    Format = "openai"
	Anthropic Format = "anthropic"
	MCP       Format = "mcp"
)

// Formats lists every format, for usage messages.
var Formats = []Format{OpenAI, Anthropic, MCP}

// ParseFormat reads a format name, case-insensitively.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range Formats {
		if f == known {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown schema format %q (want openai, anthropic or mcp)", s)
}

// Tool is what the formats need of a tool.
type Tool struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object; nil or empty means none.
	Parameters json.RawMessage
}

var emptyObject = json.RawMessage(`{"type":"object","properties":{}}`)

func parameters(t Tool) json.RawMessage {
	if len(bytes.TrimSpace(t.Parameters)) == 0 {
		return emptyObject
	}
	return t.Parameters
}

type openAITool struct {
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type mcpTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type mcpList struct {
	Tools []mcpTool `json:"tools"`
}

// Value returns the tools in format f as a value that encoding/json
// renders exactly as the API expects.
func Value(f Format, tools []Tool) (any, error) {
	switch f {
	case OpenAI:
		out := make([]openAITool, len(tools))
		for i, t := range tools {
			out[i] = openAITool{Type: "function", Function: openAIFunction{t.Name, t.Description, parameters(t)}}
		}
		return out, nil
	case Anthropic:
		out := make([]anthropicTool, len(tools))
		for i, t := range tools {
			out[i] = anthropicTool{t.Name, t.Description, parameters(t)}
		}
		return out, nil
	case MCP:
		out := mcpList{Tools: make([]mcpTool, len(tools))}
		for i, t := range tools {
			out.Tools[i] = mcpTool{t.Name, t.Description, parameters(t)}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown schema format %q", f)
}

// JSON renders the tools in format f, indented by two spaces.
func JSON(f Format, tools []Tool) ([]byte, error) {
	v, err := Value(f, tools)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
