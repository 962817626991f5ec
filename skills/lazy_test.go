package skills

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The package's regexps are compiled on first use (sync.OnceValue). These
// pin what each must accept and capture, so that a lazy initialiser
// returning the wrong expression (or a different one on a later call)
// fails here rather than somewhere deep in parsing.
func TestLazyRegexps(t *testing.T) {
	t.Run("nameRule", func(t *testing.T) {
		for _, ok := range []string{"a", "pdf", "pdf-tools", "a1-b2-c3", "0"} {
			assert.True(t, nameRule().MatchString(ok), ok)
		}
		for _, bad := range []string{"", "-a", "a-", "a--b", "PDF", "a_b", "a b", "é", "a\n"} {
			assert.False(t, nameRule().MatchString(bad), bad)
		}
	})
	t.Run("lenientKey", func(t *testing.T) {
		m := lenientKey().FindStringSubmatch("allowed-tools:   Bash Read ")
		assert.Equal(t, []string{"allowed-tools:   Bash Read ", "allowed-tools", "Bash Read "}, m)
		m = lenientKey().FindStringSubmatch("name:")
		assert.Equal(t, []string{"name:", "name", ""}, m)
		for _, bad := range []string{" name: x", "na me: x", "name x", ": x", "- name: x"} {
			assert.Nil(t, lenientKey().FindStringSubmatch(bad), bad)
		}
	})
	t.Run("yamlLine", func(t *testing.T) {
		m := yamlLine().FindStringSubmatch("yaml: line 12: did not find expected key")
		assert.Equal(t, []string{"yaml: line 12: did not find expected key", "12", "did not find expected key"}, m)
		for _, bad := range []string{"yaml: did not find expected key", "yaml: line x: y", "error: yaml: line 1: y"} {
			assert.Nil(t, yamlLine().FindStringSubmatch(bad), bad)
		}
	})
	t.Run("compiled once", func(t *testing.T) {
		assert.Same(t, nameRule(), nameRule())
		assert.Same(t, lenientKey(), lenientKey())
		assert.Same(t, yamlLine(), yamlLine())
	})
}
