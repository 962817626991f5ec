package uplink

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxFitFrame is gate's cap on one message, the default
// (gateway.DefaultMaxMessageBytes): what the fitters hold at most in these
// tests.
const maxFitFrame = 16 << 20

// deep is a JSON value nesting n arrays.
func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// tooDeepForSDK reports whether the SDK refuses msg for its depth.
func tooDeepForSDK(msg []byte) bool {
	_, err := jsonrpc.DecodeMessage(msg)
	return err != nil && strings.Contains(err.Error(), "exceeded maximum nesting depth")
}

func TestFitMessage(t *testing.T) {
	deepTool := `{"name":"deep","inputSchema":{"type":"object","x":` + deep(1200) + `}}`
	tests := []struct {
		name, in string
		want     string // "" when the message is dropped; "=" when it comes back as it is
	}{
		{"shallow", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}`, "="},
		{"at the SDK's depth", `{"jsonrpc":"2.0","id":1,"result":{"v":` + deep(998) + `}}`, "="},
		{"one deep tool among others",
			`{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}, ` + deepTool + ` ,{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"c"}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}, {"name":"deep","inputSchema":{"type":"object"},"_meta":{"gate.dev/too-deep":1202}} ,{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"c"}}`},
		{"a deep tool without a name", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + deep(1200) + `]}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"","inputSchema":{"type":"object"},"_meta":{"gate.dev/too-deep":1200}}]}}`},
		{"a deep answer", `{"jsonrpc":"2.0","id":"x","result":{"content":[],"v":` + deep(5000) + `}}`,
			`{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"gate: the server's answer nests 5002 deep, over the 1000 levels the MCP SDK decodes; it was not passed on"}}`},
		{"a deep answer beside the tools", `{"jsonrpc":"2.0","id":2,"result":{"tools":[],"_meta":{"v":` + deep(5000) + `}}}`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"gate: the server's answer nests 5003 deep, over the 1000 levels the MCP SDK decodes; it was not passed on"}}`},
		{"a deep notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":` + deep(5000) + `}}`, ""},
		{"a deep request", `{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":` + deep(5000) + `}`, ""},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"result":{}}, {"jsonrpc":"2.0","method":"m","params":` + deep(2000) + `}]`, `[{"jsonrpc":"2.0","id":1,"result":{}}]`},
		{"a batch of nothing but deep notifications", `[{"jsonrpc":"2.0","method":"m","params":` + deep(2000) + `}]`, ""},
		{"not JSON-RPC", `{"no":"id","v":` + deep(2000) + `}`, "="},
		{"garbage", `{"id":1,` + deep(2000), "="},
		{"a scalar", strings.Repeat("[", 2000) + `"`, "="},
		{"escaped keys", `{"jsonrpc":"2.0","\u0069d":4,"result":{"v":` + deep(2000) + `}}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"gate: the server's answer nests 2002 deep, over the 1000 levels the MCP SDK decodes; it was not passed on"}}`},
		{"a million levels", `{"jsonrpc":"2.0","id":5,"result":` + deep(1_000_000) + `}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"gate: the server's answer nests 1000001 deep, over the 1000 levels the MCP SDK decodes; it was not passed on"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, keep := fitMessage([]byte(tt.in))
			switch tt.want {
			case "":
				assert.False(t, keep)
				return
			case "=":
				require.True(t, keep)
				assert.Equal(t, tt.in, string(got))
				return
			}
			require.True(t, keep)
			assert.Equal(t, tt.want, string(got))
			msgs := []json.RawMessage{got}
			if got[0] == '[' {
				require.NoError(t, json.Unmarshal(got, &msgs))
			}
			for _, m := range msgs {
				_, err := jsonrpc.DecodeMessage(m)
				require.NoError(t, err, "the SDK cannot decode what gate fitted")
			}
		})
	}
}

// A fitted tool list decodes, and its stand-in carries the tool's name
// and depth, which the gateway hides it with (TooDeep), while the other
// tools come as they are.
func TestFittedToolListDecodes(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"deep","inputSchema":{"type":"object","x":` + deep(1500) + `}},{"name":"ok","inputSchema":{"type":"object"}}]}}`
	fitted, keep := fitMessage([]byte(msg))
	require.True(t, keep)
	m, err := jsonrpc.DecodeMessage(fitted)
	require.NoError(t, err)
	var res mcp.ListToolsResult
	require.NoError(t, json.Unmarshal(m.(*jsonrpc.Response).Result, &res))
	require.Len(t, res.Tools, 2)
	assert.Equal(t, "deep", res.Tools[0].Name)
	assert.Equal(t, 1502, TooDeep(res.Tools[0].Meta))
	assert.Equal(t, "ok", res.Tools[1].Name)
	assert.Zero(t, TooDeep(res.Tools[1].Meta))
}

// fitLines finds messages as the SDK's decoder does, whatever the reads
// cut, and passes on what it need not fit byte for byte.
func TestFitLines(t *testing.T) {
	deepAnswer := `{"jsonrpc":"2.0","id":1,"result":` + deep(3000) + `}`
	fitted, _ := fitMessage([]byte(deepAnswer))
	pretty := "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 2,\n  \"result\": {}\n}\n"
	tests := []struct {
		name, in, want string
	}{
		{"shallow lines", `{"a":1}` + "\n\n" + `{"b":"[{\"}"}` + "\r\n", `{"a":1}` + "\n\n" + `{"b":"[{\"}"}` + "\r\n"},
		{"a deep answer between", `{"a":1}` + "\n" + deepAnswer + "\n" + `{"b":2}` + "\n", `{"a":1}` + "\n" + string(fitted) + "\n" + `{"b":2}` + "\n"},
		{"a deep notification dropped", `{"jsonrpc":"2.0","method":"m","params":` + deep(3000) + "}\n" + `{"b":2}` + "\n", `{"b":2}` + "\n"},
		{"a message over lines", pretty, pretty},
		{"a body without a newline", deepAnswer, string(fitted)},
		{"cut off", `{"a":[1,` + deep(3000), `{"a":[1,` + deep(3000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in)), iotest.HalfReader(strings.NewReader(tt.in))} {
				got, err := io.ReadAll(fitLines(r, maxFitFrame))
				require.NoError(t, err)
				assert.Equal(t, tt.want, string(got))
			}
		})
	}
}

