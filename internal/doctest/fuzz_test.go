package doctest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// FuzzParse: any page parses or is refused without a panic, and a page
// that parses is written back byte for byte.
func FuzzParse(f *testing.F) {
	f.Add(page)
	f.Add("<!-- doc: run env=\"A=b c\" -->\n```\n$ x \\\n\n```\n")
	f.Add("```sh\n\\\n```\n")
	f.Add("<!-- doc: from Test -->\n````\n$ \n````")
	f.Add("- x\n  ```\n  $ a\n b\n  \n  ```\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("p.md", []byte(src))
		if err != nil {
			return
		}
		assert.Equal(t, src, string(p.Bytes()))
		for _, b := range p.Blocks {
			for _, s := range b.Steps {
				Match(s.Output, s.Output)
				Merge(s.Output, s.Output)
			}
		}
	})
}

// FuzzLinks: the links and anchors of any page that parses are read
// without a panic, and an anchor is its own anchor.
func FuzzLinks(f *testing.F) {
	f.Add(linkPage)
	f.Add("## `a` [b](c#d) ##\n")
	f.Add("[x](#)\n```\n[y](z)\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("p.md", []byte(src))
		if err != nil {
			return
		}
		for _, l := range p.Links() {
			assert.Positive(t, l.Line)
		}
		for a := range p.Anchors() {
			assert.Equal(t, a, Anchor(a))
		}
	})
}
