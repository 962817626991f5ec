package httptoken

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// tchars is RFC 9110's tchar, written out.
const tchars = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

func TestValid(t *testing.T) {
	t.Parallel()
	for b := range 256 {
		assert.Equal(t, strings.IndexByte(tchars, byte(b)) >= 0, Valid(string([]byte{byte(b)})), "byte %#x", b)
	}
	for s, want := range map[string]bool{
		"Authorization": true, "X-Org_1": true, tchars: true,
		"": false, "a b": false, "a:b": false, "a\tb": false, "é": false, "(x)": false, "a\"": false,
	} {
		assert.Equal(t, want, Valid(s), "%q", s)
	}
}
