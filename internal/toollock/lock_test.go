package toollock

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
)

// TestFormatGolden pins the lock file's format: a header, then one
// sorted line per tool, "-" for a part the tool does not have.
func TestFormatGolden(t *testing.T) {
	t.Parallel()
	search := &mcp.Tool{Name: "search", Description: "Search the notes.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}
	write := &mcp.Tool{Name: "write", Title: "Write", Description: "Write a note.", InputSchema: map[string]any{"type": "object"},
		OutputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true)},
		Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://notes/write"}}, Icons: []mcp.Icon{{Source: "https://notes.example/write.png"}}}
	var entries []Entry
	for _, tc := range []struct {
		server string
		tool   *mcp.Tool
	}{{"notes", write}, {"notes", search}, {"github", search}} {
		s, err := SumsOf(tc.tool)
		require.NoError(t, err)
		entries = append(entries, Entry{Server: tc.server, Tool: tc.tool.Name, Sums: s})
	}
	f := (&File{}).Replace("notes", entries[:2]).Replace("github", entries[2:])
	got := Format(f)
	path := filepath.Join("testdata", "gate.lock")
	golden.Check(t, path, got)
	back, err := Parse(path, got)
	require.NoError(t, err)
	assert.Equal(t, f, back)
}

// TestSumsIgnoreKeyOrderAndSpace: an upstream that writes the same schema
// with its keys in another order, or other white space, has not changed
// its tool; one that changes a value has.
func TestSumsIgnoreKeyOrderAndSpace(t *testing.T) {
	t.Parallel()
	a := &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`)}
	b := &mcp.Tool{Name: "t", InputSchema: json.RawMessage("{ \"properties\" : {\"b\":{\"type\":\"integer\"},\n\"a\":{\"type\":\"string\"}}, \"type\":\"object\" }")}
	c := &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}}}`)}
	sa, err := SumsOf(a)
	require.NoError(t, err)
	sb, err := SumsOf(b)
	require.NoError(t, err)
	sc, err := SumsOf(c)
	require.NoError(t, err)
	assert.Empty(t, sa.Differ(sb))
	assert.Equal(t, []Part{Input}, sa.Differ(sc))
	assert.Empty(t, sa[Title], "no title, no sum")
	assert.Empty(t, sa[Output], "no output schema, no sum")
}

// TestParseErrors: each problem names the file and the line, and says
// what is wrong.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	sum := strings.Repeat("a", 64)
	good := "s t title=- description=" + sum + " input=" + sum + " output=- annotations=- meta=- icons=" + sum + " other=-"
	for _, tc := range []struct{ name, src, want string }{
		{"fields", "# c\n\ns t title=-\n", "gate.lock:3: 3 fields: want SERVER TOOL"},
		{"server", strings.Replace(good, "s ", "s!x ", 1), `gate.lock:1: bad server name "s!x"`},
		{"tool", strings.Replace(good, " t ", " t/x ", 1), `gate.lock:1: bad tool name "t/x"`},
		{"key", strings.Replace(good, "title=", "titel=", 1), `gate.lock:1: field 3 is "titel=-"`},
		{"order", strings.Replace(strings.Replace(good, "output=-", "X", 1), "annotations=-", "output=-", 1), `gate.lock:1: field 6 is "X"`},
		{"short sum", strings.Replace(good, "input="+sum, "input=abc", 1), `gate.lock:1: input sum "abc": want 64 lowercase hex digits`},
		{"upper sum", strings.Replace(good, "input="+sum, "input="+strings.ToUpper(sum), 1), `gate.lock:1: input sum`},
		{"duplicate", good + "\n# x\n" + good + "\n", "gate.lock:3: server s's tool t is already at line 1"},
		{"control", "s\x1b[2J t", `gate.lock:1: 2 fields`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("gate.lock", []byte(tc.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var le *Error
			require.ErrorAs(t, err, &le)
		})
	}
	f, err := Parse("gate.lock", []byte(good+"\r\n"))
	require.NoError(t, err, "CRLF line ends are read")
	require.Len(t, f.Entries, 1)
}

// TestParseFirstFormat: a line written before _meta, icons and other
// fields were pinned reads as a tool that had none of them, so a tool
// that has them now differs from it in just those parts.
func TestParseFirstFormat(t *testing.T) {
	t.Parallel()
	tool := &mcp.Tool{Name: "t", Description: "d", InputSchema: map[string]any{"type": "object"}}
	sums, err := SumsOf(tool)
	require.NoError(t, err)
	line := fmt.Sprintf("s t title=- description=%s input=%s output=- annotations=-\n", sums[Description], sums[Input])
	f, err := Parse("gate.lock", []byte(line))
	require.NoError(t, err)
	got, ok := f.Lookup("s", "t")
	require.True(t, ok)
	assert.Empty(t, got.Differ(sums))

	tool.Meta = mcp.Meta{"openai/outputTemplate": "ui://widget/t.html"}
	tool.Icons = []mcp.Icon{{Source: "https://tracker.example/t.png"}}
	now, err := SumsOf(tool)
	require.NoError(t, err)
	assert.Equal(t, []Part{Meta, Icons}, got.Differ(now))
	assert.Contains(t, string(Format(f)), " meta=- icons=- other=-\n", "written again in the current format")
}

