package uplink

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestURLOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/mcp":          "http://h:80",
		"HTTPS://H.example/x":   "https://h.example:443",
		"https://h:443/":        "https://h:443",
		"http://[::1]:8080/mcp": "http://[::1]:8080",
	} {
		u, err := url.Parse(in)
		require.NoError(t, err)
		assert.Equal(t, want, OriginOf(u).String(), in)
	}
}