// A message past maxFitFrame is passed on as it came, without being held:
// the SDK's own cap refuses it next.
func TestFitLinesPassesOnWhatIsTooLong(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":1,"result":{"v":"` + strings.Repeat("x", maxFitFrame) + `","d":` + deep(2000) + "}}\n"
	in := huge + `{"jsonrpc":"2.0","id":2,"result":` + deep(2000) + "}\n"
	fitted, _ := fitMessage([]byte(`{"jsonrpc":"2.0","id":2,"result":` + deep(2000) + "}"))
	got, err := io.ReadAll(fitLines(strings.NewReader(in), maxFitFrame))
	require.NoError(t, err)
	assert.True(t, bytes.Equal([]byte(huge+string(fitted)+"\n"), got), "the long message was changed, or the next one not fitted")
}

func TestFitEvents(t *testing.T) {
	deepAnswer := `{"jsonrpc":"2.0","id":1,"result":` + deep(3000) + `}`
	fitted, _ := fitMessage([]byte(deepAnswer))
	cut := strings.Index(deepAnswer, `"id"`)
	shallow := "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: comment\n\n"
	tests := []struct {
		name, in, want string
	}{
		{"shallow", shallow, shallow},
		{"deep", "id: 7\ndata: " + deepAnswer + "\n\n", "id: 7\ndata: " + string(fitted) + "\n\n"},
		{"deep over data lines", "data: " + deepAnswer[:cut] + "\r\nid: 8\ndata:" + deepAnswer[cut:] + "\r\n\r\n", "data: " + string(fitted) + "\nid: 8\n\r\n"},
		{"deep notification", "id: 9\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":" + deep(3000) + "}\n\nid: 10\ndata: {}\n\n", "id: 9\n\nid: 10\ndata: {}\n\n"},
		{"priming event", "id: 0\ndata:\n\n", "id: 0\ndata:\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := io.ReadAll(fitEvents(r, maxFitFrame))
				require.NoError(t, err)
				assert.Equal(t, tt.want, string(got))
			}
		})
	}
}

// FuzzFitMessage: JSONShape counts depth as the SDK does (a message is
// refused for its depth exactly when JSONShape says it is too deep); a
// message the SDK decodes comes back as it is, through fitMessage and
// through fitLines; and one gate fits is no longer refused for its depth.
func FuzzFitMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":` + deep(1000) + `}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":` + deep(999) + `}`,
		`{"jsonrpc":"2.0","id":1,"result":` + deep(1000) + `}`,
		`{"jsonrpc":"2.0","method":"m","params":{"s":"` + strings.Repeat("[", 1200) + `"}}`,
		`[{"jsonrpc":"2.0","id":1,"result":` + deep(1001) + `}]`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":"\"[["}` + strings.Repeat("]", 5) + `}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		depth, _ := JSONShape(msg)
		if got := tooDeepForSDK(msg); got != (depth > SDKMaxDepth) {
			t.Fatalf("depth %d, yet the SDK refuses it for its depth: %v", depth, got)
		}
		fitted, keep := fitMessage(msg)
		if depth <= SDKMaxDepth {
			if !keep || !bytes.Equal(fitted, msg) {
				t.Fatalf("a message within the SDK's depth was changed: %q", fitted)
			}
			lines, err := io.ReadAll(fitLines(bytes.NewReader(msg), maxFitFrame))
			if err != nil || !bytes.Equal(lines, msg) {
				t.Fatalf("fitLines changed a message within the SDK's depth: %q", lines)
			}
			return
		}
		if keep && !bytes.Equal(fitted, msg) && tooDeepForSDK(fitted) {
			t.Fatalf("fitted, and still too deep: %q", fitted)
		}
	})
}
