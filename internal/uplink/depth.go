package uplink

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// SDKMaxDepth is how deeply objects and arrays may nest in one JSON-RPC
// message for the MCP SDK v1.8.0 to decode it (internal/json's
// defaultMaxDepth): past it the SDK fails the message, and with it the
// whole session, so that one tool nested too deep would hide every tool
// of its server, for ever (each new session lists it again). gate reads
// what an upstream sends through fitMessage first.
const SDKMaxDepth = 1000

// tooDeepKey marks the stand-in fitMessage puts where a tool was that
// nests too deep; its value is the depth. checkTool hides such a tool
// with why.
const tooDeepKey = "gate.dev/too-deep"

// fitMessage returns one message an upstream sent (a JSON-RPC message or
// a batch of them) as the SDK can decode it, and false when it is to be
// dropped. A message that nests no deeper than SDKMaxDepth, or that is not
// a JSON-RPC message gate can take apart, comes back as it is. Of one that
// nests deeper, what is too deep is cut out and only what it belongs to
// fails:
//
//   - each tool of a tools/list result that is too deep is replaced by a
//     stand-in that names it and is hidden with why; the other tools are
//     listed;
//   - any other answer becomes a JSON-RPC error for its id, which the call
//     that asked gets;
//   - a request or notification from the upstream is dropped (a request
//     then goes unanswered: the upstream's own loss).
func fitMessage(msg []byte) ([]byte, bool) {
	if depth, _ := JSONShape(msg); depth <= SDKMaxDepth {
		return msg, true
	}
	i := skipSpace(msg, 0)
	if i < len(msg) && msg[i] == '[' {
		return fitBatch(msg, i)
	}
	if i == len(msg) || msg[i] != '{' {
		return msg, true
	}
	var id, result, method []byte
	ok := members(msg, i, func(key string, val []byte) {
		switch key {
		case "id":
			id = val
		case "result":
			result = val
		case "method":
			method = val
		}
	})
	switch {
	case !ok:
		return msg, true
	case method != nil:
		return nil, false
	case id == nil:
		return msg, true
	}
	if result != nil {
		if fitted, ok := fitToolList(msg, result); ok {
			if depth, _ := JSONShape(fitted); depth <= SDKMaxDepth {
				return fitted, true
			}
		}
	}
	depth, _ := JSONShape(msg)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"gate: the server's answer nests %d deep, over the %d levels the MCP SDK decodes; it was not passed on"}}`, id, depth, SDKMaxDepth), true
}

// fitBatch fits each message of the batch that starts at msg[i].
func fitBatch(msg []byte, i int) ([]byte, bool) {
	var out bytes.Buffer
	out.WriteByte('[')
	n := 0
	ok := elements(msg, i, func(e []byte) {
		fitted, keep := fitMessage(e)
		if !keep {
			return
		}
		if n > 0 {
			out.WriteByte(',')
		}
		out.Write(fitted)
		n++
	})
	switch {
	case !ok:
		return msg, true
	case n == 0:
		return nil, false
	}
	out.WriteByte(']')
	return out.Bytes(), true
}

// fitToolList returns msg with each tool of its result (the span result
// of msg) that nests too deep replaced by a stand-in, and false when the
// result has no list of tools.
func fitToolList(msg, result []byte) ([]byte, bool) {
	var tools []byte
	if !members(result, 0, func(key string, val []byte) {
		if key == "tools" {
			tools = val
		}
	}) || tools == nil || tools[0] != '[' {
		return nil, false
	}
	base := spanStart(msg, tools)
	var out bytes.Buffer
	last := 0
	elements(tools, 0, func(tool []byte) {
		// The message, the result and the list are three levels.
		depth, _ := JSONShape(tool)
		if depth+3 <= SDKMaxDepth {
			return
		}
		start := base + spanStart(tools, tool)
		out.Write(msg[last:start])
		out.Write(toolStandIn(tool, depth))
		last = start + len(tool)
	})
	out.Write(msg[last:])
	return out.Bytes(), true
}

// toolStandIn is what fitToolList lists instead of a tool nested too deep:
// its name (the raw string, when it has one), a schema the SDK takes, and
// the mark that hides it, with the tool's depth.
func toolStandIn(tool []byte, depth int) []byte {
	name := []byte(`""`)
	if tool[0] == '{' {
		members(tool, 0, func(key string, val []byte) {
			if key == "name" && val[0] == '"' {
				name = val
			}
		})
	}
	return fmt.Appendf(nil, `{"name":%s,"inputSchema":{"type":"object"},"_meta":{%q:%d}}`, name, tooDeepKey, depth)
}

// members calls fn with each member of the object that starts at b[i]
// (after spaces): its name, and its value's bytes. It reports false when
// b holds no well-formed object there (then fn may have been called for
// some members).
func members(b []byte, i int, fn func(key string, val []byte)) bool {
	return items(b, i, '{', fn)
}

// elements calls fn with each element of the array that starts at b[i]
// (after spaces); false when b holds no well-formed array there.
func elements(b []byte, i int, fn func(e []byte)) bool {
	return items(b, i, '[', func(_ string, e []byte) { fn(e) })
}

// items walks the object ('{') or array ('[') that starts at b[i], calling
// fn with each member's name ("" in an array) and value.
func items(b []byte, i int, open byte, fn func(key string, val []byte)) bool {
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	i = skipSpace(b, i)
	if i == len(b) || b[i] != open {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == closing {
		return true
	}
	for i < len(b) {
		var key string
		if open == '{' {
			kend := valueEnd(b, i)
			if kend < 0 || b[i] != '"' || json.Unmarshal(b[i:kend], &key) != nil {
				return false
			}
			i = skipSpace(b, kend)
			if i == len(b) || b[i] != ':' {
				return false
			}
			i = skipSpace(b, i+1)
		}
		vend := valueEnd(b, i)
		if vend < 0 {
			return false
		}
		fn(key, b[i:vend])
		i = skipSpace(b, vend)
		if i == len(b) {
			return false
		}
		switch b[i] {
		case closing:
			return true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
	return false
}

// valueEnd returns the index just past the JSON value that starts at
// b[i], or -1 when none ends in b. It follows strings and the nesting of
// brackets, however deep (no recursion), and takes a number or a literal
// to run to the next delimiter: what the value means is left to the SDK's
// decoder, which refuses what is not JSON.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := valueEnd(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	case '}', ']', ',', ':':
		return -1
	}
	j := i
	for j < len(b) && !delimiter(b[j]) {
		j++
	}
	return j
}

func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// spanStart returns where sub, a subslice of b, starts in b.
func spanStart(b, sub []byte) int {
	return cap(b) - cap(sub)
}

// TooDeep returns the depth a stand-in of fitToolList records, or 0.
func TooDeep(meta map[string]any) int {
	switch v := meta[tooDeepKey].(type) {
	case float64:
		return int(v)
	case json.Number:
		n, _ := strconv.Atoi(string(v))
		return n
	}
	return 0
}

// JSONShape returns how deeply objects and arrays nest in raw, and how
// many objects it holds, in one pass that skips strings: the look the MCP
// SDK's decoder takes, without its limit.
func JSONShape(raw []byte) (depth, objects int) {
	d, inString, escaped := 0, false, false
	for _, b := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if b == '{' {
				objects++
			}
			d++
			depth = max(depth, d)
		case '}', ']':
			d = max(d-1, 0)
		}
	}
	return depth, objects
}
