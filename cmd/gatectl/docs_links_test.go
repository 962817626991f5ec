package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/doctest"
)

// TestDocLinks: every relative link of the pages (docPages, BENCHMARKS.md
// included) leads to a file that exists, and one with a fragment to a
// heading of the page it names, so that renaming a heading (a decision of
// RATIONALE.md, a measurement of BENCHMARKS.md) cannot leave a link that
// leads nowhere.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	pages := map[string]*doctest.Page{}
	load := func(path string) *doctest.Page {
		if p, ok := pages[path]; ok {
			return p
		}
		p, err := doctest.Load(path)
		require.NoError(t, err)
		pages[path] = p
		return p
	}
	n := 0
	for _, glob := range docPages {
		paths, err := filepath.Glob(filepath.Join(root, glob))
		require.NoError(t, err)
		for _, path := range paths {
			rel, err := filepath.Rel(root, path)
			require.NoError(t, err)
			for _, l := range load(path).Links() {
				n++
				at := filepath.ToSlash(rel) + ":" + strconv.Itoa(l.Line)
				target := path
				if l.Target != "" {
					target = filepath.Join(filepath.Dir(path), filepath.FromSlash(l.Target))
				}
				if _, err := os.Stat(target); !assert.NoError(t, err, "%s: a link to %s, which does not exist", at, l.Target) {
					continue
				}
				if l.Fragment == "" || !strings.HasSuffix(target, ".md") {
					continue
				}
				assert.True(t, load(target).Anchors()[l.Fragment],
					"%s: a link to %s#%s, but no heading of %s has that anchor", at, l.Target, l.Fragment, filepath.Base(target))
			}
		}
	}
	assert.Greater(t, n, 100, "the pages' links were not found")
}
