package hostfuncs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGrantsMerge(t *testing.T) {
	t.Parallel()
	g := Grants{Env: []string{"B", "A"}}.Merge(Grants{Env: []string{"A", "C"}, Dial: []string{"x:1"}})
	assert.Equal(t, Grants{Env: []string{"A", "B", "C"}, Dial: []string{"x:1"}}, g)
}

func TestGrantsV2IsZero(t *testing.T) {
	t.Parallel()
	assert.True(t, Grants{}.IsZero())
	assert.True(t, Grants{HTTP: []string{}, Secrets: map[string][]string{}, Insecure: []string{}}.IsZero())
	for _, g := range []Grants{
		{HTTP: []string{"https://api.example.com/"}},
		{Secrets: map[string][]string{"K": {"x:1"}}},
		{Insecure: []string{"localhost:8443"}},
	} {
		assert.False(t, g.IsZero(), "%+v", g)
	}
}

func TestGrantsV2Merge(t *testing.T) {
	t.Parallel()
	g := Grants{HTTP: []string{"https://b.example/"}, Secrets: map[string][]string{"K": {"x:2"}}}.Merge(Grants{
		HTTP:     []string{"https://a.example/", "https://b.example/"},
		Secrets:  map[string][]string{"J": {"x:1"}, "K": {"x:1", "x:2"}},
		Insecure: []string{"localhost:8443"},
	})
	assert.Equal(t, Grants{
		HTTP:     []string{"https://a.example/", "https://b.example/"},
		Secrets:  map[string][]string{"J": {"x:1"}, "K": {"x:1", "x:2"}},
		Insecure: []string{"localhost:8443"},
	}, g)
	assert.True(t, Grants{}.Merge(Grants{}).IsZero())
}
