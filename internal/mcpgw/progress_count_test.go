package mcpgw

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// scanAll writes b to a scanner in pieces cut at the given points and
// returns the tokens it found.
func scanAll(prefix string, b []byte, cuts []int) []string {
	var found []string
	s := newTokenScanner(prefix, func(tk string) { found = append(found, tk) })
	last := 0
	for _, c := range cuts {
		if c > last && c < len(b) {
			s.write(b[last:c])
			last = c
		}
	}
	s.write(b[last:])
	return found
}

// tokensIn is what the scanner must find: every "PREFIX<digits>" JSON
// string, by a regular expression over the whole input.
func tokensIn(prefix string, b []byte) []string {
	re := regexp.MustCompile(`"(` + regexp.QuoteMeta(prefix) + `[0-9]{1,20})"`)
	var out []string
	for _, m := range re.FindAllSubmatch(b, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

func TestTokenScanner(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`data: {"method":"notifications/progress","params":{"progressToken":"gate-7-12","progress":1}}`, []string{"gate-7-12"}},
		{`"gate-7-1""gate-7-2"`, []string{"gate-7-1", "gate-7-2"}},
		{`"gate-7-"`, nil},
		{`"gate-71-3"`, nil},
		{`""gate-7-3"`, []string{"gate-7-3"}},
		{`"gate-7-3x"`, nil},
		{`"gate-7-123456789012345678901"`, nil},
	} {
		for cut := 0; cut <= len(c.in); cut++ {
			assert.Equal(t, c.want, scanAll("gate-7-", []byte(c.in), []int{cut}), "%q cut at %d", c.in, cut)
		}
	}
}

// FuzzTokenScanner: however the input is cut into pieces, the scanner
// finds what a regular expression finds in the whole of it.
func FuzzTokenScanner(f *testing.F) {
	f.Add([]byte(`{"progressToken":"gate-3-17"}`), 5, 11)
	f.Add([]byte(`"gate-3-1""gate-3-""gate-3-99"`), 1, 20)
	f.Fuzz(func(t *testing.T, b []byte, c1, c2 int) {
		cuts := []int{c1, c2}
		slices.Sort(cuts)
		got := scanAll("gate-3-", b, cuts)
		want := tokensIn("gate-3-", b)
		if !slices.Equal(got, want) {
			t.Fatalf("%q cut at %v: found %q, want %q", b, cuts, got, want)
		}
	})
}

// The SDK's streamable client connection is never wrapped (it would lose
// its session, its protocol-version header and its standalone stream):
// the type name countProgress looks for is the SDK's.
func TestStreamableClientConnIsNotWrapped(t *testing.T) {
	c, err := (&mcp.StreamableClientTransport{Endpoint: "http://127.0.0.1:9"}).Connect(context.Background())
	assert.NoError(t, err)
	defer c.Close()
	assert.Equal(t, streamableClientConn, fmt.Sprintf("%T", c))
	wrapped, err := (&countingTransport{Transport: &mcp.StreamableClientTransport{Endpoint: "http://127.0.0.1:9"}}).Connect(context.Background())
	assert.NoError(t, err)
	defer wrapped.Close()
	assert.Equal(t, streamableClientConn, fmt.Sprintf("%T", wrapped))
}