// TestSumsCoverEveryField: whatever field of a tool the SDK offers a
// client, a change of it changes a sum. A field the SDK adds fails this
// test until it is given a value here, and so a look at how it is pinned.
func TestSumsCoverEveryField(t *testing.T) {
	t.Parallel()
	values := map[string][2]string{
		"name":         {`"t"`, `"t"`}, // the lock's key, not a part
		"title":        {`"a"`, `"b"`},
		"description":  {`"a"`, `"b"`},
		"inputSchema":  {`{"type":"object"}`, `{"type":"object","required":["x"]}`},
		"outputSchema": {`{"type":"object"}`, `{"type":"object","required":["x"]}`},
		"annotations":  {`{"title":"a"}`, `{"title":"b"}`},
		"_meta":        {`{"ui":{"resourceUri":"ui://a"}}`, `{"ui":{"resourceUri":"ui://b"}}`},
		"icons":        {`[{"src":"https://a.example/i.png"}]`, `[{"src":"https://b.example/i.png"}]`},
	}
	typ := reflect.TypeFor[mcp.Tool]()
	var keys []string
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if key == "" || key == "-" {
			key = typ.Field(i).Name
		}
		keys = append(keys, key)
		require.Contains(t, values, key, "mcp.Tool's field %s reaches clients: give it values here and check its changes are pinned", key)
	}
	tool := func(changed string) Sums {
		var b strings.Builder
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			v := values[k][0]
			if k == changed {
				v = values[k][1]
			}
			fmt.Fprintf(&b, "%q:%s", k, v)
		}
		b.WriteString("}")
		var tl mcp.Tool
		require.NoError(t, json.Unmarshal([]byte(b.String()), &tl), b.String())
		s, err := SumsOf(&tl)
		require.NoError(t, err)
		return s
	}
	base := tool("")
	for _, k := range keys {
		if k == "name" {
			continue
		}
		assert.NotEmpty(t, base.Differ(tool(k)), "a change of %s changes no sum", k)
	}
}

// TestReadRefusesNonRegular: a lock that is a FIFO, a link to /dev/zero or
// a huge file is refused at once, not waited on or read.
func TestReadRefusesNonRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.lock")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zero := filepath.Join(dir, "zero.lock")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	huge := filepath.Join(dir, "huge.lock")
	hf, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, hf.Truncate(MaxBytes+1)) // sparse
	require.NoError(t, hf.Close())
	for _, tc := range []struct{ path, want string }{
		{fifo, "not a regular file"},
		{zero, "not a regular file"},
		{huge, "too large"},
		{filepath.Join(dir, "none.lock"), "no such file"},
	} {
		_, err := Read(tc.path)
		require.Error(t, err, tc.path)
		assert.Contains(t, err.Error(), tc.want)
	}
	_, err = Read(filepath.Join(dir, "none.lock"))
	assert.True(t, IsMissing(err))
}

// TestWriteReplacesAtomically: Write leaves the file whole and no
// temporary file beside it.
func TestWriteReplacesAtomically(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "gate.lock")
	f := (&File{}).Replace("s", []Entry{{Tool: "t", Sums: Sums{Input: strings.Repeat("0", 64)}}})
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	require.NoError(t, Write(path, f))
	got, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, f, got)
	names, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, names, 1)
}

func TestPathFor(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"gate.toml":          "gate.lock",
		"/etc/gate/a.b.toml": "/etc/gate/a.b.lock",
		"dir.d/manifest":     "dir.d/manifest.lock",
		"gate":               "gate.lock",
	} {
		assert.Equal(t, want, PathFor(in), in)
	}
}

func TestLookupAndServer(t *testing.T) {
	t.Parallel()
	s := Sums{Input: strings.Repeat("1", 64)}
	f := (&File{}).Replace("b", []Entry{{Tool: "x", Sums: s}, {Tool: "y"}}).Replace("a", []Entry{{Tool: "x"}}).Replace("c", nil)
	got, ok := f.Lookup("b", "x")
	require.True(t, ok)
	assert.Equal(t, s, got)
	_, ok = f.Lookup("b", "z")
	assert.False(t, ok)
	assert.Len(t, f.Server("b"), 2)
	assert.Empty(t, f.Server("c"))
	assert.Equal(t, []string{"a", "b"}, f.Servers())
	assert.Equal(t, []Part{Input}, Sums{}.Differ(s))
	assert.Equal(t, "input schema", Input.String())
}
