package host

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClipUTF8(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		max  int
		want string
	}{
		{"short", []byte("hello"), 10, "hello"},
		{"cut ascii", []byte("hello"), 3, "hel"},
		{"cut inside a rune", []byte("aé"), 2, "a"},        // é is 2 bytes
		{"cut inside a 4-byte rune", []byte("a😀"), 4, "a"}, // 😀 is 4 bytes
		{"whole rune at the end", []byte("aé"), 3, "aé"},
		{"invalid bytes replaced", []byte{'a', 0xff, 'b'}, 10, "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, clipUTF8(tt.in, tt.max))
		})
	}
}

// gate.import refuses a malformed spec (-6) before the grants see it, and
// an absolute path under "lib:*" is denied (-2), never looked up.
func TestImportSpecCheckedBeforeGrants(t *testing.T) {
	g := newGuest(t)
	tmp := t.TempDir()
	c := testCall(t, Grants{Import: []string{"lib:*", "bin:*", "lib:" + tmp + "/*"}})
	assertImports(t, g, c, []importCase{
		{"lib:/etc/passwd", StatusDenied},
		{"bin:/bin/sh", StatusDenied},
		{"bin:sh", StatusOK},
		{"lib:" + tmp + "/../../etc/passwd", StatusBadRequest},
		{"lib:" + tmp + "//x.so", StatusBadRequest},
		{"lib:" + tmp + "/./x.so", StatusBadRequest},
		{"lib:" + tmp + "/x.so", StatusNotFound},
		{"bin:..", StatusBadRequest},
		{"nocolon", StatusBadRequest},
		{"Lib:x", StatusBadRequest},
	})
	assert.Equal(t, []string{`import "lib:/etc/passwd" not granted to probe "t"`, `import "bin:/bin/sh" not granted to probe "t"`}, c.Denials())
}
