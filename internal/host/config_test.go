package host

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestConfig(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 30} {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprint("key", i)] = fmt.Sprint("value", i)
		}
		m2 := map[string]string{}
		for k, v := range m {
			m2[k] = v
		}
		c := NewConfig(m)
		assert.Equal(t, n, c.Len())
		for k, v := range m {
			got, ok := c.Lookup(k)
			assert.True(t, ok, k)
			assert.Equal(t, v, got, k)
		}
		for _, missing := range []string{"", "key", "key0x", "zzz", "a"} {
			_, ok := c.Lookup(missing)
			assert.False(t, ok, missing)
		}
		assert.Equal(t, m2, c.Map())
		m["key0"] = "changed"
		if n > 0 {
			v, _ := c.Lookup("key0")
			assert.Equal(t, "value0", v, "NewConfig copies")
		}
	}
	v, ok := NewConfig(map[string]string{"empty": ""}).Lookup("empty")
	assert.True(t, ok, "an empty value is set")
	assert.Equal(t, "", v)
}
