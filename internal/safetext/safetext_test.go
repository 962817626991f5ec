package safetext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClean(t *testing.T) {
	tests := []struct {
		in        string
		multiline bool
		want      string
	}{
		{"plain text, ünïcode", false, "plain text, ünïcode"},
		{"bell\a esc\x1b[2J del\x7f c1\u0085", false, "bell\uFFFD esc\uFFFD[2J del\uFFFD c1\uFFFD"},
		{"rlo\u202eevil\u202c lri\u2066x\u2069 alm\u061c", false, "rlo\uFFFDevil\uFFFD lri\uFFFDx\uFFFD alm\uFFFD"},
		{"line\u2028sep", false, "line\uFFFDsep"},
		{"two\nlines\tand\rcr", false, "two\uFFFDlines\uFFFDand\uFFFDcr"},
		{"two\nlines\tand\rcr", true, "two\nlines\tand\uFFFDcr"},
		{"bad \xff utf-8", false, "bad \uFFFD utf-8"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Clean(tt.in, tt.multiline), "%q", tt.in)
	}
}
