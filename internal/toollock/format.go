package toollock

import (
	"bytes"
	"fmt"
	"strings"
)

// Header is the comment that starts every file Format writes.
const Header = "# gate lock file: SHA-256 sums of the parts of each MCP tool's definition as gate offers it. `gatectl mcp lock` writes it; a server with pin = true in the manifest hides a tool that differs."

// Format returns f as a lock file: Header, then one line per entry, in
// the order of f (Parse sorts).
func Format(f *File) []byte {
	var b bytes.Buffer
	b.WriteString(Header)
	b.WriteByte('\n')
	if f == nil {
		return b.Bytes()
	}
	for _, e := range f.Entries {
		b.WriteString(e.Server)
		b.WriteByte(' ')
		b.WriteString(e.Tool)
		for p := range NumParts {
			b.WriteByte(' ')
			b.WriteString(parts[p].key)
			b.WriteByte('=')
			if e.Sums[p] == "" {
				b.WriteByte('-')
			} else {
				b.WriteString(e.Sums[p])
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Error is a problem of a lock file, at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Parse parses a lock file's bytes; name is the file, for messages. Every
// problem is an *Error naming the file and line; lines may come in any
// order (Parse sorts them), but each tool of a server once.
func Parse(name string, b []byte) (*File, error) {
	f := &File{}
	first := map[[2]string]int{}
	line := 0
	for len(b) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			l, b = b, nil
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		s := string(l)
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") {
			continue
		}
		e, msg := parseLine(s)
		if msg != "" {
			return nil, &Error{File: name, Line: line, Msg: msg}
		}
		k := [2]string{e.Server, e.Tool}
		if at, dup := first[k]; dup {
			return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf("server %s's tool %s is already at line %d", e.Server, e.Tool, at)}
		}
		first[k] = line
		f.Entries = append(f.Entries, e)
	}
	sortEntries(f.Entries)
	return f, nil
}

// parseLine parses one entry's line, or says what is wrong with it.
func parseLine(s string) (Entry, string) {
	const want = "want SERVER TOOL title=SUM description=SUM input=SUM output=SUM annotations=SUM meta=SUM icons=SUM other=SUM (a SUM is 64 hex digits, or - for none)"
	fields := strings.Fields(s)
	// A line of the first format ends at annotations: the tool had no
	// _meta, icons or other fields then.
	if len(fields) != 2+int(NumParts) && len(fields) != 2+int(firstParts) {
		return Entry{}, fmt.Sprintf("%d fields: %s", len(fields), want)
	}
	e := Entry{Server: fields[0], Tool: fields[1]}
	if !serverName(e.Server) {
		return Entry{}, fmt.Sprintf("bad server name %q: want 1 to 128 letters, digits, or any of _ . : / @ -", e.Server)
	}
	if !toolName(e.Tool) {
		return Entry{}, fmt.Sprintf("bad tool name %q: want 1 to 128 letters, digits, _ - or .", e.Tool)
	}
	for p := range Part(len(fields) - 2) {
		kv := fields[2+int(p)]
		val, ok := strings.CutPrefix(kv, parts[p].key+"=")
		if !ok {
			return Entry{}, fmt.Sprintf("field %d is %q: %s", 3+int(p), clip(kv), want)
		}
		switch {
		case val == "-":
		case isSum(val):
			e.Sums[p] = val
		default:
			return Entry{}, fmt.Sprintf("%s sum %q: want 64 lowercase hex digits, or - for none", parts[p].key, clip(val))
		}
	}
	return e, ""
}

// clip cuts a field quoted in a message to a length a reader can take.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

func isSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// serverName is the manifest's rule for a server's name.
func serverName(s string) bool { return nameOf(s, "_.:/@-") }

// toolName is MCP's rule for a tool's name.
func toolName(s string) bool { return nameOf(s, "_-.") }

func nameOf(s, extra string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}
